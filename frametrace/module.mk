# SPDX-License-Identifier: GPL-2.0-only
# frametrace: BPF scheduling recorder, flight recorder, importers, report,
# slow-frame explanation, Perfetto export.
#
# The program is build/frametrace, so its objects live in build/ft/ (the
# generic rule would put them in a directory of that same name).

FT_CORE_SRCS := frametrace/ftutil.c frametrace/trace.c frametrace/marker.c \
	frametrace/model.c frametrace/feed.c frametrace/procnames.c \
	frametrace/import.c frametrace/explain.c frametrace/report.c frametrace/html.c \
	frametrace/export.c
FT_BPF_SRCS := frametrace/ftbpf.c frametrace/record.c
FT_MAIN_SRCS := frametrace/main.c frametrace/stubs.c frametrace/cmd_import.c frametrace/cmd_report.c

FT_OBJ = $(patsubst frametrace/%.c,$(BUILD)/ft/%.o,$(1))
FT_CORE_OBJS := $(call FT_OBJ,$(FT_CORE_SRCS))
FT_ALL_OBJS := $(FT_CORE_OBJS) $(call FT_OBJ,$(FT_BPF_SRCS) $(FT_MAIN_SRCS))

$(BUILD)/ft/%.o: frametrace/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/bpf/frametrace.bpf.o: frametrace/frametrace.bpf.c frametrace/frametrace.h

# ftbpf.c includes the generated skeleton
$(BUILD)/ft/ftbpf.o: $(BUILD)/bpf/frametrace.skel.h

PROGRAMS += $(BUILD)/frametrace
$(BUILD)/frametrace: $(FT_ALL_OBJS) $(LIBGS)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(BPF_LDLIBS) $(LDLIBS)
