# SPDX-License-Identifier: GPL-2.0-only
# The shared library (statistics, file formats, JSON, helpers) is built by
# the top-level Makefile as $(LIBGS) from its LIB_SRCS; its tests live in
# tests/.
