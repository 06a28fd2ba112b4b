// gtkw_writer.cpp: see gtkw_writer.h.
#include "gtkw_writer.h"

#include <cinttypes>
#include <cstdio>

bool write_arbiter_gtkw(const std::string &path, const std::string &vcd, unsigned n,
                        uint64_t from_time, uint64_t mismatch_time)
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
        return false;
    unsigned iw = 0;
    while ((1u << iw) < n)
        iw++;
    iw = iw ? iw : 1;
    auto vec = [](const char *scope, const char *name, unsigned w) {
        return std::string(scope) + "." + name + "[" + std::to_string(w - 1) + ":0]";
    };
    std::fprintf(f, "[*] simt cosim: warp arbiter mismatch window; mismatch at t=%" PRIu64
                    " (cycle %" PRIu64 ")\n",
                 mismatch_time, mismatch_time / 10);
    std::fprintf(f, "[dumpfile] \"%s\"\n", vcd.c_str());
    std::fprintf(f, "[timestart] %" PRIu64 "\n", from_time);
    std::fprintf(f, "[size] 1400 800\n[pos] -1 -1\n");
    std::fprintf(f, "[markername] A\n");
    std::fprintf(f, "*-3.000000 %" PRIu64 " -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 "
                    "-1 -1 -1 -1 -1 -1 -1 -1 -1\n",
                 mismatch_time);
    std::fprintf(f, "[sst_width] 250\n[signals_width] 260\n");
    std::fprintf(f, "@200\n-outputs and flops: C twin / RTL\n");
    std::fprintf(f, "@28\nc_twin.grant_valid_o\nrtl.grant_valid_o\n");
    std::fprintf(f, "@22\n%s\n%s\n", vec("c_twin", "grant_idx_o", iw).c_str(),
                 vec("rtl", "grant_idx_o", iw).c_str());
    std::fprintf(f, "@28\nc_twin.last_valid_q\nrtl.last_valid_q\n");
    std::fprintf(f, "@22\n%s\n%s\n", vec("c_twin", "last_q", iw).c_str(),
                 vec("rtl", "last_q", iw).c_str());
    std::fprintf(f, "@28\nc_twin.wopt_valid_q\nrtl.wopt_valid_q\n");
    std::fprintf(f, "@22\n%s\n%s\n", vec("c_twin", "wopt_q", 6).c_str(),
                 vec("rtl", "wopt_q", 6).c_str());
    std::fprintf(f, "@200\n-inputs (the same on both sides)\n@22\n");
    const char *names[] = { "valid_i", "ready_i", "alloc_i", "finished_i" };
    for (const char *nm : names)
        std::fprintf(f, "%s\n", vec("inputs", nm, n).c_str());
    std::fprintf(f, "%s\n", vec("inputs", "cls_i", 2 * n).c_str());
    std::fprintf(f, "@28\ninputs.issued_valid_i\n@22\n%s\n%s\n@28\ninputs.ltlws_inner_i\n",
                 vec("inputs", "issued_idx_i", iw).c_str(), vec("inputs", "policy_i", 2).c_str());
    bool ok = !std::ferror(f);
    return std::fclose(f) == 0 && ok;
}
