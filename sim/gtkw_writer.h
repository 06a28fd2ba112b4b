// gtkw_writer.h: the GTKWave save file of a mismatch window: it opens
// side_by_side.vcd with each of the arbiter's outputs and flops shown as a
// C-twin / RTL pair, the inputs below.
#ifndef SIM_GTKW_WRITER_H
#define SIM_GTKW_WRITER_H

#include <cstdint>
#include <string>

// false when the file cannot be written.
bool write_arbiter_gtkw(const std::string &path, const std::string &vcd, unsigned n,
                        uint64_t from_time, uint64_t mismatch_time);

#endif
