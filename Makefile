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

.PHONY: all run test lint bench ptx clean help deps fuzz asan-test FORCE
all: $(SIMT) $(TESTBIN)

help:
	@echo "make run        install what is missing, build, run the main job (vecadd, functional)"
	@echo "make test       install what is missing, build, run every test (ends with 'N passed, N failed')"
	@echo "make lint       compile with clang's extra warnings and run cppcheck"
	@echo "make bench      functional-mode speed in thread-instructions per second"
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
