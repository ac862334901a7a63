# SPDX-License-Identifier: BSD-2-Clause
# fabaudit: tenant-side InfiniBand, Ethernet and host isolation audit.
# Plain GNU make.  `make demo` and `make check` install what is missing
# (through `make deps`) and then build and run; see README.md.

VERSION	 = 0.1.0
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
DATADIR	?= $(PREFIX)/share/fabaudit
MANDIR	?= $(PREFIX)/share/man
DESTDIR	?=
INSTALL	?= install

CC	?= cc
PKG_CONFIG ?= pkg-config
# libibnetdisc.pc lists libibmad and libibumad only as Requires.private,
# so all three are named.
PKGS	 = libibumad libibmad libibnetdisc libnl-3.0 libnl-route-3.0 libpcap zlib \
	   openssl libxml-2.0 jansson libdpkg libcap rpm

WARN	 = -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes \
	   -Wwrite-strings -Wshadow -Wformat=2 -Wpointer-arith -Wundef
HARDEN	 = -D_FORTIFY_SOURCE=2 -fstack-protector-strong
OPT	?= -O2 -g
CFLAGS	?=
LDFLAGS	?=
SAN	?=
ifeq ($(SAN),1)
OPT	 = -O1 -g -fno-omit-frame-pointer
HARDEN	 =
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all
endif
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
# What checks/ and reports/ may use: no InfiniBand, netlink or pcap library.
PURE_LIBS  := $(shell $(PKG_CONFIG) --libs jansson openssl libxml-2.0 libdpkg \
		 libcap rpm 2>/dev/null)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -DFA_VERSION='"$(VERSION)"' \
	     -DFA_DATADIR='"$(DATADIR)"' $(WARN) $(OPT) $(HARDEN) $(SANFLAGS) \
	     $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack $(LDFLAGS)

B	?= build
Q	 = $(if $(V),,@)

CORE_SRCS	= $(wildcard core/*.c)
FABRIC_SRCS	= $(wildcard fabric/*.c)
CHECKS_SRCS	= $(wildcard checks/*.c)
REPORTS_SRCS	= $(wildcard reports/*.c)
SCANNER_SRCS	= $(wildcard scanner/*.c)
UNIT_SRCS	= $(wildcard tests/unit/test_*.c)
FUNIT_SRCS	= $(wildcard tests/unit/ftest_*.c)
AGENT_SRCS	= $(wildcard tests/agent/*.c)

objs = $(patsubst %.c,$(B)/%.o,$(1))

LIBCORE		= $(B)/libcore.a
LIBFABRIC	= $(B)/libfabric.a
LIBCHECKS	= $(B)/libchecks.a
LIBREPORTS	= $(B)/libreports.a
BIN		= $(B)/fabaudit
UNIT_BINS	= $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS)) \
		  $(patsubst tests/unit/%.c,$(B)/tests/%,$(FUNIT_SRCS))

.SECONDARY:
.PHONY: all deps demo check fixtures unit unit-asan fuzz-smoke scenarios \
	lint-man install uninstall clean deb deb-test
all: $(BIN)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBCORE): $(call objs,$(CORE_SRCS))
$(LIBFABRIC): $(call objs,$(FABRIC_SRCS))
$(LIBCHECKS): $(call objs,$(CHECKS_SRCS))
$(LIBREPORTS): $(call objs,$(REPORTS_SRCS))
$(B)/%.a:
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# Link order: a layer may only call the layers to its right.
$(BIN): $(call objs,$(SCANNER_SRCS)) $(LIBREPORTS) $(LIBCHECKS) $(LIBFABRIC) $(LIBCORE)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -pthread

# ---- fabaudit-checks(7), generated from the check registry ---------------
# The binary prints its own catalogue (`fabaudit checks --format man`), so
# the page is rebuilt with the binary and cannot drift from the code.  A
# SOURCE_DATE_EPOCH in the environment fixes the page's date.
MAN7	= $(B)/man/fabaudit-checks.7
all: $(MAN7)
install: $(MAN7)
$(MAN7): $(BIN)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  GEN     $@")
	$(Q)$(BIN) checks --format man >$@.tmp && mv -f $@.tmp $@ || \
		{ rm -f $@.tmp; exit 1; }
# ---- end of fabaudit-checks(7) -------------------------------------------

# ---- make bench: scale and speed of the IB audit (bench/README) ----------
# Not part of `make check`: per size it brings up ibsim and a real opensm
# once and measures fabaudit, ibnetdiscover, the simulator's SMP ceiling
# and the diags script in that one fabric session (several minutes).
# Prints a table of ratios against issue 7's targets and writes it to
# $(B)/bench/results.txt; exits non-zero only if a measurement failed.
BENCH_SIZES	?= 648 2016 10044
BENCH_BINS	 = $(B)/bench/mkfattree $(B)/bench/rusage \
		   $(B)/bench/smpceiling $(B)/bench/librmppsim.so \
		   $(B)/bench/librmpprecv.so $(B)/bench/mkethcap \
		   $(B)/bench/mkreports
ETHBENCH_FRAMES	?= 10000000
MERGEBENCH_NODES ?= 10000
.PHONY: bench bench-build bench-eth bench-merge
bench: $(BIN) $(BENCH_BINS)
	@sh bench/run.sh $(B) $(BENCH_SIZES)
	@sh bench/ethbench.sh $(B) $(ETHBENCH_FRAMES)
	@sh bench/mergebench.sh $(B) $(MERGEBENCH_NODES)
bench-eth: $(BIN) $(BENCH_BINS)
	@sh bench/ethbench.sh $(B) $(ETHBENCH_FRAMES)
bench-merge: $(BIN) $(BENCH_BINS)
	@sh bench/mergebench.sh $(B) $(MERGEBENCH_NODES)
bench-build: $(BENCH_BINS)
$(B)/bench/mkfattree: $(B)/bench/mkfattree.o $(LIBREPORTS) $(LIBCORE)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PURE_LIBS)
$(B)/bench/rusage: $(B)/bench/rusage.o
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^
$(B)/bench/mkreports: $(B)/bench/mkreports.o
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PURE_LIBS)
$(B)/bench/mkethcap: $(B)/bench/mkethcap.o
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^
$(B)/bench/smpceiling: $(B)/bench/smpceiling.o
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -pthread
# The simulated hosts' kernel RMPP (bench/rmpp/README): preloaded into
# opensm (sender) and the clients (receiver), so never sanitized.
SHIM_CFLAGS	 = -std=c11 -D_GNU_SOURCE $(WARN) -O2 -g -fPIC $(CFLAGS)
$(B)/bench/librmppsim.so: bench/rmpp/rmppsim.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(SHIM_CFLAGS) -shared -o $@ $^ -ldl -lpthread -libumad
$(B)/bench/librmpprecv.so: bench/rmpp/rmpprecv.c bench/rmpp/rmpp_rx.c \
		bench/rmpp/rmpp_rx.h
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(SHIM_CFLAGS) -shared -o $@ bench/rmpp/rmpprecv.c \
		bench/rmpp/rmpp_rx.c -ldl -lpthread -libumad
# ---- end of make bench ---------------------------------------------------

# ---- make fuzz: libFuzzer targets of the parsers (fuzz/README) ----------
# `make fuzz-build` builds build-fuzz/fuzz/fuzz_NAME for every
# fuzz/fuzz_NAME.c with clang in its own directory (a sub-make: the
# libraries instrumented with -fsanitize=fuzzer-no-link,address,undefined,
# each target linked with -fsanitize=fuzzer), so the normal build is
# untouched.  `make fuzz` runs each target FUZZ_TIME seconds (fuzz/run.sh);
# FUZZ_TARGETS="ib_smp ..." chooses some.
FUZZ_B		 = build-fuzz
FUZZ_TIME	?= 60
FUZZ_TARGETS	?=
FUZZ_SRCS	 = $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS	 = $(patsubst fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
.PHONY: fuzz fuzz-build fuzz-bins
fuzz: fuzz-build
	@sh fuzz/run.sh $(FUZZ_B) --time $(FUZZ_TIME) $(FUZZ_TARGETS)
fuzz-build:
	@$(SUBMAKE) B=$(FUZZ_B) CC=clang SAN=1 \
		CFLAGS=-fsanitize=fuzzer-no-link fuzz-bins
# Only meaningful in that sub-make (B=build-fuzz, CC=clang).
fuzz-bins: $(FUZZ_BINS) $(B)/fuzz/schema_seeds
# fuzz/fuzz.h declares LLVMFuzzerTestOneInput (-Wmissing-prototypes).
$(B)/fuzz/%.o: fuzz/%.c fuzz/fuzz.h
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I. -include fuzz/fuzz.h -c -o $@ $<
$(B)/fuzz/fuzz_%: $(B)/fuzz/fuzz_%.o $(LIBREPORTS) $(LIBCHECKS) $(LIBFABRIC) \
    $(LIBCORE)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)
# Seeds from the observation schema (fuzz/schema_seeds.c): a program.
$(B)/fuzz/schema_seeds: fuzz/schema_seeds.c $(LIBCORE)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I. -o $@ $< $(ALL_LDFLAGS) $(LIBCORE) \
		$(PKG_LIBS)
# ---- end of make fuzz ----------------------------------------------------

# Unit tests of fabric/ code (ftest_*) link libfabric ...
$(B)/tests/ftest_%: $(B)/tests/unit/ftest_%.o $(LIBFABRIC) $(LIBCORE)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lcmocka

# ... the others link neither libfabric nor the fabric libraries: a check
# that does I/O fails to link.
$(B)/tests/test_%: $(B)/tests/unit/test_%.o $(LIBREPORTS) $(LIBCHECKS) $(LIBCORE)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PURE_LIBS) -lcmocka

# Test-only shim that logs the MADs a process sends (tests/ib/madlog.c).
MADLOG = $(B)/tests/madlog.so
$(MADLOG): tests/ib/madlog.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -fPIC -shared -o $@ $< \
		-ldl $(shell $(PKG_CONFIG) --libs libibumad)

# The spec-conforming test agent (tests/agent/): an LD_PRELOAD library that
# answers as protected hardware would where ibsim cannot.  Never installed.
AGENT = $(B)/tests/agent.so
$(AGENT): $(AGENT_SRCS) $(wildcard tests/agent/*.h)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -g -fPIC -shared -o $@ \
		$(AGENT_SRCS) -ldl $(PKG_CFLAGS) $(PKG_LIBS)

# Creates the sockets and device nodes of the host fixture trees (git cannot
# hold them; fixtures/host/*/FIXTURE.nodes lists them).  Test code only.
MKSPECIAL = $(B)/tests/mkspecial
$(MKSPECIAL): tests/host/mkspecial.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -o $@ $<

# The Ethernet test bed's programs: capture writer and frame replayer.
ETHTOOLS = $(B)/tests/mkcaptures $(B)/tests/replay $(B)/tests/vswitch $(B)/tests/sendraw
$(ETHTOOLS): $(B)/tests/%: tests/eth/%.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -o $@ $< \
		$(shell $(PKG_CONFIG) --libs libpcap)

fixtures: $(MKSPECIAL)
	@for d in fixtures/host/*/; do $(MKSPECIAL) "$$d" || exit 1; done

deps:
	@sh mk/deps.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh tests/ib/demo.sh $(BIN)

# The test tiers (tests/run.sh): `make unit`, `make unit-asan`, `make
# fuzz-smoke` and `make scenarios` build what their tier needs and run
# exactly it; `make check` installs what is missing, builds everything and
# runs the four, printing the time of each.  The scenario suites run the
# ASan+UBSan build of fabaudit, so that build has the test tools too.  The
# clang build keeps both compilers warning-free; its binaries are not
# run.  Builds use one job per CPU unless make was given -j.
NPROC	:= $(shell nproc 2>/dev/null || echo 1)
JOBS	 = $(if $(findstring j,$(MAKEFLAGS)),,-j$(NPROC))
SUBMAKE	 = $(MAKE) --no-print-directory $(JOBS)
ASAN_B	 = build-asan
unit:
	@$(SUBMAKE) unit-build
	@sh tests/run.sh --tier unit $(B) $(ASAN_B)
unit-asan:
	@$(SUBMAKE) B=$(ASAN_B) SAN=1 unit-build
	@sh tests/run.sh --tier unit-asan $(B) $(ASAN_B)
fuzz-smoke: fuzz-build
	@sh tests/run.sh --tier fuzz-smoke $(B) $(ASAN_B)
scenarios:
	@$(SUBMAKE) all test-tools
	@$(SUBMAKE) B=$(ASAN_B) SAN=1 all test-tools
	@sh tests/run.sh --tier scenarios $(B) $(ASAN_B)
check: deps
	@t=$$(date +%s) && \
	$(SUBMAKE) all $(UNIT_BINS) test-tools && \
	$(SUBMAKE) fuzz-build && \
	$(SUBMAKE) B=$(ASAN_B) SAN=1 all unit-build test-tools && \
	$(SUBMAKE) B=build-clang CC=clang all unit-build && \
	echo "builds (plain, fuzz, ASan+UBSan, clang): $$(($$(date +%s) - t)) s"
	@sh tests/run.sh $(B) $(ASAN_B)

unit-build: $(UNIT_BINS)

.PHONY: unit-build test-tools
test-tools: $(MADLOG) $(MKSPECIAL) $(ETHTOOLS) bench-build \
	$(if $(AGENT_SRCS),$(AGENT))

lint-man: all
	@sh tests/lint-man.sh $(B)

install: $(BIN)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(DATADIR)
	$(INSTALL) -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/fabaudit
	$(INSTALL) -m 0644 man/man8/fabaudit.8 $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 0644 man/man5/fabaudit.conf.5 $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 0644 $(MAN7) man/man7/fabaudit-internals.7 \
		$(DESTDIR)$(MANDIR)/man7/
	$(INSTALL) -m 0644 data/host-cves.json data/fabaudit-report.xsd \
		data/junit.xsd $(DESTDIR)$(DATADIR)/

# A Debian package (debian/), built as a provider-neutral admin would to
# install fabaudit on many nodes: ../fabaudit_VERSION_ARCH.deb.  Needs
# debhelper (apt-get install debhelper).
deb:
	dpkg-buildpackage -us -uc -b -j$(NPROC)
deb-test:
	@sh tests/deb.sh

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fabaudit $(DESTDIR)$(MANDIR)/man8/fabaudit.8 \
		$(DESTDIR)$(MANDIR)/man5/fabaudit.conf.5 \
		$(DESTDIR)$(MANDIR)/man7/fabaudit-checks.7 \
		$(DESTDIR)$(MANDIR)/man7/fabaudit-internals.7 \
		$(DESTDIR)$(DATADIR)/host-cves.json \
		$(DESTDIR)$(DATADIR)/fabaudit-report.xsd \
		$(DESTDIR)$(DATADIR)/junit.xsd

clean:
	rm -rf build build-asan build-clang build-fuzz demo-report

-include $(shell find $(B) -name '*.d' 2>/dev/null)
