# SPDX-License-Identifier: GPL-2.0-only
# Unit tests of the shared library.
$(eval $(call gs_test,test_stats,tests/test_stats.c))
$(eval $(call gs_test,test_formats,tests/test_formats.c))
