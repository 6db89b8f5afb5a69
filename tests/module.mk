# SPDX-License-Identifier: GPL-2.0-only
# Unit tests of the shared library.
$(eval $(call gs_test,test_stats,tests/test_stats.c))
$(eval $(call gs_test,test_formats,tests/test_formats.c))
$(eval $(call gs_test,test_opttab,tests/test_opttab.c))
$(eval $(call gs_test,test_input_rules,tests/test_input_rules.c))

# Tools of the shell tests, build/tests/NAME from tests/tools/NAME.c:
#   jsonget FILE PATH...  prints the values at dotted paths of a JSON file
#   mhcheck FILE          checks a MangoHud CSV log with the shared reader
INTEGRATION_TESTS += tests/input_mistakes.sh
# the lint's own test: a fixture per rule that must fail
INTEGRATION_TESTS += tests/lint_selftest.sh

SHELL_TEST_TOOLS := $(BUILD)/tests/jsonget $(BUILD)/tests/mhcheck
TEST_TOOLS += $(SHELL_TEST_TOOLS)
$(SHELL_TEST_TOOLS): $(BUILD)/tests/%: $(BUILD)/tests/tools/%.o $(LIBGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)
