// kit_rtl.cpp: see kit_rtl.h.
#include "kit_rtl.h"

#include <cstring>

void kit_var_read(const KitVar &v, unsigned k, uint64_t *w, unsigned nw)
{
    const unsigned char *p = static_cast<const unsigned char *>(v.p) + (size_t)k * v.bytes;
    std::memset(w, 0, nw * sizeof *w);
    switch (v.bytes) {
    case 1: w[0] = *reinterpret_cast<const uint8_t *>(p); return;
    case 2: w[0] = *reinterpret_cast<const uint16_t *>(p); return;
    case 4: w[0] = *reinterpret_cast<const uint32_t *>(p); return;
    case 8: w[0] = *reinterpret_cast<const uint64_t *>(p); return;
    default:
        for (unsigned i = 0; i < v.bytes / 4 && i / 2 < nw; i++)
            w[i / 2] |= (uint64_t)reinterpret_cast<const uint32_t *>(p)[i] << (32 * (i % 2));
    }
}

void kit_var_write(const KitVar &v, unsigned k, const uint64_t *w, unsigned nw)
{
    unsigned char *p = static_cast<unsigned char *>(v.p) + (size_t)k * v.bytes;
    switch (v.bytes) {
    case 1: *reinterpret_cast<uint8_t *>(p) = (uint8_t)w[0]; return;
    case 2: *reinterpret_cast<uint16_t *>(p) = (uint16_t)w[0]; return;
    case 4: *reinterpret_cast<uint32_t *>(p) = (uint32_t)w[0]; return;
    case 8: *reinterpret_cast<uint64_t *>(p) = w[0]; return;
    default:
        for (unsigned i = 0; i < v.bytes / 4; i++)
            reinterpret_cast<uint32_t *>(p)[i] = i / 2 < nw ? (uint32_t)(w[i / 2] >> (32 * (i % 2))) : 0;
    }
}

KitVar KitRtl::port(const std::string &name) const
{
    for (const auto &p : ports_)
        if (p.first == name)
            return p.second;
    return KitVar{};
}

KitVar KitRtl::flop(const std::string &name) const
{
    const VerilatedVar *v = scope_ ? scope_->varFind(name.c_str()) : nullptr;
    if (!v)
        return KitVar{};
    int l = v->left(0), rr = v->right(0);
    KitVar r{ v->datap(), v->entSize(), 1, (unsigned)(l > rr ? l - rr : rr - l) + 1 };
    if (v->udims() == 1)
        r.count = (unsigned)(v->high(1) - v->low(1) + 1);
    return r;
}
