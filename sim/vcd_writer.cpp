// vcd_writer.cpp: see vcd_writer.h.
#include "vcd_writer.h"

namespace {

// VCD identifiers: printable ASCII 33..126, base 94.
std::string make_id(size_t n)
{
    std::string id;
    do {
        id += (char)(33 + n % 94);
        n /= 94;
    } while (n);
    return id;
}

} // namespace

VcdWriter::~VcdWriter()
{
    if (f_)
        std::fclose(f_);
}

int VcdWriter::add(const std::string &scope, const std::string &name, unsigned width)
{
    width = width ? width : 1;
    sigs_.push_back(Sig{ scope, name, make_id(sigs_.size()), width,
                         std::vector<uint64_t>((width + 63) / 64), false });
    return (int)sigs_.size() - 1;
}

bool VcdWriter::open(const std::string &path, const std::string &comment)
{
    f_ = std::fopen(path.c_str(), "w");
    if (!f_)
        return false;
    std::fprintf(f_, "$comment %s $end\n$timescale 1ns $end\n", comment.c_str());
    std::string scope;
    for (const Sig &s : sigs_) {
        if (s.scope != scope) {
            if (!scope.empty())
                std::fprintf(f_, "$upscope $end\n");
            scope = s.scope;
            std::fprintf(f_, "$scope module %s $end\n", scope.c_str());
        }
        if (s.width == 1)
            std::fprintf(f_, "$var wire 1 %s %s $end\n", s.id.c_str(), s.name.c_str());
        else
            std::fprintf(f_, "$var wire %u %s %s [%u:0] $end\n", s.width, s.id.c_str(),
                         s.name.c_str(), s.width - 1);
    }
    if (!scope.empty())
        std::fprintf(f_, "$upscope $end\n");
    std::fprintf(f_, "$enddefinitions $end\n");
    return true;
}

void VcdWriter::time(uint64_t t)
{
    if (t == t_)
        return; // the same step again: its changes go under one timestamp
    t_ = t;
    time_written_ = false;
}

void VcdWriter::set(int sig, const uint64_t *w, unsigned nw)
{
    Sig &s = sigs_[(size_t)sig];
    std::vector<uint64_t> v(s.value.size(), 0);
    for (size_t k = 0; k < v.size() && k < nw; k++)
        v[k] = w[k];
    if (s.width % 64)
        v.back() &= ((uint64_t)1 << (s.width % 64)) - 1;
    if (!f_ || (s.known && s.value == v))
        return;
    if (!time_written_) {
        std::fprintf(f_, "#%llu\n", (unsigned long long)t_);
        time_written_ = true;
    }
    s.value = v;
    s.known = true;
    if (s.width == 1) {
        std::fprintf(f_, "%c%s\n", v[0] ? '1' : '0', s.id.c_str());
        return;
    }
    std::string bits = "b";
    for (int b = (int)s.width - 1; b >= 0; b--)
        bits += (v[(size_t)b / 64] >> (b % 64) & 1) ? '1' : '0';
    std::fprintf(f_, "%s %s\n", bits.c_str(), s.id.c_str());
}

bool VcdWriter::close(uint64_t tail)
{
    if (!f_)
        return ok_;
    if (tail)
        std::fprintf(f_, "#%llu\n", (unsigned long long)(t_ + tail));
    ok_ = !std::ferror(f_) && ok_;
    ok_ = std::fclose(f_) == 0 && ok_;
    f_ = nullptr;
    return ok_;
}
