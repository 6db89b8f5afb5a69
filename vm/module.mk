# SPDX-License-Identifier: GPL-2.0-only
# The VM harness: boots Debian's sched_ext kernel (vm/kernel.sh) under qemu
# with a busybox initramfs and a guest plan (vm/plans/*.sh), and judges the
# run from explicit result lines (vm/run.sh).
#
#   make vm-test   lavd in a real sched_ext kernel: load, framebench under
#                  lavd, unload, watchdog ejection, 20 load/unload cycles,
#                  CPU hotplug restart (one boot, a few minutes under TCG)
#   make vm-demo   framebench under the default scheduler vs lavd,
#                  interleaved in one boot; prints the side-by-side table
#                  (VM_DEMO_REPS pairs, VM_DEMO_DURATION per run)

VM_TESTS += vm/test-vm.sh

# churn: the thread-churn stress load of vm-test (static build goes into
# the initramfs with lavd and framebench)
PROGRAMS += $(BUILD)/churn
$(BUILD)/churn: $(BUILD)/vm/churn.o $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)
VM_DEMO_REPS ?= 3
VM_DEMO_DURATION ?= 10s
VM_DEMO_ARGS ?=

.PHONY: vm-test vm-demo
vm-test:
	$(MAKE) BUILD=$(BUILD) static
	BUILD=$(BUILD) vm/run.sh test --expect "load run unload watchdog cycles hotplug errors futex preempt features churn"

vm-demo: $(BUILD)/tests/jsonget
	$(MAKE) BUILD=$(BUILD) static
	BUILD=$(BUILD) vm/demo.sh --reps $(VM_DEMO_REPS) --duration $(VM_DEMO_DURATION) $(VM_DEMO_ARGS)
