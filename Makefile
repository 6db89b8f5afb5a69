# SPDX-License-Identifier: GPL-2.0-only
#
# One Makefile for the whole project; each component adds its programs and
# tests from its own module.mk. Everything is built under $(BUILD).
#
#   make            build every program into build/
#   make test       the lint, unit tests, integration tests, and the two VM
#                   tests when qemu is installed; ends with the runner's summary
#   make lint       shellcheck, cppcheck, file and function sizes, includes,
#                   build flags and link lines, lavd's BPF program count and
#                   loops (tests/lint.sh: one line per finding, FILE:LINE:
#                   why). The BPF verified-instruction budget per program
#                   is no lint's: the VM test's verifier phase holds it
#   make asan       the unit tests again under ASan + UBSan (build/asan/)
#   make static     static binaries for the VM's initramfs (build/static/)
#   make vm-test    boot the sched_ext kernel under qemu and test lavd in it
#   make vm-test-topo  the same on a shaped 2-socket machine (domains, energy)
#   make vm-demo    framebench under the default scheduler vs lavd, in the VM
#   make install    programs, data, man pages, lavd.service, completions
#                   (PREFIX, DESTDIR, ...: dist/module.mk, docs/install.md);
#                   make uninstall removes them

BUILD ?= build
CC ?= gcc
CLANG_BPF ?= clang-19
LLVM_STRIP ?= llvm-strip-19
BPFTOOL ?= bpftool

# Extra flags for variant builds (sanitizers, static).
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=

CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror \
	-Wno-missing-field-initializers -Ilib -I$(BUILD) $(EXTRA_CFLAGS)
LDFLAGS := $(EXTRA_LDFLAGS)
LDLIBS := -lm -lpthread

# BPF objects: docs/vm.md (Toolchain) says why each flag is here.
BPF_CFLAGS := -O2 -g -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 \
	-fms-extensions -Wno-microsoft-anon-tag -Wall -Werror \
	-I$(BUILD)/bpf -Ilib -I/usr/include/x86_64-linux-gnu
BPF_LDLIBS := -lbpf -lelf -lz
# LIBBPF_STATIC=1: libbpf linked statically, the rest dynamically (the
# Debian package: bookworm's own libbpf1 is 1.1; docs/install.md)
ifeq ($(LIBBPF_STATIC),1)
BPF_LDLIBS := -l:libbpf.a -lelf -lz
endif

PROGRAMS :=
TESTS :=
TEST_TOOLS :=
INTEGRATION_TESTS :=
VM_TESTS :=

.PHONY: all
all: programs

LIB_SRCS := lib/util.c lib/stats.c lib/json.c lib/mangohud.c lib/sysinfo.c lib/html.c \
	lib/spawn.c lib/datadir.c lib/bpfcost.c lib/fbprofile.c lib/fbprofile_step.c lib/fbprofile_join.c lib/fbdist.c lib/opttab.c \
	lib/optdump.c lib/exit_info.c lib/schedattr.c lib/pidlock.c lib/outfile.c
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIBGS := $(BUILD)/lib/libgs.a
# every archive is made afresh: ar keeps members whose source moved away
ARCHIVE = rm -f $@ && $(AR) rcs $@ $^

$(LIBGS): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(ARCHIVE)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# vmlinux.h: the committed lib/vmlinux/vmlinux.h, the pinned sched_ext
# kernel's BTF, so that a build needs no downloaded kernel (docs/install.md);
# make vmlinux-h regenerates it from the cached kernel (vm/kernel.sh fetch).
$(BUILD)/bpf/vmlinux.h: lib/vmlinux/vmlinux.h
	@mkdir -p $(@D)
	cp $< $@
.PHONY: vmlinux-h
vmlinux-h:
	vm/kernel.sh vmlinux-h lib/vmlinux/vmlinux.h

# BPF object -> stripped object -> skeleton. bpftool 7.5 emits a
# struct_ops "map->link" assignment that libbpf 1.4's headers lack.
$(BUILD)/bpf/%.bpf.o: $(BUILD)/bpf/vmlinux.h
	@mkdir -p $(@D)
	$(CLANG_BPF) $(BPF_CFLAGS) -MMD -MP -c $(filter %.bpf.c,$^) -o $@.full
	$(LLVM_STRIP) -g $@.full -o $@
	@rm -f $@.full

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) | \
		grep -v 'map->link = ' > $@.tmp && mv $@.tmp $@

# $(call gs_test,NAME,SOURCES): a cmocka test program build/tests/NAME
# linked with the shared library; it joins TESTS.
define gs_test
TESTS += $(BUILD)/tests/$(1)
$(BUILD)/tests/$(1): $(patsubst %.c,$(BUILD)/%.o,$(2)) $(LIBGS)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) $$^ -o $$@ -lcmocka $$(LDLIBS)
endef

include lib/module.mk
-include framebench/module.mk
-include lavd/module.mk
-include frametrace/module.mk
-include gamesuite/module.mk
include tests/module.mk
-include vm/module.mk
include dist/module.mk

.PHONY: programs
programs: $(PROGRAMS)

# Static binaries for a busybox initramfs with no shared libraries.
.PHONY: static
static:
	$(MAKE) BUILD=$(BUILD)/static EXTRA_LDFLAGS=-static programs

.PHONY: unit-test
unit-test: $(TESTS) $(TEST_TOOLS) $(PROGRAMS)
	@tests/run.sh $(TESTS)

.PHONY: lint
lint:
	@BUILD=$(BUILD) sh tests/lint.sh

.PHONY: test
test: $(TESTS) $(TEST_TOOLS) $(PROGRAMS)
	@BUILD=$(BUILD) tests/run.sh tests/lint.sh $(TESTS) $(INTEGRATION_TESTS) $(VM_TESTS)

.PHONY: asan
asan:
	$(MAKE) BUILD=$(BUILD)/asan \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		EXTRA_LDFLAGS="-fsanitize=address,undefined" unit-test

.PHONY: clean
clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
