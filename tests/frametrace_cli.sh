#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# frametrace without BPF: usage errors exit 2 with a message naming the
# option; import of perf script / ftrace / MangoHud text; report as text,
# JSON, HTML (self-contained) and Graphviz; Perfetto export; and bad input
# (truncated and corrupted trace files, unknown perf events, MangoHud logs
# with missing columns) gives a clear message with file and line or offset,
# partial results where they make sense, and never a crash.
. tests/lib.sh
FT=$B/frametrace
JG=$B/tests/jsonget
FX=tests/fixtures/frametrace-perf-sched.txt
need "$FT"
need "$JG"

# expect RC "FRAGMENT" ARGS...: exit status RC and the fragment on stderr
expect() {
	want_rc=$1 want=$2
	shift 2
	expect_exit "$want_rc" "$want" "$FT" "$@"
}

# usage
expect 2 "usage: frametrace COMMAND"
expect 2 "unknown command 'frob'" frob
expect 0 "" --help
expect 2 "usage: frametrace import" import "$FX"
# each command's --help is made from its option table (lib/opttab.c)
# help_has COMMAND PATTERN: COMMAND --help (stdout, exit 0) lists it
help_has() {
	"$FT" "$1" --help >"$T/help" 2>&1 && grep -q -- "$2" "$T/help" &&
		pass "$1 --help: $2" || fail "$1 --help lacks '$2': $(cat "$T/help")"
}
help_has import '^  -q, --quiet  *no summary line'
help_has export '^  --max-flows N  *--json: at most N wake-up flow arrows (default 50000)$'
help_has profile '^  -h, --help  *this help$'
help_has compare '^  --pid-b PID  *the game.s process in B'
help_has report '^  --top N  *rows per table (default 15)$'
# record and watch: the shared recording options from one table part
# (frametrace/record/recopts.h)
help_has record '^  -h, --help  *this help$'
help_has watch '^recording:$'
help_has watch '^  -v, --verbose  *libbpf messages$'
# getopt's complaints, worded as in every program of the project; watch
# gets -o in $T so that a check that stopped failing (watch would start as
# root) writes nothing into the working directory
expect 2 "frametrace: unknown option '--bogus' (see --help)" report --bogus "$FX"
expect 2 "frametrace: unknown option '-Z' (see --help)" import -Z -o "$T/z.ftr" "$FX"
expect 2 "frametrace: option '--top' needs a value (see --help)" report --top
expect 2 "frametrace: option '--json' takes no value (see --help)" report --json=1 "$FX"
expect 2 "frametrace: unexpected argument 'extra' (see --help)" report "$FX" extra
expect 2 "frametrace: unexpected argument 'more' (see --help)" export --perfetto "$T/z.txt" "$FX" more
expect 2 "frametrace: option '--pre' needs a value (see --help)" watch -o "$T/w" --pre
expect 2 "frametrace: unknown option '--bogus' (see --help)" record --bogus -o "$T/z.ftr"
expect 2 "option --top: expected" report --top 0 "$FX"
expect 2 "option --frame-ms: expected" watch -o "$T/w" --frame-ms -3
expect 2 "option --ring-slots: expected a power of two" watch -o "$T/w" --ring-slots 3000
expect 2 "option --present needs -p PID or a command after --" record -o "$T/z.ftr" --present auto
expect 2 "option --present: 'bad name' is not a function name" record -o "$T/z.ftr" --present 'bad name' -- true
expect 2 "option --present: 'x@': no library after '@'" watch -o "$T/w" --present 'x@' -- true
expect 2 "option --pid: no process 2147483646" record -o "$T/z.ftr" --present auto -p 2147483646
expect 2 "option --pid: not with a command" record -o "$T/z.ftr" --present auto -p 1 -- true
expect 2 "option --frames-from present needs --present" watch -o "$T/w" --frames-from present
expect 2 "option --frame-event: expected an event name without group" import -o "$T/z.ftr" --frame-event probe:x "$FX"
expect 2 "$T/nope.txt: No such file or directory" report "$T/nope.txt"
expect 2 "usage: frametrace export" export "$FX"

# import and report the committed perf fixture
expect 0 "perf script text" import -o "$T/p.ftr" "$FX"
"$FT" info "$T/p.ftr" >"$T/info" || fail "info failed"
grep -q "^  sched_switch" "$T/info" || fail "info: no sched_switch count"
grep -q "^complete: yes" "$T/info" || fail "info: not complete"
"$FT" report "$T/p.ftr" >"$T/rep.txt" 2>"$T/err" || fail "report failed: $(cat "$T/err")"
for s in "tasks by CPU time" "latency-critical tasks" "wake graph" \
	"most frequent wake chains" "switch-ins reconstructed"; do
	grep -qF "$s" "$T/rep.txt" || fail "text report lacks '$s'"
done
grep -q "fb-game:" "$T/rep.txt" || fail "text report lacks the framebench threads"
# the same report straight from the text file (import on the fly)
"$FT" report --json "$FX" >"$T/rep.json" 2>"$T/err" || fail "report --json failed"
$JG "$T/rep.json" runtime_source reconstructed_switches lost_events ncpus >"$T/j" ||
	fail "report --json lacks top-level keys"
[ "$(head -1 "$T/j")" = "sched_stat_runtime" ] || fail "runtime source: $(head -1 "$T/j")"
"$FT" report -q --html "$T/r.html" --dot "$T/r.dot" "$T/p.ftr" || fail "html/dot failed"
grep -q "<svg" "$T/r.html" || fail "html has no SVG"
grep -q "<script>" "$T/r.html" || fail "html has no script"
if grep -Eqi "(src|href)=['\"]?https?:" "$T/r.html"; then
	fail "html is not self-contained"
fi
head -2 "$T/r.dot" | grep -q "^digraph wakeups" || fail "dot output"

# Perfetto export: ftrace text and JSON
"$FT" export --perfetto "$T/p.txt" "$T/p.ftr" || fail "export failed"
head -1 "$T/p.txt" | grep -q "^# tracer: nop" || fail "export: no tracer header"
grep -q ": sched_switch: prev_comm=" "$T/p.txt" || fail "export: no sched_switch"
grep -q ": sched_waking: comm=" "$T/p.txt" || fail "export: no sched_waking"
# the export reads back as ftrace text with the same switches
"$FT" import -q -o "$T/back.ftr" "$T/p.txt" || fail "re-import of the export failed"
a=$("$FT" info "$T/p.ftr" | awk '/^  sched_switch/ { print $2 }')
b=$("$FT" info "$T/back.ftr" | awk '/^  sched_switch/ { print $2 }')
[ "$a" = "$b" ] || fail "export round trip: $a vs $b switches"
"$FT" export --perfetto "$T/p.json" --json "$T/p.ftr" || fail "export --json failed"
$JG "$T/p.json" traceEvents >/dev/null || fail "export --json: no traceEvents"
# "--perfetto --json OUT IN": the flavour after the format's name, the
# output an operand (it used to write a file named "--json")
FTA=$(cd "$(dirname "$FT")" && pwd)/frametrace
(cd "$T" && "$FTA" export --perfetto --json p2.json p.ftr) ||
	fail "export --perfetto --json OUT IN failed"
[ -e "$T/--json" ] && fail "export --perfetto --json wrote a file named --json"
$JG "$T/p2.json" traceEvents >/dev/null || fail "export --perfetto --json: no JSON in OUT"
expect 2 "usage: frametrace export" export --perfetto --json "$T/p2.json"
# an option where a file name belongs is refused, never a file named so
# (run in $T: a regression writes its files there, not here)
(
cd "$T" || exit 1
fails=0
FT=$FTA
expect 2 "option '--perfetto' needs a file name, not '--max-flows'" export --perfetto --max-flows 3 "$T/p3.json" "$T/p.ftr"
expect 2 "option '--html' needs a file name, not '--json'" report --html --json "$T/p.ftr"
expect 2 "option '--dot' needs a file name, not '-q'" report --dot -q "$T/p.ftr"
expect 2 "option '-o' needs a file name, not '--json'" report -o --json "$T/p.ftr"
expect 2 "option '-o' needs a file name, not '-q'" import -o -q "$FX"
expect 2 "option '-o' needs a file name, not '--pid'" profile -o --pid 3 "$T/p.ftr"
expect 2 "option '-o' needs a file name, not '--json'" compare -o --json "$T/p.ftr" "$T/p.ftr"
expect 2 "option '-o' needs a file name, not '-d'" record -d 1s -o -d 1s
expect 2 "option '-o' needs a file name, not '--pre'" watch -d 1s -o --pre 1s
expect 2 "option '--mangohud' needs a file name, not '-q'" watch -d 1s -o "$T/w" --mangohud -q
exit $fails
) || fails=$((fails + $?))
for f in "$T"/-*; do
	[ -e "$f" ] && fail "a file named after an option was written: $f"
done

# MangoHud logs: import, frames in the report; missing columns: file:line
cat >"$T/mh.csv" <<'CSV'
os,cpu,gpu,ram,kernel,driver,cpuscheduler
Debian,cpu,gpu,16GB,6.1,mesa,schedutil
fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed
60,16.6,1,0,0,0,0,0,0,0,0,0,0,0,0,16600000
60,16.7,1,0,0,0,0,0,0,0,0,0,0,0,0,33300000
10,100.0,1,0,0,0,0,0,0,0,0,0,0,0,0,133300000
60,16.6,1,0,0,0,0,0,0,0,0,0,0,0,0,149900000
CSV
"$FT" report --json "$T/mh.csv" >"$T/mh.json" 2>"$T/err" || fail "MangoHud report: $(cat "$T/err")"
[ "$($JG "$T/mh.json" frames.count)" = 4 ] || fail "MangoHud frames"
[ "$($JG "$T/mh.json" frames.slow_count)" = 1 ] || fail "MangoHud slow frames"
printf 'fps,cpu_load,elapsed\n60,1,16000000\n' >"$T/bad.csv"
expect 2 "$T/bad.csv:1" import -o "$T/x.ftr" "$T/bad.csv"

# perf script with unknown events: imported, the rest named with a line
{ head -50 "$FX"; echo "            perf  1 [000]  1.000000000: irq:irq_handler_entry: irq=1 name=x"; tail -50 "$FX"; } >"$T/unk.txt"
expect 0 "$T/unk.txt:51: unknown events skipped: irq_handler_entry (1)" import -o "$T/u.ftr" "$T/unk.txt"
printf 'garbage\nmore garbage\n' >"$T/g.txt"
expect 2 "$T/g.txt: line 1: not a format frametrace knows" report "$T/g.txt"

# truncated and corrupted trace files
size=$(wc -c <"$T/p.ftr")
head -c $((size / 2)) "$T/p.ftr" >"$T/half.ftr"
expect 0 "$T/half.ftr: offset" report "$T/half.ftr"
grep -q "cut short" "$T/err" || fail "truncated file: no 'cut short' in: $(cat "$T/err")"
grep -q "tasks by CPU time" "$T/out" || fail "truncated file: no partial report"
head -c 40 "$T/p.ftr" >"$T/tiny.ftr"
expect 2 "$T/tiny.ftr: offset 0: file too short" report "$T/tiny.ftr"
# flip a byte inside the first events chunk (after header and STRINGS? no strings: META first)
cp "$T/p.ftr" "$T/flip.ftr"
printf '\377\377\377\377' | dd of="$T/flip.ftr" bs=1 seek=20000 conv=notrunc 2>/dev/null
expect 0 "checksum mismatch" report "$T/flip.ftr"
# a flipped byte in the header's CPU count: the field is named (exit 2)
cp "$T/p.ftr" "$T/hdr.ftr"
printf '\375' | dd of="$T/hdr.ftr" bs=1 seek=20 conv=notrunc 2>/dev/null
expect 2 "$T/hdr.ftr: offset 20: header field ncpus is damaged (253; the META chunk says" info "$T/hdr.ftr"
# a trace whose only events chunk is damaged (20 events, no frames, no
# strings: the chunk right after the header): nothing usable is exit 2
head -20 "$FX" >"$T/small.txt"
"$FT" import -q -o "$T/dead.ftr" "$T/small.txt" || fail "import of 20 lines"
printf '\377' | dd of="$T/dead.ftr" bs=1 seek=100 conv=notrunc 2>/dev/null
expect 2 "$T/dead.ftr: nothing usable" report "$T/dead.ftr"
# events are written in chunks of at most 1024: one flipped byte costs
# 1024 events, and the report says so
n=$("$FT" info "$T/p.ftr" | awk '/^events:/ { print $2 }')
"$FT" report --json "$T/flip.ftr" 2>/dev/null >"$T/flip.json"
[ "$($JG "$T/flip.json" corrupted_events)" = 1024 ] ||
	fail "flipped byte: $($JG "$T/flip.json" corrupted_events) events lost, expected 1024"
[ "$($JG "$T/flip.json" events)" -ge $((n - 1024)) ] || fail "flipped byte lost more than one chunk"
"$FT" report "$T/flip.ftr" 2>/dev/null | grep -q "1024 lost to damage in the file" ||
	fail "the report does not say how many events were lost"
# two damaged chunks: the warning names the first and counts them all
# (it said "1024 records skipped" of a file that had lost 113 664)
cp "$T/flip.ftr" "$T/flip2.ftr"
printf '\377\377\377\377' | dd of="$T/flip2.ftr" bs=1 seek=$((20000 + 3 * 32792)) conv=notrunc 2>/dev/null
expect 0 "2 problems in all: 2048 events lost to damage" report "$T/flip2.ftr"
"$FT" report --json "$T/flip2.ftr" >"$T/flip2.json" 2>/dev/null
[ "$("$JG" "$T/flip2.json" corrupted_events)" = 2048 ] ||
	fail "two flipped chunks: corrupted_events is not 2048"
printf 'GSFTRACE\011\000\000\000' >"$T/v9.ftr"
head -c 60 /dev/zero >>"$T/v9.ftr"
expect 2 "unsupported trace file version 9" info "$T/v9.ftr"

# output that cannot be written: an I/O error (exit 1), as for import
expect 1 "$T/nodir/x.txt: No such file or directory" export --perfetto "$T/nodir/x.txt" "$T/p.ftr"
expect 1 "$T/nodir/x.ftr" import -o "$T/nodir/x.ftr" "$FX"
expect 1 "$T/nodir/r.html" report -q --html "$T/nodir/r.html" "$T/p.ftr"
# priority 0 (an RT task at 99) stays 0 in the export
"$FT" export --perfetto "$T/prio.txt" "$T/p.ftr" || fail "export"
grep -q "prev_comm=migration/0 prev_pid=18 prev_prio=0 " "$T/prio.txt" ||
	fail "export: priority 0 of migration/0 not kept"
grep -q "comm=migration/0 pid=18 prio=0 " "$T/prio.txt" || fail "export: waking prio 0 not kept"
# JSON: every documented key, null where there is nothing (no frames)
"$FT" report --json "$T/p.ftr" >"$T/nf.json" 2>/dev/null || fail "report --json"
for k in input source start_ns end_ns ncpus events lost_events corrupted_events \
	corrupted_bytes host_steal reconstructed_switches repaired_switches_other \
	timeline_contradictions irq_context irq_context_stuck_cpus partial warning \
	runtime_source tasks latency_critical wake_graph wake_chains frames \
	median_frame slow_frames; do
	grep -q "^  \"$k\": " "$T/nf.json" || fail "report --json lacks '$k'"
done
grep -q '^  "frames": null' "$T/nf.json" || fail "frames not null without frames"
# MangoHud rows of 0 ms or over a minute: skipped, counted, first named
printf 'fps,frametime,cpu_load,elapsed\n60,16.6,1,16600000\n0,0,1,16600000\n60,16.7,1,33300000\n0,0,1,33300000\n' >"$T/z.csv"
expect 0 "$T/z.csv:3: frame time 0 ms: a row that is no frame (2 lines skipped)" import -o "$T/z.ftr" "$T/z.csv"
printf 'fps,frametime,cpu_load,elapsed\n0,0,1,0\n0,99999999,1,0\n' >"$T/z2.csv"
expect 2 "$T/z2.csv: no usable frame (2 rows skipped; first: $T/z2.csv:2: frame time 0 ms" import -o "$T/z2.ftr" "$T/z2.csv"
# a frame time under 0.01 ms (1e-300) is no frame: a MangoHud row, a
# trace_marker frame-time counter
printf 'fps,frametime,cpu_load,elapsed\n60,16.6,1,16600000\n60,1e-300,1,16600000\n60,16.7,1,33300000\n' >"$T/tiny.csv"
expect 0 "$T/tiny.csv:3: frame time 1e-300 ms: under 0.01 ms (100 000 FPS), not a frame" import -o "$T/tiny.ftr" "$T/tiny.csv"
{
	echo "# tracer: nop"
	for v in 16.6 16.6 1e-300 16.6; do
		i=$((${i:-0} + 16600))
		printf '            game-100     (    100) [000] d..2 100.%06d: tracing_mark_write: C|100|frametime|%s\n' "$i" "$v"
	done
} >"$T/tiny.txt"
"$FT" import -q -o "$T/tinym.ftr" "$T/tiny.txt" 2>/dev/null || fail "import of frame-time counters"
"$FT" info "$T/tinym.ftr" | grep -qx "frames: 3" || fail "a 1e-300 ms counter counted as a frame: $("$FT" info "$T/tinym.ftr" | grep '^frames')"
# a file cut mid-line: its last line (no newline) is left out, named
printf 'fps,frametime,cpu_load,elapsed\n60,16.6,1,16600000\n60,16.7,1,33300000\n60,16.7,1,49900000\n60,16.6,1,66' >"$T/cut.csv"
expect 0 "$T/cut.csv:5: the last line has no newline (the file was cut mid-line?)" import -o "$T/cut.ftr" "$T/cut.csv"
head -c 5000 "$FX" >"$T/cut.txt"
expect 0 "$T/cut.txt:35: the last line has no newline (the file was cut mid-line?): left out" import -o "$T/cut.ftr" "$T/cut.txt"
# perf text with every line twice: the repeats are duplicate records, left
# out, so CPU times are not doubled
awk '{ print; print }' "$FX" >"$T/twice.txt"
expect 0 "$T/twice.txt:2: a duplicate record: line 1 again" import -o "$T/twice.ftr" "$T/twice.txt"
"$FT" import -q -o "$T/once.ftr" "$FX" 2>/dev/null
"$FT" report "$T/once.ftr" | grep "^  qemu-system-x86:16136 " >"$T/once.cpu"
"$FT" report "$T/twice.ftr" | grep "^  qemu-system-x86:16136 " >"$T/twice.cpu"
cmp -s "$T/once.cpu" "$T/twice.cpu" || fail "every line twice: $(cat "$T/twice.cpu") vs $(cat "$T/once.cpu")"
# a 20-digit pid or tid in ftrace text is refused, not wrapped into another
"$FT" export --perfetto "$T/ft.txt" "$T/once.ftr" || fail "export for the pid checks"
sed -E '0,/perf-16081 /s//perf-12345678901234567890 /' "$T/ft.txt" >"$T/tid20.txt"
expect 0 "$T/tid20.txt:8: not a ftrace text event line: 'perf-12345678901234567890" import -o "$T/tid20.ftr" "$T/tid20.txt"
sed -E '0,/\(  16081\)/s//(12345678901234567890)/' "$T/ft.txt" >"$T/pid20.txt"
expect 0 "$T/pid20.txt:8: not a ftrace text event line" import -o "$T/pid20.ftr" "$T/pid20.txt"
# the input as the output: refused (exit 2), the input left as it was -
# the same name, another name of the same file (a link), as every output
cp "$FX" "$T/in.txt"
"$FT" import -o "$T/in.ftr" "$T/in.txt" 2>/dev/null || fail "import for the same-file checks"
ln -s in.ftr "$T/link.ftr"
sum() { cksum <"$1"; }
a=$(sum "$T/in.txt") b=$(sum "$T/in.ftr")
expect 2 "option -o: $T/in.txt is the input $T/in.txt: writing it would overwrite the input" import -o "$T/in.txt" "$T/in.txt"
expect 2 "option -o: $T/link.ftr is the input $T/in.ftr" import -o "$T/link.ftr" "$T/in.ftr"
expect 2 "option -o: $T/in.ftr is the input $T/in.ftr" profile -o "$T/in.ftr" "$T/in.ftr"
expect 2 "option --perfetto: $T/in.txt is the input $T/in.txt" export --perfetto "$T/in.txt" "$T/in.txt"
expect 2 "option -o: $T/in.ftr is the input $T/in.ftr" report -o "$T/in.ftr" "$T/in.ftr"
expect 2 "option --html: $T/link.ftr is the input $T/in.ftr" report --html "$T/link.ftr" "$T/in.ftr"
expect 2 "option --dot: $T/in.ftr is the input $T/in.ftr" report --dot "$T/in.ftr" "$T/in.ftr"
expect 2 "option -o: $T/in.ftr is the input $T/in.ftr" compare -o "$T/in.ftr" "$T/in.txt" "$T/in.ftr"
[ "$(sum "$T/in.txt")" = "$a" ] && [ "$(sum "$T/in.ftr")" = "$b" ] || fail "an input was overwritten"
# a missing input named as the output: refused by name
expect 2 "option -o: $T/none.ftr is the input $T/none.ftr" import -o "$T/none.ftr" "$T/none.ftr"

# an output that fails says why (exit 1)
if [ -w /dev/full ]; then
	expect 1 "/dev/full: write failed: No space left on device" report -o /dev/full "$T/in.ftr"
	expect 1 "/dev/full: write failed: No space left on device" export --perfetto /dev/full "$T/in.ftr"
fi

# input quoted in messages never carries raw binary bytes
{ head -20 "$FX"; printf 'gar\002bage \377 line\n'; tail -5 "$FX"; } >"$T/bin.txt"
expect 0 "not a perf script text event line: 'gar\\x02bage \\xff line'" import -o "$T/bin.ftr" "$T/bin.txt"
if LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177-\377]')" "$T/err"; then
	fail "raw binary bytes in a message: $(cat -v "$T/err")"
fi

# an empty output path is named as such, with its option
expect 2 "frametrace: -o: empty path" import -o "" "$T/in.txt"
expect 2 "frametrace: --perfetto: empty path" export --perfetto "" "$T/in.ftr"

# trigger signals only a live watch: a watch.pid that no watch holds
# (its watch was killed with SIGKILL) names a pid that may be anyone's
# now; it is refused (exit 1) and that process is left alone, as is a
# pid given directly that is no watch
mkdir "$T/stale"
sleep 30 &
BG_PID=$!
echo "$BG_PID" >"$T/stale/watch.pid"
expect 1 "no watch is running in $T/stale: the file is stale" trigger "$T/stale"
expect 1 "pid $BG_PID is not a 'frametrace watch'" trigger "$BG_PID"
expect 1 "no watch is running in $T (no watch.pid)" trigger "$T"
kill -0 "$BG_PID" 2>/dev/null || fail "trigger signalled a process that is no watch"
kill "$BG_PID"
wait "$BG_PID" 2>/dev/null
BG_PID=

finish "frametrace CLI"
