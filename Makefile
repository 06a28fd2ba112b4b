# simtlab: see `make help`.
CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror
CFLAGS  += $(CSTD) $(OPT) -g $(WARN) -Icmodel/include -Icmodel/src -Itests -MMD -MP
LDLIBS  += -lm -ldl

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

.PHONY: all run test lint bench ptx clean help deps fuzz asan-test check-build tb tb-build rtl-check cosim cosim-lib synth FORCE
all: $(SIMT) $(TESTBIN)

help:
	@echo "make run        install what is missing, build, run the main job (vecadd, functional)"
	@echo "make test       install what is missing, build, run every test (ends with 'N passed, N failed')"
	@echo "make lint       compile with clang's extra warnings and run cppcheck"
	@echo "make bench      simulation speed (functional, timing) and the co-simulation slowdown"
	@echo "make tb         build (once) and run the RTL unit testbenches (tb/)"
	@echo "make rtl-check  verilator lint and a Yosys synthesis of every RTL unit"
	@echo "make cosim      build the co-simulation plugin (simt run --cosim, docs/cosim.md)"
	@echo "make synth      area and timing of every RTL unit on OSU 0.18um cells (docs/area-timing.md)"
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

run: deps $(SIMT)
	$(SIMT) run vecadd --functional

test: deps
	@bash scripts/run_tests.sh

# The same unit tests under AddressSanitizer + UndefinedBehaviorSanitizer.
asan-test:
	$(MAKE) --no-print-directory BUILD=build/asan OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" build/asan/bin/unit_tests build/asan/bin/simt

# The readiness check build (core/sm_ready.h): every cycle, every warp
# slot's cached readiness is compared with one computed from scratch.
check-build:
	$(MAKE) --no-print-directory BUILD=build/check OPT="-O2 -DSIMT_CHECK_READINESS" build/check/bin/simt

# RTL unit testbenches: the verilated model and the C twin in lockstep.  Each
# parameter set is its own binary under $(BUILD)/tb; verilator rebuilds only
# when the RTL, the bench or the twin changes.
WA_RTL     ?= rtl/warp_arbiter.sv
TB_WA      := $(BUILD)/tb/warp_arbiter
TB_WA_DEPS := $(WA_RTL) tb/warp_arbiter/tb_main.cpp \
              tests/unit/warp_arbiter_cases.h cmodel/src/units/warp_arbiter.h
VERILATOR_FLAGS := --cc --exe --build -j 2 -Wall --x-assign unique --x-initial unique -O3 $(VERILATOR_EXTRA)

$(TB_WA)/twin.o: cmodel/src/units/warp_arbiter.c cmodel/src/units/warp_arbiter.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -O2 $(WARN) -Icmodel/src -c $< -o $@

# $(1): model name, $(2): N, $(3): CNT_W, $(4): WOPT_W, $(5): random cycles per policy
define tb_wa_model
$(TB_WA)/$(1)/tb_$(1): $(TB_WA_DEPS) $(TB_WA)/twin.o
	@mkdir -p $(TB_WA)/$(1)
	verilator $(VERILATOR_FLAGS) --prefix V$(1) -Mdir $(TB_WA)/$(1) -GN=$(2) -GCNT_W=$(3) -GWOPT_W=$(4) \
	  -o tb_$(1) -CFLAGS "-O2 -std=c++17 -DWA_MODEL=V$(1) -DWA_N=$(2) -DWA_CNT_W=$(3) -DWA_WOPT_W=$(4) \
	  -DWA_DEFAULT_CYCLES=$(5) -I$(CURDIR)/cmodel/src -I$(CURDIR)/tests" \
	  $(WA_RTL) $(CURDIR)/tb/warp_arbiter/tb_main.cpp $(CURDIR)/$(TB_WA)/twin.o >$(TB_WA)/$(1)/build.log 2>&1 \
	  || { tail -n 30 $(TB_WA)/$(1)/build.log; exit 1; }
endef
$(eval $(call tb_wa_model,wa24,24,32,6,1000000))
$(eval $(call tb_wa_model,wa5,5,3,3,200000))

tb-build: $(TB_WA)/wa24/tb_wa24 $(TB_WA)/wa5/tb_wa5

# The co-simulation plugin (sim/, docs/cosim.md): `simt run --cosim` loads
# $(COSIM_LIB).  One verilated warp arbiter per N in COSIM_WA_NS (warp slots
# per scheduler: 24 on every preset), built with FST tracing for the
# mismatch window.
COSIM_WA_NS   ?= 24
COSIM_DIR     := $(BUILD)/sim
COSIM_LIB     := $(BUILD)/lib/libsimt_cosim.so
cosim-lib: $(COSIM_LIB)
COSIM_SRCS    := $(sort $(wildcard sim/*.cpp))
VERILATOR_ROOT ?= $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)
COSIM_CXXFLAGS := -std=c++17 -O2 -g -fPIC -Wall -Wextra -Werror -MMD -MP -Icmodel/include \
                  -Icmodel/src -Isim -I$(COSIM_DIR) $(addprefix -isystem $(COSIM_DIR)/wa,$(COSIM_WA_NS)) \
                  -isystem $(VERILATOR_ROOT)/include -isystem $(VERILATOR_ROOT)/include/vltstd
COSIM_MODELS  := $(foreach n,$(COSIM_WA_NS),$(COSIM_DIR)/wa$(n)/Vwa$(n)__ALL.a)
COSIM_RUNTIME := verilated.o verilated_fst_c.o verilated_threads.o
COSIM_OBJS    := $(patsubst sim/%.cpp,$(COSIM_DIR)/obj/%.o,$(COSIM_SRCS)) \
                 $(COSIM_DIR)/obj/rtl_arbiter_factory.o $(COSIM_DIR)/obj/warp_arbiter_twin.o

define cosim_wa_model
$(COSIM_DIR)/wa$(1)/Vwa$(1)__ALL.a: $(WA_RTL)
	@mkdir -p $(COSIM_DIR)/wa$(1)
	verilator --cc --build -j 2 -Wall --x-assign unique --x-initial unique -O3 --trace-fst \
	  --prefix Vwa$(1) -Mdir $(COSIM_DIR)/wa$(1) -GN=$(1) -CFLAGS -fPIC -MAKEFLAGS "OPT_FAST=-O3 OPT_GLOBAL=-O2" \
	  $(WA_RTL) >$(COSIM_DIR)/wa$(1)/build.log 2>&1 \
	  && $(MAKE) -s -C $(COSIM_DIR)/wa$(1) -f Vwa$(1).mk OPT_FAST=-O3 OPT_GLOBAL=-O2 $(COSIM_RUNTIME) >>$(COSIM_DIR)/wa$(1)/build.log 2>&1 \
	  || { tail -n 30 $(COSIM_DIR)/wa$(1)/build.log; exit 1; }
endef
$(foreach n,$(COSIM_WA_NS),$(eval $(call cosim_wa_model,$(n))))

$(COSIM_DIR)/rtl_arbiter_factory.cpp: scripts/gen_cosim_factory.sh FORCE
	@mkdir -p $(dir $@)
	@bash scripts/gen_cosim_factory.sh $(COSIM_WA_NS) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(COSIM_DIR)/obj/%.o: sim/%.cpp $(COSIM_MODELS)
	@mkdir -p $(dir $@)
	$(CXX) $(COSIM_CXXFLAGS) -c $< -o $@

$(COSIM_DIR)/obj/rtl_arbiter_factory.o: $(COSIM_DIR)/rtl_arbiter_factory.cpp $(COSIM_MODELS)
	@mkdir -p $(dir $@)
	$(CXX) $(COSIM_CXXFLAGS) -c $< -o $@

$(COSIM_DIR)/obj/warp_arbiter_twin.o: cmodel/src/units/warp_arbiter.c cmodel/src/units/warp_arbiter.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -O2 -fPIC $(WARN) -Icmodel/src -c $< -o $@

$(COSIM_LIB): $(COSIM_OBJS) $(COSIM_MODELS)
	@mkdir -p $(dir $@)
	$(CXX) -shared -o $@ $(COSIM_OBJS) $(COSIM_MODELS) \
	  $(addprefix $(COSIM_DIR)/wa$(firstword $(COSIM_WA_NS))/,$(COSIM_RUNTIME)) -lz -pthread

cosim: $(SIMT) $(COSIM_LIB)

-include $(wildcard $(COSIM_DIR)/obj/*.d)

tb: tb-build
	@bash tb/warp_arbiter/run.sh $(TB_WA)

rtl-check:
	verilator --lint-only -Wall rtl/warp_arbiter.sv
	yosys -q -p "read_verilog -sv rtl/warp_arbiter.sv; synth -top warp_arbiter; check -assert"

fuzz:
	@bash scripts/fuzz.sh $${FUZZ_SECONDS:-300}

bench: $(SIMT) $(COSIM_LIB)
	@bash scripts/bench.sh

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
