# simtlab: see `make help`.
CC      ?= cc
BUILD   ?= build
# Link-time optimisation: the timing loop's calls cross modules (memsys ->
# icnt, partition, cache; sm -> ldst, opcoll, sched), which only LTO can
# inline (docs/timing-model.md, "Link-time optimisation").  The exec files'
# -frounding-math stays theirs: GCC keeps the option per function.
OPT     ?= -O2 -flto=auto
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror
CFLAGS  += $(CSTD) $(OPT) -g $(WARN) -Icmodel/include -Icmodel/src -Itests -MMD -MP
LDLIBS  += -lm -ldl -pthread

LIB_SRCS   := $(sort $(wildcard cmodel/src/base/*.c cmodel/src/ptx/*.c \
                cmodel/src/compiler/*.c cmodel/src/exec/*.c cmodel/src/core/*.c \
                cmodel/src/units/*.c cmodel/src/mem/*.c cmodel/src/gpu/*.c))
CLI_SRCS   := $(sort $(wildcard cmodel/src/cli/*.c))
DRIVERS    := $(sort $(wildcard tests/kernels/*/driver.c workloads/*/driver.c))
TEST_SRCS  := $(sort $(wildcard tests/unit/*.c tests/ptx/*.c))
PTX_SRCS   := $(sort $(wildcard tests/kernels/*/kernel.cu workloads/*/kernel.cu))

# Exec files are compiled with exact floating-point rounding control.
$(BUILD)/obj/cmodel/src/exec/%.o: CFLAGS += -frounding-math -fno-fast-math

define objs
$(patsubst %.c,$(1)/obj/%.o,$(2))
endef

LIB_OBJS   := $(call objs,$(BUILD),$(LIB_SRCS))
CLI_OBJS   := $(call objs,$(BUILD),$(CLI_SRCS))
DRV_OBJS   := $(call objs,$(BUILD),$(DRIVERS)) $(BUILD)/obj/gen/workloads.o
TEST_OBJS  := $(call objs,$(BUILD),$(TEST_SRCS))

SIMT       := $(BUILD)/bin/simt
TESTBIN    := $(BUILD)/bin/unit_tests

.PHONY: all run test lint bench bench-suite ptx clean help deps study repro-000 repro-004 fuzz asan-test tsan-test check-build tb tb-build rtl-check cosim cosim-lib synth FORCE
all: $(SIMT) $(TESTBIN)

help:
	@echo "make run        install what is missing, build, run backprop on fermi-gtx480 with the RTL co-simulated"
	@echo "make test       install what is missing, build, run every test (ends with 'N passed, N failed')"
	@echo "make lint       compile with clang's extra warnings and run cppcheck"
	@echo "make bench      simulation speed (functional, timing) and the co-simulation slowdown"
	@echo "make bench-suite every workload at paper size (PRESET=kepler-ss|paper, ONLY=w1,w2, RECORD=1;"
	@echo "                 SPEEDUP=2: --threads 2 against one thread on the compute-heavy ones)"
	@echo "make tb         build (once) and run the RTL unit testbenches (tb/)"
	@echo "make rtl-check  verilator lint and a Yosys synthesis of every RTL unit"
	@echo "make cosim      build the co-simulation plugin (simt run --cosim, docs/cosim.md)"
	@echo "make synth      area and timing of every RTL unit on OSU 0.18um cells (docs/area-timing.md)"
	@echo "make repro-000  the Scratchpad Sharing paper's experiments on kepler-ss (SIZE=small for a quick check)"
	@echo "make repro-004  the CTA-scheduling paper's experiments on fermi-cta (SIZE=small for a quick check)"
	@echo "make study      run a study file: make study STUDY=studies/schedulers.toml (docs/experiments.md)"
	@echo "make fuzz       run the PTX parser fuzzer for FUZZ_SECONDS (default 300)"
	@echo "make ptx        regenerate every kernel.ptx with nvcc"
	@echo "make deps       install the Debian packages simtlab uses"
	@echo "make clean      remove $(BUILD)/"

deps:
	@bash scripts/deps.sh

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The driver list itself is a prerequisite: adding or removing a workload
# regenerates the registry even when no driver file is newer.
$(BUILD)/gen/drivers.list: FORCE
	@mkdir -p $(dir $@)
	@echo "$(DRIVERS)" | cmp -s - $@ || echo "$(DRIVERS)" > $@

$(BUILD)/gen/workloads.c: scripts/gen_workloads.sh $(BUILD)/gen/drivers.list $(DRIVERS)
	@mkdir -p $(dir $@)
	bash scripts/gen_workloads.sh $(DRIVERS) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/workloads.o: $(BUILD)/gen/workloads.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libsimt.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SIMT): $(CLI_OBJS) $(DRV_OBJS) $(BUILD)/libsimt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJS) $(DRV_OBJS) $(BUILD)/libsimt.a $(LDLIBS)

$(TESTBIN): $(TEST_OBJS) $(DRV_OBJS) $(BUILD)/libsimt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(TEST_OBJS) $(DRV_OBJS) $(BUILD)/libsimt.a $(LDLIBS)

# The first screen: a paper's machine (EXPARS' GTX480, docs/configs.md)
# on the timing model, every RTL unit co-simulated; a summary at the end.
run: deps cosim
	$(SIMT) run backprop --config configs/fermi-gtx480.cfg --cosim all

test: deps
	@bash scripts/run_tests.sh

# The same unit tests under AddressSanitizer + UndefinedBehaviorSanitizer.
asan-test:
	$(MAKE) --no-print-directory BUILD=build/asan OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" build/asan/bin/unit_tests build/asan/bin/simt

# simt under ThreadSanitizer, for --threads N (gpu/smpar.h): tests/threads_test.sh
# runs a few workloads on it with --threads 2 and 3 (TSAN=...).
tsan-test:
	$(MAKE) --no-print-directory BUILD=build/tsan OPT="-O1 -fsanitize=thread -fno-omit-frame-pointer" \
	    LDFLAGS="-fsanitize=thread" build/tsan/bin/simt

# The readiness check build (core/sm_ready.h): every cycle, every warp
# slot's cached readiness is compared with one computed from scratch.
check-build:
	$(MAKE) --no-print-directory BUILD=build/check OPT="-O2 -DSIMT_CHECK_READINESS" build/check/bin/simt

# The RTL unit kit (docs/cosim.md): every rule below is a pattern over the
# units rtl/*.sv (packages rtl/*_pkg.sv excluded), each with its parameter
# sets and mutants in tb/<unit>/kit.txt and its twin and descriptor in
# cmodel/src/units/<unit>.{h,c}.  No line names a unit.  KIT_RTL_<unit>
# points a build at another copy of a unit's RTL (a mutant); KIT_DIRS adds
# folders laid out like the tree (rtl/, tb/, cmodel/src/units/) holding
# more units (the fixture unit of tests/rtl/kit_fixture_test.sh).
comma      := ,
KIT_DIRS   ?=
KIT_PKGS   := $(sort $(wildcard rtl/*_pkg.sv))
KIT_UNITS  := $(filter-out %_pkg,$(basename $(notdir $(wildcard rtl/*.sv $(addsuffix /rtl/*.sv,$(KIT_DIRS))))))
kit_home    = $(firstword $(foreach d,. $(KIT_DIRS),$(if $(wildcard $(d)/rtl/$(1).sv),$(d))))
kit_rtl     = $(or $(KIT_RTL_$(1)),$(call kit_home,$(1))/rtl/$(1).sv)
# tag:uses:N=24,CntW=32 per parameter set of unit $(1)
kit_sets    = $(shell awk '$$1 == "params" { p = $$4; for (i = 5; i <= NF; i++) p = p "," $$i; print $$2 ":" $$3 ":" p }' $(call kit_home,$(1))/tb/$(1)/kit.txt)
kit_tag     = $(word 1,$(subst :, ,$(1)))
kit_uses    = $(subst $(comma), ,$(word 2,$(subst :, ,$(1))))
kit_params  = $(word 3,$(subst :, ,$(1)))
kit_gflags  = $(addprefix -G,$(subst $(comma), ,$(call kit_params,$(1))))
VERILATOR_ROOT ?= $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)
VERILATOR_FLAGS := -Wall --x-assign unique --x-initial unique -O3 --trace-fst $(VERILATOR_EXTRA)
KIT_SIM    := sim/kit_rtl.cpp sim/kit_lockstep.cpp sim/vcd_writer.cpp
KIT_CXXFLAGS := -std=c++17 -O3 -g -fPIC -Wall -Wextra -Werror -Icmodel/include -Icmodel/src -Isim \
                -isystem $(VERILATOR_ROOT)/include -isystem $(VERILATOR_ROOT)/include/vltstd
KIT_RUNTIME := verilated.o verilated_fst_c.o verilated_threads.o

# The testbench of unit $(1), parameter set $(2) (tag:uses:params):
# $(BUILD)/tb/<unit>/<tag>/tb, the skeleton tb/kit/ with the unit's tb.cpp.
define kit_tb
KIT_TBS += $(BUILD)/tb/$(1)/$(call kit_tag,$(2))/tb
$(BUILD)/tb/$(1)/$(call kit_tag,$(2))/tb: $(call kit_rtl,$(1)) $(KIT_PKGS) $(call kit_home,$(1))/tb/$(1)/tb.cpp \
    $(call kit_home,$(1))/tb/$(1)/kit.txt $(call kit_home,$(1))/cmodel/src/units/$(1).c \
    $(call kit_home,$(1))/cmodel/src/units/$(1).h tb/kit/tb_main.cpp tb/kit/kit_tb.h $(KIT_SIM) \
    cmodel/src/units/unit_desc.c cmodel/src/units/unit_desc.h scripts/gen_kit_adapter.sh $(wildcard tests/unit/$(1)_cases.h)
	@mkdir -p $$(@D)
	bash scripts/gen_kit_adapter.sh $(1):$(call kit_tag,$(2)):$(call kit_params,$(2)):$(call kit_rtl,$(1)) >$$(@D)/kit_adapter.cpp
	$(CC) $(CSTD) -O2 $(WARN) -I$(call kit_home,$(1))/cmodel/src -Icmodel/src -c $(call kit_home,$(1))/cmodel/src/units/$(1).c -o $$(@D)/twin.o
	$(CC) $(CSTD) -O2 $(WARN) -Icmodel/src -c cmodel/src/units/unit_desc.c -o $$(@D)/unit_desc.o
	verilator --cc --exe --build -j 2 --assert +define+SIMT_ASSERT $(VERILATOR_FLAGS) -Wno-SYNCASYNCNET --prefix V$(1)_$(call kit_tag,$(2)) \
	  -Mdir $$(@D) $(call kit_gflags,$(2)) -o tb -CFLAGS "-O2 -std=c++17 -I$(CURDIR)/cmodel/src \
	  -I$(CURDIR)/$(call kit_home,$(1))/cmodel/src -I$(CURDIR)/sim -I$(CURDIR)/tb/kit -I$(CURDIR)/tests" \
	  $(KIT_PKGS) $(call kit_rtl,$(1)) $(CURDIR)/tb/kit/tb_main.cpp $(CURDIR)/$(call kit_home,$(1))/tb/$(1)/tb.cpp \
	  $(addprefix $(CURDIR)/,$(KIT_SIM)) $(CURDIR)/$$(@D)/kit_adapter.cpp $(CURDIR)/$$(@D)/twin.o \
	  $(CURDIR)/$$(@D)/unit_desc.o >$$(@D)/build.log 2>&1 || { tail -n 30 $$(@D)/build.log; exit 1; }
endef

# A verilated model of unit $(1), set $(2), for the co-simulation plugin.
define kit_cosim_model
KIT_COSIM_MODELS += $(1):$(call kit_tag,$(2)):$(call kit_params,$(2)):$(call kit_rtl,$(1))
KIT_COSIM_LIBS += $(COSIM_DIR)/$(1)_$(call kit_tag,$(2))/V$(1)_$(call kit_tag,$(2))__ALL.a
KIT_COSIM_INCS += -isystem $(COSIM_DIR)/$(1)_$(call kit_tag,$(2))
$(COSIM_DIR)/$(1)_$(call kit_tag,$(2))/V$(1)_$(call kit_tag,$(2))__ALL.a: $(call kit_rtl,$(1)) $(KIT_PKGS)
	@mkdir -p $$(@D)
	verilator --cc --build -j 2 $(VERILATOR_FLAGS) --prefix V$(1)_$(call kit_tag,$(2)) -Mdir $$(@D) \
	  $(call kit_gflags,$(2)) -CFLAGS -fPIC -MAKEFLAGS "OPT_FAST=-O3 OPT_GLOBAL=-O2" \
	  $(KIT_PKGS) $(call kit_rtl,$(1)) >$$(@D)/build.log 2>&1 \
	  && $(MAKE) -s -C $$(@D) -f V$(1)_$(call kit_tag,$(2)).mk OPT_FAST=-O3 OPT_GLOBAL=-O2 $(KIT_RUNTIME) >>$$(@D)/build.log 2>&1 \
	  || { tail -n 30 $$(@D)/build.log; exit 1; }
endef

COSIM_DIR  := $(BUILD)/sim
COSIM_LIB  := $(BUILD)/lib/libsimt_cosim.so
$(foreach u,$(KIT_UNITS),$(foreach s,$(call kit_sets,$(u)),\
  $(if $(filter tb,$(call kit_uses,$(s))),$(eval $(call kit_tb,$(u),$(s))))\
  $(if $(filter cosim,$(call kit_uses,$(s))),$(eval $(call kit_cosim_model,$(u),$(s))))))

tb-build: $(KIT_TBS)

# The co-simulation plugin (sim/, docs/cosim.md): `simt run --cosim` loads
# $(COSIM_LIB), holding every parameter set marked `cosim` in a kit.txt.
cosim-lib: $(COSIM_LIB)
COSIM_OBJS := $(patsubst sim/%.cpp,$(COSIM_DIR)/obj/%.o,$(sort $(wildcard sim/*.cpp))) \
              $(COSIM_DIR)/obj/kit_adapter.o $(COSIM_DIR)/obj/unit_desc.o

$(COSIM_DIR)/obj/unit_desc.o: cmodel/src/units/unit_desc.c cmodel/src/units/unit_desc.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -O2 -fPIC $(WARN) -Icmodel/src -c $< -o $@

$(COSIM_DIR)/kit_adapter.cpp: scripts/gen_kit_adapter.sh $(KIT_COSIM_LIBS) FORCE
	@mkdir -p $(dir $@)
	@bash scripts/gen_kit_adapter.sh $(KIT_COSIM_MODELS) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(COSIM_DIR)/obj/%.o: sim/%.cpp $(KIT_COSIM_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) $(KIT_CXXFLAGS) -MMD -MP $(KIT_COSIM_INCS) -c $< -o $@

$(COSIM_DIR)/obj/kit_adapter.o: $(COSIM_DIR)/kit_adapter.cpp $(KIT_COSIM_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) $(KIT_CXXFLAGS) $(KIT_COSIM_INCS) -c $< -o $@

$(COSIM_LIB): $(COSIM_OBJS) $(KIT_COSIM_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) -shared -o $@ $(COSIM_OBJS) $(KIT_COSIM_LIBS) \
	  $(addprefix $(dir $(firstword $(KIT_COSIM_LIBS))),$(KIT_RUNTIME)) -lz -pthread

cosim: $(SIMT) $(COSIM_LIB)

-include $(wildcard $(COSIM_DIR)/obj/*.d)

tb: tb-build
	@bash tb/kit/run.sh $(KIT_TBS)

rtl-check:
	@for u in $(KIT_UNITS); do \
	  echo "verilator --lint-only -Wall $(KIT_PKGS) rtl/$$u.sv"; \
	  verilator --lint-only -Wall $(KIT_PKGS) rtl/$$u.sv || exit 1; \
	  echo "yosys synth -top $$u; check -assert"; \
	  yosys -q -p "read_verilog -sv $(KIT_PKGS) rtl/$$u.sv; synth -top $$u; check -assert" || exit 1; \
	done

STUDY ?= studies/schedulers.toml
study: deps $(SIMT)
	$(SIMT) study run $(STUDY)

# The papers' experiments (docs/experiments.md): studies/<seed>/ through the
# study runner, then the paper-style tables.  SIZE=small checks the pipeline
# in minutes; the default runs the paper sizes.
repro-000: deps $(SIMT)
	build/venv/bin/python3 scripts/repro_000.py $(SIMT) $(if $(SIZE),--size $(SIZE))

repro-004: deps $(SIMT)
	build/venv/bin/python3 scripts/repro_004.py $(SIMT) $(if $(SIZE),--size $(SIZE))

fuzz:
	@bash scripts/fuzz.sh $${FUZZ_SECONDS:-300}

bench: $(SIMT) $(COSIM_LIB)
	@bash scripts/bench.sh

# The paper-size suite (issue 15): a benchmark, never part of `make test`.
PRESET ?= kepler-ss
bench-suite: $(SIMT)
	@python3 scripts/bench_suite.py $(SIMT) --preset $(PRESET) \
	  $(if $(ONLY),--only $(ONLY)) $(if $(THREADS),--threads $(THREADS)) $(if $(JOBS),--jobs $(JOBS)) \
	  $(if $(RECORD),--record) $(if $(SPEEDUP),--speedup $(SPEEDUP)) $(if $(REPS),--reps $(REPS))

# Area and timing of every RTL unit (docs/area-timing.md): build/synth/.
synth:
	@bash scripts/synth.sh

lint:
	@bash scripts/lint.sh

ptx:
	@for cu in $(PTX_SRCS); do d=$$(dirname $$cu); \
	  echo "nvcc -ptx $$cu"; \
	  (cd $$d && nvcc -ptx -arch=sm_75 -O3 -o kernel.ptx kernel.cu) || exit 1; done

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
