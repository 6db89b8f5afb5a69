# SPDX-License-Identifier: GPL-2.0-only
# Unit tests of the shared library.
$(eval $(call gs_test,test_stats,tests/test_stats.c))
$(eval $(call gs_test,test_formats,tests/test_formats.c))

# Helpers for shell tests: build/tests/jsonget FILE PATH... prints JSON values.
TEST_TOOLS += $(BUILD)/tests/jsonget
$(BUILD)/tests/jsonget: $(BUILD)/tests/tools/jsonget.o $(LIBGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)
