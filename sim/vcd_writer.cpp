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
    sigs_.push_back(Sig{ scope, name, make_id(sigs_.size()), width ? width : 1, 0, false });
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
    t_ = t;
    time_written_ = false;
}

void VcdWriter::set(int sig, uint64_t value)
{
    Sig &s = sigs_[(size_t)sig];
    if (s.width < 64)
        value &= ((uint64_t)1 << s.width) - 1;
    if (!f_ || (s.known && s.value == value))
        return;
    if (!time_written_) {
        std::fprintf(f_, "#%llu\n", (unsigned long long)t_);
        time_written_ = true;
    }
    s.value = value;
    s.known = true;
    if (s.width == 1) {
        std::fprintf(f_, "%c%s\n", value ? '1' : '0', s.id.c_str());
        return;
    }
    char bits[65];
    unsigned n = 0;
    for (int b = (int)s.width - 1; b >= 0; b--)
        bits[n++] = (value >> b & 1) ? '1' : '0';
    bits[n] = '\0';
    std::fprintf(f_, "b%s %s\n", bits, s.id.c_str());
}

bool VcdWriter::close()
{
    if (!f_)
        return ok_;
    ok_ = !std::ferror(f_) && ok_;
    ok_ = std::fclose(f_) == 0 && ok_;
    f_ = nullptr;
    return ok_;
}
