# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of `make vm-test`: lavd in a real sched_ext kernel, one boot,
# phases in order (each prints one RESULT line; vm/run.sh checks them):
#
#   load      lavd --check calls the kernel loadable (BTF: sched_ext ops,
#             the kfuncs), lavd loads: state enabled, ops lavd,
#             framebench's threads show "ext.enabled : 1"
#   run       framebench (proton + 2 hogs, ~10 s, plus a 200 ms SCHED_FIFO
#             burst every 4 s so that RT tasks take CPUs from lavd and its
#             queued tasks must be handed back) completes under lavd with
#             no stall: exit 0, frames counted, lavd still the scheduler
#   unload    SIGINT: state disabled, loader exit 0, exit reason printed
#   verifier  each of lavd's BPF programs' verified instructions (the
#             kernel's verified_insns) printed, each under the budget
#             (gs.insnbudget, 250000: a quarter of the verifier's 1 M
#             limit, which lavd crossed once)
#   sigterm   the same for SIGTERM (what `systemctl stop lavd` sends)
#   watchdog  the debug knob stalls dispatch: the watchdog (timeout_ms
#             5000) ejects lavd, the loader says why and exits non-zero,
#             and the system keeps running under the fair class
#   cycles    load/unload 20 times: every cycle enables and exits 0, and
#             the kernel holds as many BPF objects afterwards as before
#   hotplug   CPU 1 goes offline and online under lavd: the kernel asks
#             for a restart, the loader reloads, lavd stays in charge
#   errors    the loader's error paths: a second instance is refused and
#             named, --monitor reads the running instance, a non-root user
#             is told what is missing, a verifier rejection prints the log;
#             and --partial leaves ordinary tasks on the fair class
#   futex     a futex-contention framebench profile (every job holds one
#             Wine-style mutex) with 2 hogs: the lock-holder path fires
#             (holder counters in --stats) through fexit, the path this
#             kernel takes, and through the syscall-tracepoint fallback
#   preempt   preemptions counted by `lavd --monitor` rise from framebench
#             alone (at 20 FPS) to framebench with 2 hogs; --monitor-sched-samples
#             prints sampled decisions of the running instance
#   features  framebench with 2 hogs completes with no stall (watchdog
#             5 s) with each feature switched off in turn
#   churn     200 threads created and ended continuously (vm/churn.c:
#             sleeps, spins, futex ping-pong, a contended mutex, yields,
#             pinning, nice changes) beside framebench with 2 hogs: no
#             stall, lavd still in charge, clean exit
#   yardstick scx_minimal, the measurements' yardstick, in both its shapes
#             (minimal, and --lavd-shape: lavd's callbacks without its
#             policy): each attaches under its own name, framebench
#             completes under it, SIGINT detaches it with exit 0
#   eevdf     lavd --eevdf beside framebench esports with 2 hogs on this
#             kernel (sched_ext present, not used): the game's threads are
#             boosted, SIGINT gives everything back, no record is left
#
# Needs /bin/lavd, /bin/framebench, /bin/churn and /bin/scx_minimal (make
# static).
# Parameters (vm/boot.sh --append): gs.cycles=N (default 20), gs.fbdur=D
# (default 10s), gs.phases="..." (default: all), gs.cyclebusy=1 (the
# cycles run beside framebench with 2 hogs, both vCPUs busy: the load and
# unload then patch code that the other vCPU is running, which is what
# raced in older qemus' thread=multi; vm/reload.sh).

cycles=$(gs_param cycles 20)
fbdur=$(gs_param fbdur 10s)

gs_out "PHASE setup kernel=$(uname -r) cpus=$(nproc) cycles=$cycles fbdur=$fbdur"
echo 1 > /proc/sys/kernel/bpf_stats_enabled
have_fb=1
[ -x /bin/framebench ] || have_fb=0
BPF_BEFORE=$(lavd --debug-bpf-objects 2>&1)

# ---- phases 1 and 2: load, then framebench under lavd -------------------
if want_phase load; then
# lavd --check reads this kernel's BTF (sched_ext ops, the kfuncs) and
# must call it loadable before the load proves it
kcheck=$(lavd --check 2>&1)
gs_out "DATA check $(echo "$kcheck" | grep '^this kernel' | tr '\n' ';')"
t0=$(now)
start_lavd --stats 2
if ! echo "$kcheck" | grep -q '^this kernel: lavd can load here$'; then
	gs_result load FAIL "lavd --check does not call this kernel loadable: $(echo "$kcheck" | tail -n 2 | tr '\n' ' ')"
	gs_result run FAIL "skipped: lavd --check failed"
elif ! wait_until 90 lavd_attached; then
	gs_result load FAIL "lavd did not attach in 90 s: state=$(scx_state) ops=$(scx_ops)"
	show_log "$LOG" 40
	gs_result run FAIL "skipped: lavd not loaded"
else
	gs_out "DATA load_s $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')"
	if [ $have_fb -eq 1 ]; then
		# a 15 s warm-up keeps the pipeline threads alive long enough
		# for this shell, one task among two hogs and framebench's, to
		# walk /proc: with the default 2 s a slow host's boot never saw
		# them (each walk took several seconds of the 12 s they lived)
		framebench --profile proton --warmup 15s --duration "$fbdur" --bg hogs:2 \
			--disturb 4s:200ms:1 --json /tmp/fb.json -q > /tmp/fb.out 2>&1 &
		FB=$!
		# the pipeline threads exist once calibration is over and the
		# warm-up runs: wait until there are several
		# shellcheck disable=SC2046 # split into fields on purpose
		fb_threads() { set -- $(ext_threads "$FB"); [ "$2" -ge 6 ]; }
		have_task_sched && wait_until 45 fb_threads
		# a thread caught between fork and its switch to sched_ext
		# reads 0 for a moment: look up to three times
		for _ in 1 2 3; do
			# shellcheck disable=SC2046 # split into fields on purpose
			set -- $(ext_threads "$FB")
			on=$1 all=$2
			[ "$on" -eq "$all" ] && break
			sleep 1
		done
		if ! have_task_sched && lavd_attached &&
		   [ "$(cat /sys/kernel/sched_ext/switch_all 2>/dev/null)" = 1 ]; then
			gs_result load PASS "state=$(scx_state) ops=$(scx_ops) switch_all=1; no /proc/PID/sched on this kernel (CONFIG_SCHED_DEBUG off): threads not checked one by one"
		elif [ "$all" -gt 1 ] && [ "$on" -eq "$all" ] && lavd_attached; then
			gs_result load PASS "state=$(scx_state) ops=$(scx_ops); framebench threads with ext.enabled 1: $on of $all"
		else
			gs_result load FAIL "state=$(scx_state) ops=$(scx_ops); framebench threads with ext.enabled 1: $on of $all"
			cat /proc/"$FB"/task/*/sched 2>/dev/null | grep -E '^[a-z].*[(]|ext' | head -20
		fi
		wait_exit "$FB" 120
		fbrc=$RC
		cat /tmp/fb.out
		frames=$(sed -n 's/^ *"frames": *\([0-9]*\).*/\1/p' /tmp/fb.json 2>/dev/null | head -n 1)
		if [ "$fbrc" = 0 ] && [ "${frames:-0}" -gt 0 ] && lavd_attached &&
		   ! grep -q 'kernel stopped' "$LOG"; then
			reenq=$(sed -n 's/.* reenq \([0-9]*\) .*/\1/p' "$LOG" | awk '{ n += $1 } END { print n + 0 }')
			gs_result run PASS "framebench proton --bg hogs:2 --disturb 4s:200ms:1 --duration $fbdur: exit 0, $frames frames, lavd still enabled, $reenq tasks handed back after RT bursts"
			gs_out "DATA fb $(tr -d '\n' < /tmp/fb.out)"
		else
			gs_result run FAIL "framebench exit=$fbrc frames=${frames:-none} state=$(scx_state) ops=$(scx_ops)"
			show_log "$LOG" 30
		fi
	else
		gs_result load FAIL "no /bin/framebench in the initramfs (make static)"
		gs_result run FAIL "no /bin/framebench in the initramfs (make static)"
	fi
fi

# ---- phase 3: SIGINT unloads cleanly ----------------------------------
stop_lavd 30
if [ "$RC" = 0 ] && wait_until 10 scx_is disabled &&
   grep -q 'exit: unregistered from user space' "$LOG"; then
	gs_result unload PASS "exit 0, state $(scx_state), reason: $(sed -n 's/^lavd: exit: //p' "$LOG" | head -n 1)"
else
	gs_result unload FAIL "exit=$RC state=$(scx_state)"
fi
show_log "$LOG" 12
cost=$(grep 'BPF cost per call' "$LOG" | sed 's/.*): //')
[ -n "$cost" ] && gs_out "DATA bpf_cost $cost"
grep -q '^\[' "$LOG" && gs_out "DATA stats $(grep '^\[' "$LOG" | tail -n 1)"
fi

# ---- verifier: each program's verified instructions, under budget -----
# lavd -v prints them (lavd/cost.c reads verified_insns through libbpf's
# bpf_prog_get_info_by_fd): the guest has no bpftool.
if want_phase verifier; then
budget=$(gs_param insnbudget 250000)
start_lavd -v
if wait_until 90 lavd_attached; then
	stop_lavd 30
	line=$(sed -n 's/^lavd: loaded in [0-9.]* s; verified instructions //p' "$LOG" | head -n 1)
	total=${line%%:*} n=0 max=0 maxname="" over=""
	# shellcheck disable=SC2086 # the pairs "PROGRAM COUNT", split on purpose
	set -- ${line#*:}
	while [ $# -ge 2 ]; do
		gs_out "DATA verified_insns lavd $1 $2"
		n=$((n + 1))
		[ "$2" -le "$max" ] || { max=$2 maxname=$1; }
		[ "$2" -le "$budget" ] || over="$over $1=$2"
		shift 2
	done
	if [ $n -eq 0 ]; then
		gs_result verifier FAIL "lavd -v printed no verified instructions"
		show_log "$LOG" 20
	elif [ -n "$over" ]; then
		gs_result verifier FAIL "over the budget of $budget per program:$over"
	else
		gs_result verifier PASS "$n programs, $total verified instructions in all, the largest $maxname $max (budget $budget per program, the verifier's limit 1000000)"
	fi
else
	gs_result verifier FAIL "lavd -v did not attach in 90 s: state=$(scx_state)"
	show_log "$LOG" 20
	stop_lavd 20
fi
fi

# ---- SIGTERM (systemctl stop) unloads as SIGINT does -------------------
if want_phase sigterm; then
start_lavd
if wait_until 90 lavd_attached; then
	kill -TERM "$LPID"
	wait_exit "$LPID" 30
	if [ "$RC" = 0 ] && wait_until 10 scx_is disabled &&
	   grep -q 'exit: unregistered from user space' "$LOG"; then
		gs_result sigterm PASS "exit 0, state $(scx_state), reason: $(sed -n 's/^lavd: exit: //p' "$LOG" | head -n 1)"
	else
		gs_result sigterm FAIL "exit=$RC state=$(scx_state)"
		show_log "$LOG" 12
	fi
else
	gs_result sigterm FAIL "lavd did not attach: state=$(scx_state)"
	stop_lavd 30
fi
fi

# ---- phase 4: the watchdog ejects a stalled lavd ------------------------
if want_phase watchdog; then
start_lavd --watchdog-ms 5000 --debug-stall-after 1
t0=$(now)
if ! wait_until 90 lavd_attached; then
	gs_result watchdog FAIL "lavd did not attach: state=$(scx_state)"
	show_log "$LOG" 30
	stop_lavd 20
else
	# While it stalls, user space (this shell too) is frozen: just wait
	# for the loader to exit.
	wait_exit "$LPID" 90
	took=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	alive=no
	# the system keeps running: a fresh process runs, on the fair class
	sched=sched
	have_task_sched || sched=stat	# no per-task class there: state only
	sh -c "i=0; while [ \$i -lt 2000 ]; do i=\$((i+1)); done; cat /proc/self/$sched" > /tmp/alive 2>&1 &&
		alive=yes
	ext=$(grep -c 'ext.enabled *: *1' /tmp/alive)
	if [ "$RC" != 0 ] && [ "$RC" != timeout ] && grep -q 'runnable task stall' "$LOG" &&
	   wait_until 10 scx_is disabled && [ "$alive" = yes ] && [ "$ext" = 0 ]; then
		gs_result watchdog PASS "ejected after ${took}s, loader exit $RC, state $(scx_state), system alive on the fair class; $(grep 'kernel stopped' "$LOG" | head -n 1)"
	else
		gs_result watchdog FAIL "loader exit=$RC after ${took}s state=$(scx_state) alive=$alive ext.enabled=$ext"
	fi
	show_log "$LOG" 12
fi
fi

# ---- phase 5: load/unload N times, no leak ------------------------------
if want_phase cycles; then
ok=0 fail="" BUSY=""
if [ "$(gs_param cyclebusy 0)" = 1 ] && [ $have_fb -eq 1 ]; then
	framebench --profile proton --duration 1h --bg hogs:2 -q --no-feed > /dev/null 2>&1 &
	BUSY=$!
fi
t0=$(now)
seq0=$(cat /sys/kernel/sched_ext/enable_seq 2>/dev/null)
i=1
while [ $i -le "$cycles" ]; do
	start_lavd
	if wait_until 60 lavd_attached; then
		stop_lavd 30
		if [ "$RC" = 0 ] && wait_until 10 scx_is disabled; then
			ok=$((ok + 1))
		else
			fail="$fail $i:exit=$RC,state=$(scx_state)"
			show_log "$LOG" 10
		fi
	else
		fail="$fail $i:no-attach,state=$(scx_state)"
		show_log "$LOG" 20
		stop_lavd 20
	fi
	i=$((i + 1))
done
seq1=$(cat /sys/kernel/sched_ext/enable_seq 2>/dev/null)
if [ -n "$BUSY" ]; then
	kill -INT "$BUSY" 2>/dev/null
	wait_exit "$BUSY" 30
fi
# BPF objects are freed after an RCU grace period: give them a moment.
bpf_same() { [ "$(lavd --debug-bpf-objects 2>&1)" = "$BPF_BEFORE" ]; }
wait_until 10 bpf_same
BPF_AFTER=$(lavd --debug-bpf-objects 2>&1)
took=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
if [ $ok -eq "$cycles" ] && [ "$BPF_AFTER" = "$BPF_BEFORE" ]; then
	gs_result cycles PASS "$ok of $cycles load/unload cycles in ${took}s, enable_seq $seq0 -> $seq1, $BPF_AFTER (as before)"
else
	gs_result cycles FAIL "$ok of $cycles ok;$fail; before: $BPF_BEFORE; after: $BPF_AFTER"
fi
fi

# ---- phase 6: CPU hotplug makes the kernel ask for a restart -----------
if want_phase hotplug; then
cpu1=/sys/devices/system/cpu/cpu1/online
if [ ! -w "$cpu1" ]; then
	gs_result hotplug FAIL "no $cpu1 to write (needs -smp 2 or more)"
else
	start_lavd
	if wait_until 60 lavd_attached; then
		restarted() { [ "$(grep -c 'restarted' "$LOG")" -ge "$1" ] && lavd_attached; }
		echo 0 > "$cpu1"
		r1=no; wait_until 60 restarted 1 && r1=yes
		echo 1 > "$cpu1"
		r2=no; wait_until 60 restarted 2 && r2=yes
		stop_lavd 30
		if [ $r1 = yes ] && [ $r2 = yes ] && [ "$RC" = 0 ]; then
			gs_result hotplug PASS "offline and online each restarted lavd ($(grep -c 'asked for a restart' "$LOG") restarts), exit 0"
		else
			gs_result hotplug FAIL "restart after offline=$r1, after online=$r2, exit=$RC state=$(scx_state)"
		fi
	else
		gs_result hotplug FAIL "lavd did not attach: state=$(scx_state)"
		stop_lavd 20
	fi
	show_log "$LOG" 12
	echo 1 > "$cpu1" 2>/dev/null
fi
fi

# ---- phase 7: error paths and the monitor ------------------------------
if want_phase errors; then
errs=""
start_lavd
if wait_until 60 lavd_attached; then
	out=$(lavd 2>&1); rc=$?
	{ [ $rc -eq 1 ] && echo "$out" | grep -q 'lavd is already running'; } ||
		errs="$errs second-instance(exit $rc: $out)"
	lavd --monitor 0.5 > /tmp/mon.log 2>&1 &
	MPID=$!
	sleep 3
	kill -INT "$MPID"
	wait_exit "$MPID" 20
	{ [ "$RC" = 0 ] && grep -q 'queued' /tmp/mon.log; } ||
		errs="$errs monitor(exit $RC: $(tail -n 2 /tmp/mon.log))"
	gs_out "DATA monitor $(grep 'queued' /tmp/mon.log | tail -n 1)"
else
	errs="$errs no-attach(state $(scx_state))"
fi
stop_lavd 30
[ "$RC" = 0 ] || errs="$errs stop(exit $RC)"
# busybox su, as root, needs no password; nobody has no capabilities
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
echo 'nogroup:x:65534:' >> /etc/group
out=$(su -s /bin/sh -c lavd nobody 2>&1); rc=$?
{ [ $rc -eq 1 ] && echo "$out" | grep -q 'needs root'; } ||
	errs="$errs non-root(exit $rc: $out)"
# bounded: a variant the verifier accepts would schedule until stopped
# (6.12's larger task_struct did, before the offset became CO-RE's)
timeout 300 lavd --debug-verifier-reject > /tmp/vrf.log 2>&1; rc=$?
{ [ $rc -eq 1 ] && grep -q 'refused to load' /tmp/vrf.log &&
  grep -q 'verifier log' /tmp/vrf.log && scx_is disabled; } ||
	errs="$errs verifier(exit $rc$(grep -q '^lavd: attached' /tmp/vrf.log &&
		echo ', the verifier accepted the variant: it attached'): $(tail -n 3 /tmp/vrf.log))"
gs_out "DATA verifier $(grep -m 1 'refused' /tmp/vrf.log) / $(grep -B1 -m 1 'END PROG LOAD LOG\|processed' /tmp/vrf.log | head -n 1)"
# --partial: only SCHED_EXT tasks move; a new ordinary process stays fair
start_lavd --partial
if wait_until 60 lavd_attached; then
	ext=0	# without /proc/PID/sched only switch_all can say it
	have_task_sched && ext=$(grep 'ext.enabled' /proc/self/sched | tr -dc '0-9')
	sw=$(cat /sys/kernel/sched_ext/switch_all 2>/dev/null)
	[ "$ext" = 0 ] && [ "$sw" = 0 ] || errs="$errs partial(ext.enabled=$ext switch_all=$sw)"
else
	errs="$errs partial(no attach)"
fi
stop_lavd 30
[ "$RC" = 0 ] || errs="$errs partial-stop(exit $RC)"
if [ -z "$errs" ]; then
	gs_result errors PASS "second instance refused and named, monitor read the stats, non-root told, verifier rejection shown (exit 1), --partial left fair tasks alone"
else
	gs_result errors FAIL "$errs"
fi
fi

# ---- futex holders, preemption, each feature off, churn ----------------

# fb_run ARGS...: framebench, quietly; FBRC, FRAMES, CONTENDED set.
fb_run() {
	framebench --warmup 500ms "$@" --json /tmp/fbp.json -q > /tmp/fbp.out 2>&1
	FBRC=$?
	FRAMES=$(sed -n 's/^ *"frames": *\([0-9]*\).*/\1/p' /tmp/fbp.json 2>/dev/null | head -n 1)
	CONTENDED=$(sed -n 's/^ *"contended": *\([0-9]*\).*/\1/p' /tmp/fbp.json 2>/dev/null | head -n 1)
	FRAMES=${FRAMES:-0} CONTENDED=${CONTENDED:-0}
}

# The futex-contention profile: every job and the net task take one mutex.
cat > /tmp/contention.profile <<'PROFILE'
name        futex-contention
description every job holds one Wine-style mutex: lock holders under contention
fps         0
workers     6
mutex       hot
net period=2ms work=50us lock=hot hold=100us..300us
stage game
  fanout 6 100us..200us lock=hot hold=200us..500us
  lock   hot 200us..400us
  work   100us
PROFILE

# futex_case WANT ARGS...: lavd ARGS with the contention profile + 2 hogs;
# sets FX ("" when fine, else what failed) and FXD (the figures).
futex_case() {
	want=$1; shift
	FX="" FXD=""
	# the tracepoint path needs syscall tracepoints (CONFIG_FTRACE_SYSCALLS:
	# distributions' kernels have them, a defconfig build does not)
	if [ "$want" = tracepoint ] && [ ! -d /sys/kernel/tracing/events/syscalls ]; then
		FXD="tracepoint: not run, this kernel has no syscall tracepoints (CONFIG_FTRACE_SYSCALLS)"
		return
	fi
	start_lavd --stats 1 --watchdog-ms 5000 "$@"
	if ! wait_until 90 lavd_attached; then
		FX="$want: no attach (state $(scx_state))"
		show_log "$LOG" 20
		stop_lavd 20
		return
	fi
	fb_run --profile /tmp/contention.profile --duration 3s --bg hogs:2
	sleep 1
	stop_lavd 30
	locks=$(sum_stat "$LOG" lock/s) ext=$(sum_stat "$LOG" ext) boost=$(sum_stat "$LOG" boost)
	spared=$(sum_stat "$LOG" spared)
	FXD="$want: $locks lock acquisitions, $ext slice extensions, $boost holder boosts, $spared holders spared from eviction, $CONTENDED contended framebench locks"
	grep -q "futex boost $want" "$LOG" || FX="$FX attach line lacks 'futex boost $want';"
	grep -q "futex $want lock/s" "$LOG" || FX="$FX stats lack 'futex $want';"
	[ "$locks" -gt 0 ] || FX="$FX no lock acquisition counted;"
	[ $((ext + boost)) -gt 0 ] || FX="$FX no holder extension or boost;"
	[ "$FBRC" = 0 ] && [ "$FRAMES" -gt 0 ] || FX="$FX framebench exit $FBRC, $FRAMES frames;"
	[ "$CONTENDED" -gt 0 ] || FX="$FX framebench saw no contended lock;"
	[ "$RC" = 0 ] || FX="$FX loader exit $RC;"
	[ -n "$FX" ] && show_log "$LOG" 12
}

if want_phase futex; then
	futex_case fexit
	f1=$FX d1=$FXD
	futex_case tracepoint --debug-futex-path tracepoint
	f2=$FX d2=$FXD
	if [ -z "$f1$f2" ]; then
		gs_result futex PASS "holder path fires; $d1; $d2"
	else
		gs_result futex FAIL "$f1 $f2; $d1; $d2"
	fi
fi

if want_phase preempt; then
	pf=""
	start_lavd --watchdog-ms 5000
	if wait_until 90 lavd_attached; then
		lavd --monitor 1 > /tmp/mon0.log 2>&1 &
		M=$!
		# 20 FPS leaves the CPUs idle part of the time without hogs
		fb_run --profile proton --fps 20 --duration 4s
		r0=$FBRC
		kill -INT "$M"
		wait_exit "$M" 20
		lavd --monitor 1 --monitor-sched-samples 20 > /tmp/mon1.log 2>&1 &
		M=$!
		fb_run --profile proton --fps 20 --duration 4s --bg hogs:2
		r1=$FBRC
		kill -INT "$M"
		wait_exit "$M" 20
		m1=$RC
		p0=$(sum_stat /tmp/mon0.log preempt/s) p1=$(sum_stat /tmp/mon1.log preempt/s)
		t1=$(sum_stat /tmp/mon1.log tried/s)
		ns=$(grep -c '^sample' /tmp/mon1.log)
		nev=$(grep '^sample' /tmp/mon1.log | grep -vc 'preempted-by 0$')
		[ "$r0" = 0 ] && [ "$r1" = 0 ] || pf="$pf framebench exit $r0/$r1;"
		[ "$p1" -gt 0 ] && [ "$p1" -gt "$p0" ] || pf="$pf preemptions did not rise ($p0 -> $p1);"
		[ "$ns" -gt 0 ] && [ "$m1" = 0 ] || pf="$pf no samples from the monitor (exit $m1);"
		grep -q 'read-only; sampling' /tmp/mon1.log || pf="$pf monitor did not say it samples;"
		gs_out "DATA sample $(grep '^sample' /tmp/mon1.log | grep -m 1 'fb-')"
	else
		pf="no attach (state $(scx_state))"
	fi
	stop_lavd 30
	[ "$RC" = 0 ] || pf="$pf loader exit $RC;"
	if [ -z "$pf" ]; then
		gs_result preempt PASS "preemptions $p0 without hogs -> $p1 with 2 hogs ($t1 tries); monitor printed $ns sampled decisions ($nev of an evicted run)"
	else
		gs_result preempt FAIL "$pf"
		show_log /tmp/mon1.log 10
	fi
fi

if want_phase features; then
	ff="" ok=""
	for f in --no-preemption --no-futex-boost --no-slice-boost --no-wake-sync \
		 "--pinned-slice-us 0" "--debug-preempt-kick never" "--debug-preempt-kick always"; do
		# shellcheck disable=SC2086
		start_lavd --watchdog-ms 5000 $f
		if ! wait_until 90 lavd_attached; then
			ff="$ff [$f: no attach]"
			stop_lavd 20
			continue
		fi
		fb_run --profile proton --duration 2s --bg hogs:2
		alive=yes
		lavd_attached || alive=no
		stop_lavd 30
		if [ "$FBRC" = 0 ] && [ "$FRAMES" -gt 0 ] && [ $alive = yes ] && [ "$RC" = 0 ] &&
		   ! grep -q 'kernel stopped' "$LOG"; then
			ok="$ok [$f: $FRAMES frames]"
		else
			ff="$ff [$f: framebench exit $FBRC, $FRAMES frames, lavd enabled $alive, loader exit $RC]"
			show_log "$LOG" 12
		fi
	done
	if [ -z "$ff" ]; then
		gs_result features PASS "no stall with each feature off:$ok"
	else
		gs_result features FAIL "$ff"
	fi
fi

if want_phase churn; then
	cf=""
	if [ -x /bin/churn ]; then
		start_lavd --stats 1 --watchdog-ms 5000
		if wait_until 90 lavd_attached; then
			churn --threads 200 --duration 8s > /tmp/churn.out 2>&1 &
			C=$!
			fb_run --profile proton --duration 6s --bg hogs:2
			wait_exit "$C" 60
			crc=$RC
			alive=yes
			lavd_attached || alive=no
			stop_lavd 30
			[ "$crc" = 0 ] || cf="$cf churn exit $crc;"
			[ "$FBRC" = 0 ] && [ "$FRAMES" -gt 0 ] || cf="$cf framebench exit $FBRC, $FRAMES frames;"
			[ $alive = yes ] || cf="$cf lavd no longer enabled (state $(scx_state));"
			[ "$RC" = 0 ] && ! grep -q 'kernel stopped' "$LOG" || cf="$cf loader exit $RC;"
		else
			cf="no attach (state $(scx_state))"
			stop_lavd 20
		fi
	else
		cf="no /bin/churn (make static)"
	fi
	if [ -z "$cf" ]; then
		gs_result churn PASS "$(cat /tmp/churn.out); framebench $FRAMES frames beside it; $(sum_stat "$LOG" preempt/s) preemptions, $(sum_stat "$LOG" pinned/s) pinned-queue placements; lavd exit 0"
	else
		gs_result churn FAIL "$cf $(cat /tmp/churn.out 2>/dev/null)"
		show_log "$LOG" 20
	fi
fi

if want_phase yardstick; then
	yf="" yok=""
	if [ -x /bin/scx_minimal ]; then
		for shape in minimal minimal_shaped; do
			set --
			[ $shape = minimal_shaped ] && set -- --lavd-shape --slice-us 5000
			scx_minimal --stats 1 "$@" > /tmp/minimal.log 2>&1 &
			MPID=$!
			if wait_until 90 scx_is enabled $shape; then
				fb_run --profile esports --duration 3s
				alive=yes
				scx_is enabled $shape || alive=no
				kill -INT "$MPID"
				wait_exit "$MPID" 30
				if [ "$FBRC" = 0 ] && [ "$FRAMES" -gt 0 ] && [ $alive = yes ] &&
				   [ "$RC" = 0 ] && wait_until 10 scx_is disabled; then
					yok="$yok [$shape: $FRAMES frames, $(grep '^\[' /tmp/minimal.log | tail -n 1)]"
				else
					yf="$yf [$shape: framebench exit $FBRC, $FRAMES frames, still attached $alive, exit $RC, state $(scx_state)]"
					show_log /tmp/minimal.log 12
				fi
			else
				yf="$yf [$shape: did not attach, state $(scx_state) ops $(scx_ops)]"
				kill -INT "$MPID" 2>/dev/null
				wait_exit "$MPID" 30
				show_log /tmp/minimal.log 12
			fi
		done
	else
		yf="no /bin/scx_minimal (make static)"
	fi
	if [ -z "$yf" ]; then
		gs_result yardstick PASS "scx_minimal in both shapes:$yok"
	else
		gs_result yardstick FAIL "$yf"
	fi
fi

# ---- lavd --eevdf on the sched_ext kernel, with sched_ext left alone ----
if want_phase eevdf; then
	lavd --eevdf --eevdf-state /tmp/eevdf.state --stats 1 -v > /tmp/eevdf.log 2>&1 &
	EP=$!
	sleep 2
	fb_run --profile esports --duration 3s --bg hogs:2
	boosted=$(grep -c -- '-> critical' /tmp/eevdf.log)
	kill -INT "$EP"
	wait_exit "$EP" 30
	irq="interrupt wakeups told apart"
	grep -q 'does not export its preempt count' /tmp/eevdf.log && irq="interrupt wakeups not told apart"
	if [ "$FBRC" = 0 ] && [ "$FRAMES" -gt 0 ] && [ "$RC" = 0 ] && [ "$boosted" -gt 0 ] &&
	   [ ! -e /tmp/eevdf.state ] && ! scx_is enabled lavd; then
		gs_result eevdf PASS "framebench esports --bg hogs:2: $FRAMES frames; $boosted class changes to critical; $irq; $(grep 'given back' /tmp/eevdf.log)"
	else
		gs_result eevdf FAIL "framebench exit $FBRC, $FRAMES frames; $boosted boosts; lavd exit $RC; record left: $([ -e /tmp/eevdf.state ] && echo yes || echo no)"
		show_log /tmp/eevdf.log 20
	fi
fi
