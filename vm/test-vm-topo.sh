#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make test`'s topology VM test (compute domains, energy): see vm/test-vm.sh topo.
exec "$(dirname "$0")/test-vm.sh" topo
