# simtlab: see `make help`.
CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror
CFLAGS  += $(CSTD) $(OPT) -g $(WARN) -Icmodel/include -Icmodel/src -Itests -MMD -MP
LDLIBS  += -lm

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

.PHONY: all run test lint bench ptx clean help deps fuzz asan-test tb tb-build rtl-check FORCE
all: $(SIMT) $(TESTBIN)

help:
	@echo "make run        install what is missing, build, run the main job (vecadd, functional)"
	@echo "make test       install what is missing, build, run every test (ends with 'N passed, N failed')"
	@echo "make lint       compile with clang's extra warnings and run cppcheck"
	@echo "make bench      functional-mode speed in thread-instructions per second"
	@echo "make tb         build (once) and run the RTL unit testbenches (tb/)"
	@echo "make rtl-check  verilator lint and a Yosys synthesis of every RTL unit"
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

# RTL unit testbenches: the verilated model and the C twin in lockstep.  Each
# parameter set is its own binary under $(BUILD)/tb; verilator rebuilds only
# when the RTL, the bench or the twin changes.
TB_WA      := $(BUILD)/tb/warp_arbiter
TB_WA_DEPS := rtl/warp_arbiter.sv tb/warp_arbiter/tb_main.cpp \
              tests/unit/warp_arbiter_cases.h cmodel/src/units/warp_arbiter.h
VERILATOR_FLAGS := --cc --exe --build -j 2 -Wall --x-assign unique --x-initial unique -O3

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
	  rtl/warp_arbiter.sv $(CURDIR)/tb/warp_arbiter/tb_main.cpp $(CURDIR)/$(TB_WA)/twin.o >$(TB_WA)/$(1)/build.log 2>&1 \
	  || { tail -n 30 $(TB_WA)/$(1)/build.log; exit 1; }
endef
$(eval $(call tb_wa_model,wa24,24,32,6,1000000))
$(eval $(call tb_wa_model,wa5,5,3,3,200000))

tb-build: $(TB_WA)/wa24/tb_wa24 $(TB_WA)/wa5/tb_wa5

tb: tb-build
	@bash tb/warp_arbiter/run.sh $(TB_WA)

rtl-check:
	verilator --lint-only -Wall rtl/warp_arbiter.sv
	yosys -q -p "read_verilog -sv rtl/warp_arbiter.sv; synth -top warp_arbiter; check -assert"

fuzz:
	@bash scripts/fuzz.sh $${FUZZ_SECONDS:-300}

bench: $(SIMT)
	@bash scripts/bench.sh

lint:
	@bash scripts/lint.sh

ptx:
	@for cu in $(PTX_SRCS); do d=$$(dirname $$cu); \
	  echo "nvcc -ptx $$cu"; \
	  (cd $$d && nvcc -ptx -arch=sm_75 -O3 -o kernel.ptx kernel.cu) || exit 1; done

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
