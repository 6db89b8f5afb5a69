# SPDX-License-Identifier: GPL-2.0-only
# Installing like a Linux tool (docs/install.md): the man pages, lavd's
# systemd unit and the bash completions are generated from their sources
# with the install paths filled in; `make install` and `make uninstall`
# with the usual variables.
#
#   make install [PREFIX=/usr/local] [DESTDIR=] [BINDIR=] [SBINDIR=]
#                [DATADIR=] [MANDIR=] [SYSCONFDIR=$(PREFIX)/etc]
#                [SYSTEMDUNITDIR=] [BASHCOMPDIR=]
#   make uninstall (the same variables; also removes the directories
#                  install created, once empty)
#   make version   the project version (lib/version.h)
#
# Install never enables or starts lavd.service.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# $(PREFIX)/etc, and /etc for PREFIX=/usr, as autotools and meson do: a
# user's PREFIX=$$HOME/.local installs without writing to /etc
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
# in systemd's unit search path for /usr/local and /usr (the Debian
# package passes /lib/systemd/system)
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
# the profiles, suites, lavd's game profiles and MangoHud.conf (compiled
# into lib/datadir.c)
PKGDATADIR ?= $(DATADIR)/gamesched

INSTALL ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 0755
INSTALL_DATA ?= $(INSTALL) -m 0644

VERSION := $(shell sed -n 's/^\#define GS_VERSION "\(.*\)"$$/\1/p' lib/version.h)

# frametrace in bin: most of its commands need no root (like perf)
GS_BIN := framebench gamesuite frametrace
GS_SBIN := lavd
GS_MAN1 := framebench.1 gamesuite.1 frametrace.1
GS_MAN8 := lavd.8
# where releases up to 0.1.0 put frametrace: install and uninstall remove them
GS_OLD := $(SBINDIR)/frametrace $(MANDIR)/man8/frametrace.8
GS_COMPLETIONS := framebench gamesuite frametrace lavd
GS_PROFILES := $(notdir $(wildcard framebench/profiles/*.profile))
GS_SUITES := $(notdir $(wildcard gamesuite/suites/*.suite))
# lavd's shipped game profiles (the candidates are not installed)
GS_LAVD_PROFILES := $(notdir $(wildcard lavd/profiles/*.conf))

# The paths the generated files and the compiled-in data directory use,
# rewritten only when one changes (so that `make install PREFIX=/usr`
# after `make` rebuilds what depends on them, and nothing otherwise).
GS_PATHS := $(BUILD)/dist/paths
.PHONY: FORCE
FORCE:
$(GS_PATHS): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' 'VERSION=$(VERSION)' 'BINDIR=$(BINDIR)' 'SBINDIR=$(SBINDIR)' \
		'PKGDATADIR=$(PKGDATADIR)' 'SYSCONFDIR=$(SYSCONFDIR)' \
		'SYSTEMDUNITDIR=$(SYSTEMDUNITDIR)' 'MANDIR=$(MANDIR)' \
		'BASHCOMPDIR=$(BASHCOMPDIR)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/lib/datadir.o: $(GS_PATHS)
$(BUILD)/lib/datadir.o: CFLAGS += -DGS_DATADIR='"$(PKGDATADIR)"'

GS_SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@BINDIR@|$(BINDIR)|g' \
	-e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@PKGDATADIR@|$(PKGDATADIR)|g' \
	-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@SYSTEMDUNITDIR@|$(SYSTEMDUNITDIR)|g' \
	-e 's|@MANDIR@|$(MANDIR)|g' -e 's|@BASHCOMPDIR@|$(BASHCOMPDIR)|g'

GS_MANPAGES := $(addprefix $(BUILD)/man/,$(GS_MAN1) $(GS_MAN8))
GS_UNIT := $(BUILD)/dist/lavd.service
GS_COMPFILES := $(GS_COMPLETIONS:%=$(BUILD)/completion/%)
GS_EXTRAS := $(GS_MANPAGES) $(GS_UNIT) $(GS_COMPFILES)

# The option tables of each program (lib/opttab.h): a program's own, or
# those of its commands. `PROG [CMD] --dump-options=bash|man` prints them
# for the completion and the man page, so neither can miss an option.
GS_TABLES_gamesuite := run tune
GS_TABLES_frametrace := record watch import report export profile compare
# GS_DUMP KIND PROG: every table of PROG, dumped ("." a program's own)
GS_DUMP = for c in $(or $(GS_TABLES_$(2)),.); do \
	$(BUILD)/$(2) $${c\#.} --dump-options=$(1) || exit 1; done
$(foreach p,$(GS_MAN1) $(GS_MAN8),\
	$(eval $(BUILD)/man/$(p).tables: $(BUILD)/$(basename $(p))))
$(BUILD)/man/%.tables:
	@mkdir -p $(@D)
	@$(call GS_DUMP,man,$(basename $*)) > $@.tmp && mv $@.tmp $@

# each page's OPTIONS entries: the table's heading above the page's own text
$(BUILD)/man/%: man/%.in $(BUILD)/man/%.tables man/options.awk $(GS_PATHS) lib/version.h
	@mkdir -p $(@D)
	@echo "generate $@ from $< and the option tables"
	@awk -f man/options.awk $(BUILD)/man/$*.tables $< $< > $@.opts && \
		$(GS_SUBST) $@.opts > $@.tmp && rm -f $@.opts && mv $@.tmp $@
$(GS_UNIT): dist/lavd.service.in $(GS_PATHS)
	@mkdir -p $(@D)
	@echo "generate $@ from $<"
	@$(GS_SUBST) $< > $@.tmp && mv $@.tmp $@
# each completion with its program's option tables (in place of the
# OPTION TABLES line) and the helpers the four share (completion/common.bash)
$(BUILD)/completion/%: completion/%.bash completion/common.bash $(BUILD)/% $(GS_PATHS)
	@mkdir -p $(@D)
	@echo "generate $@ from $<, the option tables and completion/common.bash"
	@$(call GS_DUMP,bash,$*) > $@.tables
	@{ sed '/^# @OPTION TABLES@$$/,$$d' $<; cat $@.tables; \
		sed '1,/^# @OPTION TABLES@$$/d' $<; echo; \
		sed '1,/^$$/d' completion/common.bash; } | $(GS_SUBST) > $@.tmp && \
		rm -f $@.tables && mv $@.tmp $@

.PHONY: extras version install uninstall
all: extras
extras: $(GS_EXTRAS)
# the man page and version tests read the generated files
TEST_TOOLS += $(GS_EXTRAS)

version:
	@echo $(VERSION)

# the directories install makes; those that did not exist before are
# recorded in $(GS_DIRLOG) (without DESTDIR, which is a staging tree), so
# that uninstall removes them once empty and no directory it did not make
GS_DIRS := $(BINDIR) $(SBINDIR) $(PKGDATADIR)/profiles $(PKGDATADIR)/suites \
	$(PKGDATADIR)/lavd-profiles $(MANDIR)/man1 $(MANDIR)/man8 \
	$(SYSTEMDUNITDIR) $(SYSCONFDIR)/default $(BASHCOMPDIR)
GS_DIRLOG := $(PKGDATADIR)/installed-dirs

install: $(GS_BIN:%=$(BUILD)/%) $(GS_SBIN:%=$(BUILD)/%) $(GS_EXTRAS)
	@for d in $(GS_DIRS); do \
		while [ -n "$$d" ] && [ ! -d "$(DESTDIR)$$d" ]; do echo "$$d"; d=$${d%/*}; done; \
	done > "$(BUILD)/dist/new-dirs"
	$(INSTALL) -d $(GS_DIRS:%="$(DESTDIR)%")
	@if [ -z "$(DESTDIR)" ] && { [ -s "$(BUILD)/dist/new-dirs" ] || [ -e "$(GS_DIRLOG)" ]; }; then \
		{ cat "$(BUILD)/dist/new-dirs"; cat "$(GS_DIRLOG)" 2>/dev/null; } | LC_ALL=C sort -u > "$(BUILD)/dist/dirlog" && \
		echo "$(INSTALL_DATA) $(BUILD)/dist/dirlog $(GS_DIRLOG)" && \
		$(INSTALL_DATA) "$(BUILD)/dist/dirlog" "$(GS_DIRLOG)"; \
	fi
	$(INSTALL_PROGRAM) $(GS_BIN:%=$(BUILD)/%) "$(DESTDIR)$(BINDIR)"
	$(INSTALL_PROGRAM) $(GS_SBIN:%=$(BUILD)/%) "$(DESTDIR)$(SBINDIR)"
	$(INSTALL_DATA) $(GS_PROFILES:%=framebench/profiles/%) "$(DESTDIR)$(PKGDATADIR)/profiles"
	$(INSTALL_DATA) $(GS_SUITES:%=gamesuite/suites/%) "$(DESTDIR)$(PKGDATADIR)/suites"
	$(INSTALL_DATA) $(GS_LAVD_PROFILES:%=lavd/profiles/%) "$(DESTDIR)$(PKGDATADIR)/lavd-profiles"
	$(INSTALL_DATA) gamesuite/MangoHud.conf "$(DESTDIR)$(PKGDATADIR)"
	$(INSTALL_DATA) $(GS_MAN1:%=$(BUILD)/man/%) "$(DESTDIR)$(MANDIR)/man1"
	$(INSTALL_DATA) $(GS_MAN8:%=$(BUILD)/man/%) "$(DESTDIR)$(MANDIR)/man8"
	$(INSTALL_DATA) $(GS_COMPFILES) "$(DESTDIR)$(BASHCOMPDIR)"
	$(INSTALL_DATA) $(GS_UNIT) "$(DESTDIR)$(SYSTEMDUNITDIR)"
	@for f in $(GS_OLD:%="$(DESTDIR)%"); do \
		if [ -e "$$f" ]; then echo "rm -f $$f (an earlier install's; frametrace is in $(BINDIR) now)"; rm -f "$$f"; fi; \
	done
	@# an administrator's settings are never overwritten
	@if [ -e "$(DESTDIR)$(SYSCONFDIR)/default/lavd" ]; then \
		echo "kept $(DESTDIR)$(SYSCONFDIR)/default/lavd (exists)"; \
	else \
		echo "$(INSTALL_DATA) dist/lavd.default $(DESTDIR)$(SYSCONFDIR)/default/lavd"; \
		$(INSTALL_DATA) dist/lavd.default "$(DESTDIR)$(SYSCONFDIR)/default/lavd"; \
	fi
	@echo "installed; lavd.service is neither enabled nor started (docs/install.md)"

# Removes the files install put; the data directories only when empty,
# $(SYSCONFDIR)/default/lavd only when it is still the shipped one, and
# the directories install created (its record) once they are empty.
uninstall:
	for f in $(GS_BIN); do rm -f "$(DESTDIR)$(BINDIR)/$$f"; done
	for f in $(GS_SBIN); do rm -f "$(DESTDIR)$(SBINDIR)/$$f"; done
	for f in $(GS_PROFILES); do rm -f "$(DESTDIR)$(PKGDATADIR)/profiles/$$f"; done
	for f in $(GS_SUITES); do rm -f "$(DESTDIR)$(PKGDATADIR)/suites/$$f"; done
	for f in $(GS_LAVD_PROFILES); do rm -f "$(DESTDIR)$(PKGDATADIR)/lavd-profiles/$$f"; done
	rm -f "$(DESTDIR)$(PKGDATADIR)/MangoHud.conf"
	for f in $(GS_MAN1); do rm -f "$(DESTDIR)$(MANDIR)/man1/$$f"; done
	for f in $(GS_MAN8); do rm -f "$(DESTDIR)$(MANDIR)/man8/$$f"; done
	for f in $(GS_COMPLETIONS); do rm -f "$(DESTDIR)$(BASHCOMPDIR)/$$f"; done
	rm -f "$(DESTDIR)$(SYSTEMDUNITDIR)/lavd.service" $(GS_OLD:%="$(DESTDIR)%")
	@f="$(DESTDIR)$(SYSCONFDIR)/default/lavd"; \
	if cmp -s dist/lavd.default "$$f"; then echo "rm -f $$f"; rm -f "$$f"; \
	elif [ -e "$$f" ]; then echo "kept $$f (changed from the shipped one)"; fi
	@log="$(DESTDIR)$(GS_DIRLOG)"; made=; \
	if [ -z "$(DESTDIR)" ] && [ -f "$$log" ]; then made=$$(cat "$$log"); rm -f "$$log"; fi; \
	for d in $$(printf '%s\n' $$made "$(PKGDATADIR)/profiles" "$(PKGDATADIR)/suites" \
			"$(PKGDATADIR)/lavd-profiles" "$(PKGDATADIR)" | LC_ALL=C sort -ru); do \
		if rmdir "$(DESTDIR)$$d" 2>/dev/null; then echo "rmdir $(DESTDIR)$$d"; \
		elif [ -d "$(DESTDIR)$$d" ]; then echo "kept $(DESTDIR)$$d (not empty)"; fi; \
	done

# Tests of all this (tests/run.sh, integration): the man pages against
# --help, one version everywhere, install/uninstall into a DESTDIR with the
# unit checked, the completions, the Debian package (built in a temporary
# copy).
INTEGRATION_TESTS += tests/man.sh tests/version.sh tests/install.sh \
	tests/completion.sh tests/package.sh tests/vmlinux_h.sh
