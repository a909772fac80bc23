# SPDX-License-Identifier: GPL-2.0
#
# EtheReal for Linux
#
#   make                 ethereal.ko (against KVER) and all userspace; runs
#                        scripts/install-deps first, as every target does
#   make check           all tests: build against every supported kernel,
#                        native unit tests, then the VM suite on the oldest
#                        supported kernel and on PREEMPT_RT (T=name: one test;
#                        KVER=V: the suite on V only)
#   make check-kernels   the VM suite on each supported kernel, and a table
#   make check-debug     the VM suite on a debug kernel (KASAN, kmemleak,
#                        lockdep, UBSAN) built once from Debian's
#                        linux-source-6.12 (scripts/debug-kernel), then a
#                        kmemleak scan; not part of make check
#   make demo            the demonstration, in the VM (bench/demo)
#   make bench           every benchmark scenario (bench/NAME, results in
#                        bench/results/NAME), then Documentation/performance.md
#                        (SCENARIOS="fig4 setup" runs some; QUICK=1 the quick
#                        forms, under 15 minutes in all, results in
#                        bench/results/quick, their page beside them)
#   make lint            checkpatch --strict on the module, and each of its
#                        headers compiled on its own (against KVER)
#   make install         programs (rtcd and etherealctl in SBINDIR), librttr,
#                        the uapi headers, man pages, rtcd's systemd unit, the
#                        tc plugin, and ethereal.ko into
#                        /lib/modules/KVER/updates (depmod), its source for
#                        DKMS into /usr/src (PREFIX and the other
#                        directories: config.mk; DESTDIR stages)
#   make install-dkms    DKMS builds and installs it for every kernel
#   make uninstall       removes all of that
#
# Warnings are errors, in the module and in userspace; WERROR=0 makes them
# warnings (for packagers). Userspace takes CFLAGS and LDFLAGS.
#
# KVER is the kernel to build for: the running kernel when its headers are
# installed, else the default test kernel (selftests/lib/kver: the oldest
# supported kernel installed). KDIR, its build directory, may be set instead.
# The module is built in build/kmod/KERNELRELEASE.

KVER_RUNNING := $(shell uname -r)
KVER ?= $(if $(wildcard /lib/modules/$(KVER_RUNNING)/build/Makefile),$(KVER_RUNNING),$(shell selftests/lib/kver 2>/dev/null))
KDIR ?= /lib/modules/$(KVER)/build
include version.mk
DKMS_SRC = $(DESTDIR)/usr/src/ethereal-$(VERSION)

SUBDIRS := lib rtcd rttr ctl bench/rtperf selftests/tools selftests

all: deps
	@$(MAKE) -s kmod userspace

kmod:
	$(MAKE) -C kmod KDIR=$(KDIR)

userspace:
	@for d in $(SUBDIRS); do $(MAKE) -C $$d || exit 1; done

deps:
	@scripts/install-deps

unit: deps userspace
	$(MAKE) -C selftests/unit run T=$(T)

# KVER given (command line or environment): the suite on that kernel only.
KVER_GIVEN := $(filter command line environment,$(origin KVER))

check:
	@selftests/check $(if $(KVER_GIVEN),--kernel $(KVER)) $(T)

check-kernels:
	@selftests/check --all-kernels $(T)

check-debug:
	@selftests/check --debug $(T)

demo: deps
	@bench/demo

# Every scenario in one VM boot (bench/run): those not in the tree are
# skipped, one that fails does not stop the others but fails the target
# once the summary is written. Every result is stamped with the commit of
# the code it measures (bench/commit NAME), taken before the VM starts; a
# scenario whose results of that commit are there is kept (BENCH_RESUME=0:
# not).
SCENARIOS ?= fig4 fig5 fig6 fig7 nto1 alloc isolation throughput burst latency path setup scale \
	table1 pacing_cpu demo

bench: deps
	@$(MAKE) -s all
	@export BENCH_QUICK=$(if $(filter 1 yes y,$(QUICK)),1,0); \
	t0=$$(date +%s); rc=0; \
	bench/run $(SCENARIOS) || rc=1; \
	echo "== $$(($$(date +%s) - t0)) s in all"; \
	SCENARIOS="$(SCENARIOS)" bench/summary || rc=1; \
	exit $$rc

# CAMELCASE: the kernel's own names (struct Qdisc, Qdisc_ops), as in every
# net/sched/sch_*.c. compat.h is the one place that compares kernel
# versions, which checkpatch flags (LINUX_VERSION_CODE, and the macro's
# upper case as a constant on the left, CONSTANT_COMPARISON): allowed there.
CHECKPATCH := build/ksrc/scripts/checkpatch.pl --strict --no-tree --terse \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,CAMELCASE
lint: deps
	$(CHECKPATCH) -f $(filter-out %.mod.c,$(wildcard kmod/*.c)) \
		$(filter-out kmod/compat.h,$(wildcard kmod/*.h)) kmod/include/uapi/linux/*.h
	$(CHECKPATCH),LINUX_VERSION_CODE,CONSTANT_COMPARISON -f kmod/compat.h
	$(MAKE) -s -C kmod headers KDIR=$(KDIR)

install: all install-module
	@for d in $(SUBDIRS); do $(MAKE) -C $$d install || exit 1; done

# The module built for KVER, where modprobe looks first (updates/), and its
# source with dkms.conf for DKMS. No build here: the test VM installs what
# the host built, from a read-only tree.
install-module: install-src
	@test -f build/kmod/$(KVER)/ethereal.ko || { echo "install: build/kmod/$(KVER)/ethereal.ko not built (run make)" >&2; exit 1; }
	install -D -m 0644 build/kmod/$(KVER)/ethereal.ko $(DESTDIR)/lib/modules/$(KVER)/updates/ethereal.ko
	$(if $(DESTDIR),,depmod -a $(KVER))

install-src:
	mkdir -p $(DKMS_SRC)
	cp -r kmod/*.c kmod/*.h kmod/Kbuild kmod/include $(DKMS_SRC)/
	sed 's/@VERSION@/$(VERSION)/' kmod/dkms.conf >$(DKMS_SRC)/dkms.conf

# dkms autoinstall would build for the running kernel only: every kernel
# with headers instead; later kernels get it from DKMS's own hook. DKMS's
# module (updates/dkms/) replaces one make install put in updates/: two
# copies under updates/ would leave modprobe's choice to depmod's order.
install-dkms: install-src
	dkms status ethereal/$(VERSION) | grep -q . || dkms add ethereal/$(VERSION)
	@for k in /lib/modules/*/build/Makefile; do \
		k=$${k#/lib/modules/}; k=$${k%%/*}; \
		rm -f /lib/modules/$$k/updates/ethereal.ko; \
		dkms install ethereal/$(VERSION) -k $$k || exit 1; \
	done

uninstall:
	-command -v dkms >/dev/null && for v in $$(dkms status ethereal 2>/dev/null | sed -n 's|^ethereal/\([^,:]*\).*|\1|p' | sort -u); do \
		dkms remove ethereal/$$v --all; done
	rm -rf $(DESTDIR)/usr/src/ethereal-*
	@for k in $(DESTDIR)/lib/modules/*/; do \
		[ -e $$k/updates/ethereal.ko ] || continue; \
		echo "rm $${k}updates/ethereal.ko"; rm -f $$k/updates/ethereal.ko; \
		$(if $(DESTDIR),true,depmod -a $$(basename $$k)); \
	done
	@for d in $(SUBDIRS); do $(MAKE) -C $$d uninstall || exit 1; done

clean:
	-$(MAKE) -C kmod clean
	@for d in $(SUBDIRS) selftests/unit; do $(MAKE) -C $$d clean; done

.PHONY: all kmod userspace deps unit check check-kernels check-debug demo bench lint install \
	install-module install-src install-dkms uninstall clean
