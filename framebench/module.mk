# SPDX-License-Identifier: GPL-2.0-only
# framebench: the gaming-workload scheduler benchmark (build/framebench).
# Objects live in $(BUILD)/obj/framebench/ because $(BUILD)/framebench is
# the program itself.

FB_SRCS := framebench/profload.c framebench/builtin.c framebench/plan.c \
	framebench/work.c framebench/engine.c framebench/tasks.c framebench/bg.c \
	framebench/disturb.c framebench/collect.c framebench/report.c \
	framebench/feed.c framebench/markers.c framebench/cli.c \
	framebench/run.c framebench/selftest.c framebench/gameprio.c framebench/dilate.c
FB_OBJDIR := $(BUILD)/obj/framebench
FB_OBJS := $(FB_SRCS:framebench/%.c=$(FB_OBJDIR)/%.o)
FB_LIB := $(FB_OBJDIR)/libfb.a

$(FB_OBJDIR)/%.o: framebench/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# The shipped profiles are embedded with .incbin.
$(FB_OBJDIR)/builtin.o: $(wildcard framebench/profiles/*.profile)

$(FB_LIB): $(FB_OBJS)
	@mkdir -p $(@D)
	$(ARCHIVE)

PROGRAMS += $(BUILD)/framebench
$(BUILD)/framebench: $(FB_OBJDIR)/main.o $(FB_LIB) $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# Unit tests: profile parser, plan determinism, pure arithmetic; the run's
# parts (background load, disturbances, work, usage).
$(BUILD)/tests/test_framebench.o $(BUILD)/tests/test_framebench_run.o: CFLAGS += -Iframebench
$(eval $(call gs_test,test_framebench,tests/test_framebench.c $(FB_LIB)))
$(eval $(call gs_test,test_framebench_run,tests/test_framebench_run.c $(FB_LIB)))

# Shell integration tests (about 40 s together).
INTEGRATION_TESTS += tests/framebench_cli.sh tests/framebench_profiles.sh \
	tests/framebench_threads.sh \
	tests/framebench_signal.sh

# `make run`: the README's main job, a short run with background load.
.PHONY: run
run: $(BUILD)/framebench
	$(BUILD)/framebench --profile proton --duration 10s --warmup 1s --bg hogs
