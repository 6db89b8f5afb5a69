# SPDX-License-Identifier: GPL-2.0-only
# The VM harness: boots Debian's sched_ext kernel (vm/kernel.sh) under qemu
# with a busybox initramfs and a guest plan (vm/plans/*.sh), and judges the
# run from explicit result lines (vm/run.sh).
#
#   make vm-test   lavd in a real sched_ext kernel: load, framebench under
#                  lavd, unload, watchdog ejection, 20 load/unload cycles,
#                  CPU hotplug restart, futex holders, preemption,
#                  features off one by one, thread churn (one boot, a few
#                  minutes under TCG)
#   make vm-test-topo  lavd on a shaped 2-socket, 2-node, 4-vCPU machine:
#                  compute domains, compaction and power modes, big/little
#                  placement with a topology override, --autopower
#   make vm-demo   framebench under the default scheduler vs lavd,
#                  interleaved in one boot; prints the side-by-side table
#                  (VM_DEMO_REPS pairs, VM_DEMO_DURATION per run)
#   make vm-limit  every framebench profile under each scheduler with no
#                  background and with 2 hogs, plus the game SCHED_FIFO as
#                  a reference: limit ratio and background kept, with
#                  Welch's t against lavd (VM_LIMIT_ARGS: vm/limit.sh
#                  options, e.g. --program PATH/scx_lavd --reps 6)
#   make vm-kernel-build  a sched_ext kernel built from Debian's
#                  linux-source (VM_KERNEL_SERIES, default 6.12 LTS) into
#                  the kernel cache (vm/kernel-build.sh; about 20 minutes
#                  on 2 cores)
#   make vm-kernels  lavd --check --btf, then vm-test and vm-test-topo, on
#                  each kernel of VM_KERNELS, a table row each; a kernel
#                  without sched_ext, or one whose build broke its kfunc
#                  prototypes, is a named skip (vm/kernels.sh)
#   make vm-fidelity  the VM's calibration certificate: framebench under the
#                  default scheduler natively on the host and in the VM,
#                  rounds interleaved, every profile with and without 2
#                  hogs; VM/host ratio per metric (VM_FIDELITY_ARGS:
#                  vm/fidelity.sh options, e.g. --rounds 5)

VM_TESTS += vm/test-vm.sh vm/test-vm-topo.sh

# churn: the thread-churn stress load of vm-test (static build goes into
# the initramfs with lavd and framebench)
PROGRAMS += $(BUILD)/churn
$(BUILD)/churn: $(BUILD)/vm/churn.o $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)
# scx_minimal: the least a sched_ext scheduler can do, the yardstick for
# sched_ext's own cost in the VM's measurements (vm/ablation.sh --program)
$(BUILD)/bpf/scx_minimal.bpf.o: vm/scx_minimal.bpf.c lib/scx_compat.bpf.h
$(BUILD)/vm/scx_minimal.o: $(BUILD)/bpf/scx_minimal.skel.h
PROGRAMS += $(BUILD)/scx_minimal
$(BUILD)/scx_minimal: $(BUILD)/vm/scx_minimal.o $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(BPF_LDLIBS) $(LDLIBS)
# bpfcost: every loaded BPF program's cost per call, for schedulers whose
# loader prints none (the reference scx_lavd in bench/bpf-cost-icount.sh)
PROGRAMS += $(BUILD)/bpfcost
$(BUILD)/bpfcost: $(BUILD)/vm/bpfcost.o $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(BPF_LDLIBS) $(LDLIBS)
# its command line on the host; loading it is the VM test's yardstick phase
INTEGRATION_TESTS += tests/scx_minimal_cli.sh
# churn's options (a short run)
INTEGRATION_TESTS += tests/churn_cli.sh
# bpfcost: usage, statistics off, and a loaded program's cost (root)
INTEGRATION_TESTS += tests/bpfcost_cli.sh
# the harness's host side: mode resolution, vm-fidelity's refusals and table
INTEGRATION_TESTS += tests/vm_fidelity.sh
# the VM tables' arithmetic on made-up runs (Welch t, BPF cost)
INTEGRATION_TESTS += tests/vm_tables.sh
# the kernel matrix's host side: a named skip, the build's config check
INTEGRATION_TESTS += tests/vm_kernels.sh
# the headline across boots: lavd/default against fidelity, pooled, plot
INTEGRATION_TESTS += tests/vm_headline.sh

VM_DEMO_REPS ?= 3
VM_DEMO_DURATION ?= 10s
VM_DEMO_ARGS ?=

VM_LIMIT_ARGS ?=
VM_FIDELITY_ARGS ?=

VM_KERNEL_SERIES ?= 6.12
# one of each series Debian has (the newest of each), and 6.12 LTS built here
VM_KERNELS ?= 7.3.4+deb13-cloud-amd64 7.2.12+deb13-cloud-amd64 \
	7.1.13+deb13-cloud-amd64 7.0.13+deb13-cloud-amd64 \
	6.19.11+deb13-cloud-amd64 6.18.15+deb13-cloud-amd64 \
	6.17.13+deb13-cloud-amd64 6.16.12+deb13-cloud-amd64 \
	6.12.118-gamesched 6.12.95+deb12-cloud-amd64

.PHONY: vm-test vm-test-topo vm-demo vm-limit vm-fidelity vm-kernel-build vm-kernels
vm-kernel-build:
	vm/kernel-build.sh --series $(VM_KERNEL_SERIES)
vm-kernels:
	BUILD=$(BUILD) vm/kernels.sh $(VM_KERNELS)
vm-test:
	BUILD=$(BUILD) vm/test-vm.sh
vm-test-topo:
	BUILD=$(BUILD) vm/test-vm.sh topo

vm-demo: $(BUILD)/tests/jsonget
	$(MAKE) BUILD=$(BUILD) static
	BUILD=$(BUILD) vm/demo.sh --reps $(VM_DEMO_REPS) --duration $(VM_DEMO_DURATION) $(VM_DEMO_ARGS)

vm-limit: $(BUILD)/tests/jsonget
	$(MAKE) BUILD=$(BUILD) static
	BUILD=$(BUILD) vm/limit.sh $(VM_LIMIT_ARGS)

vm-fidelity: $(BUILD)/tests/jsonget $(BUILD)/framebench
	$(MAKE) BUILD=$(BUILD) static
	BUILD=$(BUILD) vm/fidelity.sh $(VM_FIDELITY_ARGS)
