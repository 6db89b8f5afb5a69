# SPDX-License-Identifier: GPL-2.0-only
# framebench: the gaming-workload scheduler benchmark (build/framebench).
# Objects live in $(BUILD)/obj/framebench/ because $(BUILD)/framebench is
# the program itself.

FB_SRCS := framebench/profile.c framebench/builtin.c framebench/plan.c \
	framebench/work.c
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
	$(AR) rcs $@ $^

# Unit tests: profile parser, plan determinism, pure arithmetic.
$(BUILD)/tests/test_framebench.o: CFLAGS += -Iframebench
$(eval $(call gs_test,test_framebench,tests/test_framebench.c $(FB_LIB)))
