# SPDX-License-Identifier: GPL-2.0-only
# gamesuite: compare schedulers with repeated, interleaved runs.
#
# The program is $(BUILD)/gamesuite, so its objects cannot live in
# $(BUILD)/gamesuite/ (the generic rule's place): they go to
# $(BUILD)/obj/gamesuite/ and into an archive the unit tests link too.
GAMESUITE_SRCS := gamesuite/suite.c gamesuite/proc.c gamesuite/sched.c \
	gamesuite/machine.c gamesuite/workload.c gamesuite/wcheck.c gamesuite/parse.c gamesuite/runner.c \
	gamesuite/verdict.c gamesuite/out_text.c gamesuite/out_json.c \
	gamesuite/out_html.c gamesuite/tune.c gamesuite/tune_write.c \
	gamesuite/runopts.c
GAMESUITE_OBJS := $(GAMESUITE_SRCS:gamesuite/%.c=$(BUILD)/obj/gamesuite/%.o)
GAMESUITE_LIB := $(BUILD)/obj/gamesuite/libgamesuite.a

$(BUILD)/obj/gamesuite/%.o: gamesuite/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(GAMESUITE_LIB): $(GAMESUITE_OBJS)
	$(ARCHIVE)

PROGRAMS += $(BUILD)/gamesuite
$(BUILD)/gamesuite: $(BUILD)/obj/gamesuite/main.o $(GAMESUITE_LIB) $(LIBGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# Unit tests: suite parser, output parsers, statistics and verdicts, outputs.
$(BUILD)/tests/test_gamesuite.o: CFLAGS += -Igamesuite
$(BUILD)/tests/test_gamesuite_verdict.o: CFLAGS += -Igamesuite
$(eval $(call gs_test,test_gamesuite,tests/test_gamesuite.c $(GAMESUITE_LIB)))
$(eval $(call gs_test,test_gamesuite_verdict,tests/test_gamesuite_verdict.c $(GAMESUITE_LIB)))

# Integration tests (short runs; framebench parts skip until it is built).
INTEGRATION_TESTS += tests/gamesuite_cli.sh tests/gamesuite_tune.sh \
	tests/gamesuite_mangohud.sh

# gamesuite inside the sched_ext VM (vm/gamesuite-demo.sh, guest plan
# vm/plans/gamesuite-demo.sh): the kernel default vs lavd and a lavd
# ablation, interleaved in one boot; the reports land in
# $(BUILD)/vm/gamesuite-demo/files/. VM_GAMESUITE_HOST_ROUNDS=N runs the
# same suite's default first on the host's real CPUs (N runs per workload,
# with the native build) and prints each workload's fidelity. `make
# vm-demo` (the VM harness's own A/B table) is separate.
VM_GAMESUITE_REPEAT ?= 5
VM_GAMESUITE_DURATION ?= 4s
VM_GAMESUITE_ABLATION ?= --no-wake-sync
VM_GAMESUITE_HOST_ROUNDS ?= 0

.PHONY: vm-gamesuite
vm-gamesuite:
	$(MAKE) BUILD=$(BUILD) static
	$(if $(filter-out 0,$(VM_GAMESUITE_HOST_ROUNDS)),$(MAKE) BUILD=$(BUILD) programs $(BUILD)/tests/jsonget)
	BUILD=$(BUILD) vm/gamesuite-demo.sh --repeat $(VM_GAMESUITE_REPEAT) \
		--duration $(VM_GAMESUITE_DURATION) --ablation "$(VM_GAMESUITE_ABLATION)" \
		--host-rounds $(VM_GAMESUITE_HOST_ROUNDS)
