# SPDX-License-Identifier: GPL-2.0-only
# frametrace: BPF scheduling recorder, flight recorder, importers, report,
# slow-frame explanation, Perfetto export.
#
# The program is build/frametrace, so its objects live in build/ft/ (the
# generic rule would put them in a directory of that same name).
#
# One room per part, the commands at the top (main.c dispatches to one
# cmd_<name>.c per subcommand): trace/ the trace in memory and in its file
# (the record format the BPF side shares, frames from markers and present
# calls, steal), record/ the BPF recorder and the flight recorder, import/
# the importers of other tools' text, analysis/ the timeline and the
# slow-frame explanation, export/ the reports and the Perfetto export,
# profile/ a recorded game's pipeline derived as a workload profile. A room
# includes another's header by its room ("trace/trace.h", -Iframetrace),
# never by climbing up ("../").
FT_TRACE_SRCS := $(addprefix frametrace/trace/,ftutil.c trace.c tracefile_write.c \
	tracefile_read.c finish.c marker.c present.c steal.c)
FT_IMPORT_SRCS := $(addprefix frametrace/import/,import.c importer.c import_text.c \
	import_perf.c import_ftrace.c import_events.c import_procs.c import_launch.c \
	import_mangohud.c)
FT_ANALYSIS_SRCS := $(addprefix frametrace/analysis/,model.c model_events.c \
	model_query.c explain.c)
FT_EXPORT_SRCS := $(addprefix frametrace/export/,report.c report_text.c report_json.c \
	report_dot.c html.c export.c)
# the core: what the unit tests and the fuzzers link (the process names and
# framebench's feed are the recorder's, but need no BPF)
FT_CORE_SRCS := $(FT_TRACE_SRCS) $(FT_IMPORT_SRCS) $(FT_ANALYSIS_SRCS) \
	$(FT_EXPORT_SRCS) frametrace/record/feed.c frametrace/record/procnames.c
FT_BPF_SRCS := $(addprefix frametrace/record/,ftbpf.c child.c recopts.c watch_ring.c \
	watch_trigger.c mangotail.c capture.c present_attach.c) \
	frametrace/cmd_record.c frametrace/cmd_watch.c
FT_MAIN_SRCS := frametrace/main.c frametrace/cmd_import.c frametrace/cmd_report.c \
	frametrace/cmd_export.c frametrace/cmd_info.c frametrace/cmd_trigger.c
# profile and compare (a replay of a recorded game), outside the core the
# fuzzers build: profile checks what it writes with the workload profile
# parser (lib/fbprofile.c).
FT_PROF_SRCS := $(addprefix frametrace/profile/,profile_fit.c profile_sig.c \
	profile_roles.c profile_side.c profile_acts.c profile_overlap.c profile_steps.c \
	profile_write.c) \
	frametrace/cmd_profile.c frametrace/cmd_compare.c

FT_OBJ = $(patsubst frametrace/%.c,$(BUILD)/ft/%.o,$(1))
FT_CORE_OBJS := $(call FT_OBJ,$(FT_CORE_SRCS))
FT_PROF_OBJS := $(call FT_OBJ,$(FT_PROF_SRCS))
FT_ALL_OBJS := $(FT_CORE_OBJS) $(call FT_OBJ,$(FT_BPF_SRCS) $(FT_MAIN_SRCS)) \
	$(FT_PROF_OBJS)

$(BUILD)/ft/%.o: frametrace/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iframetrace -MMD -MP -c $< -o $@

$(BUILD)/bpf/frametrace.bpf.o: frametrace/record/frametrace.bpf.c \
	frametrace/trace/frametrace.h frametrace/record/futex.bpf.h
$(BUILD)/bpf/frametrace.bpf.o: BPF_CFLAGS += -Iframetrace

# ftbpf.c includes the generated skeleton
$(BUILD)/ft/record/ftbpf.o: $(BUILD)/bpf/frametrace.skel.h

PROGRAMS += $(BUILD)/frametrace
$(BUILD)/frametrace: $(FT_ALL_OBJS) $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(BPF_LDLIBS) $(LDLIBS)

# The core as a library for the unit tests and the fuzzers.
FT_LIB := $(BUILD)/ft/libft.a
FT_LIB_OBJS := $(FT_CORE_OBJS)
# (rebuilt from scratch: a member left from a removed source would linger)
$(FT_LIB): $(FT_LIB_OBJS)
	@rm -f $@
	$(ARCHIVE)

# cmocka unit tests (their own rule: they link the frametrace core), by
# subject: reading traces, analysing them, and what is written for others.
FT_TEST_HELPERS := $(BUILD)/tests/test_frametrace_helpers.o
FT_UNIT_TESTS := test_frametrace_input test_frametrace_import test_frametrace_analysis \
	test_frametrace_output test_frametrace_procs
TESTS += $(FT_UNIT_TESTS:%=$(BUILD)/tests/%)
$(FT_UNIT_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: $(BUILD)/tests/%.o \
		$(FT_TEST_HELPERS) $(FT_LIB) $(LIBGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)
$(FT_UNIT_TESTS:%=$(BUILD)/tests/%.o) $(FT_TEST_HELPERS): CFLAGS += -Iframetrace

# The derivation of frametrace profile: its arithmetic, and the whole of
# it on hand-made timelines.
FT_PROF_TESTS := test_frametrace_fit test_frametrace_profile test_frametrace_overlap
TESTS += $(FT_PROF_TESTS:%=$(BUILD)/tests/%)
$(FT_PROF_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: $(BUILD)/tests/%.o \
		$(BUILD)/tests/test_frametrace_pr.o \
		$(FT_TEST_HELPERS) $(FT_PROF_OBJS) $(FT_LIB) $(LIBGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)
$(FT_PROF_TESTS:%=$(BUILD)/tests/%.o) $(BUILD)/tests/test_frametrace_pr.o: CFLAGS += -Iframetrace

# The fuzz corpus replayed through the harnesses, as a normal test.
TESTS += $(BUILD)/tests/test_frametrace_corpus
$(BUILD)/tests/test_frametrace_corpus: $(BUILD)/tests/test_frametrace_corpus.o $(FT_LIB) $(LIBGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)
$(BUILD)/tests/test_frametrace_corpus.o: CFLAGS += -Iframetrace -Itests

# libFuzzer (clang-19): make fuzz-frametrace [FUZZ_SECONDS=60]. Runs each
# harness on a scratch copy of the committed corpus; new inputs it finds
# are in build/fuzz/corpus-*/ (merge the useful ones into tests/fuzz/corpus).
FUZZ_CC ?= clang-19
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=fuzzer,address,undefined \
	-Ilib -Iframetrace -I$(BUILD)
# (lib/bpfcost.c wants libbpf, which the fuzzers neither need nor link)
FUZZ_SRCS := $(FT_CORE_SRCS) $(filter-out lib/bpfcost.c,$(LIB_SRCS))
FUZZERS := $(BUILD)/fuzz/fuzz_trace $(BUILD)/fuzz/fuzz_text

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h $(FUZZ_SRCS) frametrace/*/*.h lib/*.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_SRCS) -o $@ -lm -lpthread

.PHONY: fuzz-frametrace
fuzz-frametrace: $(FUZZERS)
	@for f in trace text; do \
		rm -rf $(BUILD)/fuzz/corpus-$$f; mkdir -p $(BUILD)/fuzz/corpus-$$f; \
		cp tests/fuzz/corpus/$$f/* $(BUILD)/fuzz/corpus-$$f/; \
		echo "== fuzz_$$f for $(FUZZ_SECONDS)s"; \
		$(BUILD)/fuzz/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
			-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus-$$f || exit 1; \
	done

# Cross-check with perf sched latency on the committed fixture (and, with
# two arguments, on a fresh recording: tests/frametrace_crosscheck.sh).
TESTS += $(BUILD)/tests/test_frametrace_crosscheck
$(BUILD)/tests/test_frametrace_crosscheck: $(BUILD)/tests/test_frametrace_crosscheck.o \
		$(BUILD)/tests/perf_sched.o $(FT_LIB) $(LIBGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ -lcmocka $(LDLIBS)
$(BUILD)/tests/test_frametrace_crosscheck.o $(BUILD)/tests/perf_sched.o: CFLAGS += -Iframetrace

INTEGRATION_TESTS += tests/frametrace_cli.sh tests/frametrace_crosscheck.sh \
	tests/frametrace_record.sh tests/frametrace_watch.sh tests/frametrace_present.sh \
	tests/frametrace_profile.sh tests/frametrace_launch.sh tests/frametrace_llvmpipe.sh \
	tests/frametrace_repair.sh
