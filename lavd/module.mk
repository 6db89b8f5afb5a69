# SPDX-License-Identifier: GPL-2.0-only
# lavd: the LAVD sched_ext scheduler. Policy in BPF C (lavd/*.bpf.c and the
# concern files it includes), loader in C, pure policy arithmetic in
# lavd/policy.h and policy_preempt.h (compiled into both, unit-tested on the host).

LAVD_BPF_HDRS := lavd/lavd.bpf.h lib/scx_compat.bpf.h lavd/lat_cri.bpf.h \
	lavd/idle.bpf.h lavd/preempt.bpf.h lavd/sys_stat.bpf.h lavd/intf.h \
	lavd/lock.bpf.h lavd/slice.bpf.h lavd/pinned.bpf.h lavd/sample.bpf.h \
	lavd/policy.h lavd/policy_preempt.h lavd/energy.h lavd/domain.bpf.h lavd/power.bpf.h lavd/power_init.bpf.h \
	lavd/knobs.h lavd/gameprof.bpf.h
$(BUILD)/bpf/lavd.bpf.o: lavd/lavd.bpf.c $(LAVD_BPF_HDRS)
# --eevdf: the same model on tracepoints (eevdf.bpf.c), any kernel
$(BUILD)/bpf/eevdf.bpf.o: lavd/eevdf.bpf.c lavd/eevdf.h lavd/policy.h \
	lib/scx_compat.bpf.h

# Loader objects go to $(BUILD)/obj/lavd/: the generic rule would put them
# in $(BUILD)/lavd/, the path of the program itself.
LAVD_OBJDIR := $(BUILD)/obj/lavd
$(LAVD_OBJDIR)/%.o: lavd/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# The loader's libbpf-free parts (topology, kernel facts, power profile,
# report lines, options) as a library: the program and the unit tests
# link it.
LAVD_LIB_SRCS := lavd/topo.c lavd/kinfo.c lavd/cpdom.c lavd/power.c \
	lavd/gameprof.c lavd/gamematch.c lavd/procscan.c \
	lavd/report.c lavd/options.c lavd/eevdf_levers.c lavd/eevdf_kernel.c \
	lavd/eevdf_table.c lavd/eevdf_setup.c
LAVD_LIB := $(LAVD_OBJDIR)/liblavd.a
$(LAVD_LIB): $(LAVD_LIB_SRCS:lavd/%.c=$(LAVD_OBJDIR)/%.o)
	@mkdir -p $(@D)
	$(ARCHIVE)

# The program: the parts that talk to libbpf and the kernel.
LAVD_BPF_SRCS := lavd/main.c lavd/loader.c lavd/futex.c lavd/monitor.c \
	lavd/cost.c lavd/bpflog.c lavd/gamectl.c lavd/eevdf.c lavd/kcheck.c
LAVD_OBJS := $(LAVD_BPF_SRCS:lavd/%.c=$(LAVD_OBJDIR)/%.o)
$(LAVD_OBJS): $(BUILD)/bpf/lavd.skel.h $(BUILD)/bpf/eevdf.skel.h
PROGRAMS += $(BUILD)/lavd
$(BUILD)/lavd: $(LAVD_OBJS) $(LAVD_LIB) $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(BPF_LDLIBS) $(LDLIBS)

# Host tests: the policy arithmetic, the loader's libbpf-free parts, and
# the CLI on a kernel without sched_ext (tests/test_lavd_cli.sh).
$(eval $(call gs_test,test_lavd_policy,tests/test_lavd_policy.c))
$(eval $(call gs_test,test_lavd_loader,tests/test_lavd_loader.c $(LAVD_LIB)))
$(eval $(call gs_test,test_lavd_features,tests/test_lavd_features.c $(LAVD_LIB)))
$(eval $(call gs_test,test_lavd_energy,tests/test_lavd_energy.c))
$(eval $(call gs_test,test_lavd_domains,tests/test_lavd_domains.c $(LAVD_LIB)))
INTEGRATION_TESTS += tests/test_lavd_cli.sh tests/lavd_profiles.sh tests/lavd_eevdf.sh
$(eval $(call gs_test,test_lavd_profiles,tests/test_lavd_profiles.c $(LAVD_LIB)))
$(eval $(call gs_test,test_lavd_eevdf,tests/test_lavd_eevdf.c $(LAVD_LIB)))
# lavd --check --btf (kcheck.c, with libbpf) on kernels built from lavd's BTF
$(eval $(call gs_test,test_lavd_kcheck,tests/test_lavd_kcheck.c))
$(BUILD)/tests/test_lavd_kcheck: $(LAVD_OBJDIR)/kcheck.o
$(BUILD)/tests/test_lavd_kcheck: LDLIBS += $(BPF_LDLIBS)
