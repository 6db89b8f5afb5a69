#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the VM harness's initramfs: mounts the pseudo file systems,
# runs the test plan (/plan.sh) and powers off. Results go to the second
# serial port (/dev/ttyS1), which the host reads as a file: kernel
# messages on the console (ttyS0) can never interleave with them.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/shm /tmp /run /sys/kernel/tracing
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
# /run as on every installed system: lavd --eevdf keeps its record in /run/lavd
mount -t tmpfs run /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

# the kernel's config, for loaders that read /boot/config-RELEASE (vm/run.sh)
[ -f "/bin/config-$(uname -r)" ] && mkdir -p /boot && cp "/bin/config-$(uname -r)" /boot/

. /guest-lib.sh
gs_out "BOOT kernel=$(uname -r) cpus=$(nproc) up=$(cut -d' ' -f1 /proc/uptime)"
. /plan.sh
gs_out "DONE"
sync
poweroff -f
