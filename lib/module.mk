# SPDX-License-Identifier: GPL-2.0-only
# The shared library (statistics, file formats, JSON, helpers) is built by
# the top-level Makefile as $(LIBGS); its tests live in tests/.
