# SPDX-License-Identifier: GPL-2.0-only
# The shared library (statistics, file formats, JSON, helpers) is built by
# the top-level Makefile as $(LIBGS); its tests live in tests/.
# Sources beyond those the top-level LIB_SRCS names:
LIB_SRCS += lib/spawn.c
$(LIBGS): $(BUILD)/lib/spawn.o
