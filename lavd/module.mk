# SPDX-License-Identifier: GPL-2.0-only
# lavd: the LAVD sched_ext scheduler. Policy in BPF C (lavd/*.bpf.c and the
# concern files it includes), loader in C, pure policy arithmetic in
# lavd/policy.h (compiled into both, unit-tested on the host).

# Host tests: the policy arithmetic, the loader's libbpf-free parts, and
# the CLI on a kernel without sched_ext (tests/test_lavd_cli.sh).
$(eval $(call gs_test,test_lavd_policy,tests/test_lavd_policy.c))
$(eval $(call gs_test,test_lavd_loader,tests/test_lavd_loader.c))
$(eval $(call gs_test,test_lavd_features,tests/test_lavd_features.c))
$(eval $(call gs_test,test_lavd_energy,tests/test_lavd_energy.c))
$(eval $(call gs_test,test_lavd_domains,tests/test_lavd_domains.c))
INTEGRATION_TESTS += tests/test_lavd_cli.sh

LAVD_BPF_HDRS := lavd/lavd.bpf.h lavd/compat.bpf.h lavd/lat_cri.bpf.h \
	lavd/idle.bpf.h lavd/preempt.bpf.h lavd/sys_stat.bpf.h lavd/intf.h \
	lavd/lock.bpf.h lavd/slice.bpf.h lavd/pinned.bpf.h lavd/sample.bpf.h \
	lavd/policy.h lavd/energy.h lavd/domain.bpf.h lavd/power.bpf.h
$(BUILD)/bpf/lavd.bpf.o: lavd/lavd.bpf.c $(LAVD_BPF_HDRS)

# The loader. Its objects go to $(BUILD)/obj/lavd/: the generic rule would
# put them in $(BUILD)/lavd/, the path of the program itself.
PROGRAMS += $(BUILD)/lavd
LAVD_OBJS := $(BUILD)/obj/lavd/main.o $(BUILD)/obj/lavd/topo.o \
	$(BUILD)/obj/lavd/kinfo.o $(BUILD)/obj/lavd/cpdom.o \
	$(BUILD)/obj/lavd/power.o \
	$(BUILD)/obj/lavd/report.o
$(BUILD)/obj/lavd/%.o: lavd/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/lavd/main.o: $(BUILD)/bpf/lavd.skel.h
$(BUILD)/lavd: $(LAVD_OBJS) $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(BPF_LDLIBS) $(LDLIBS)
