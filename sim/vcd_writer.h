// vcd_writer.h: a small VCD writer for the co-simulation's waveform
// windows (the C twin's side, and the side-by-side file).  Signals are
// declared first, grouped by scope; values are then given per time step,
// and only changes are written.
#ifndef SIM_VCD_WRITER_H
#define SIM_VCD_WRITER_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

class VcdWriter {
public:
    ~VcdWriter();
    // Declares scope.name of `width` bits; returns its handle.
    int add(const std::string &scope, const std::string &name, unsigned width);
    // Opens the file and writes the header.  false when it cannot.
    bool open(const std::string &path, const std::string &comment);
    void time(uint64_t t);
    void set(int sig, uint64_t value) { set(sig, &value, 1); }
    // A value of nw 64-bit words, least significant first.
    void set(int sig, const uint64_t *w, unsigned nw);
    // Flushes and closes; false if any write failed.  `tail` > 0 ends the
    // dump with an empty step `tail` after the last one, so that a viewer
    // can show time after the last change (GTKWave will not scroll past
    // the last timestamp).
    bool close(uint64_t tail = 0);

private:
    struct Sig {
        std::string scope, name, id;
        unsigned width;
        std::vector<uint64_t> value;
        bool known;
    };
    std::vector<Sig> sigs_;
    FILE *f_ = nullptr;
    bool time_written_ = false;
    uint64_t t_ = 0;
    bool ok_ = true;
};

#endif
