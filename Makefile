# SPDX-License-Identifier: GPL-2.0
#
# EtheReal for Linux
#
#   make            build ethereal.ko (against KDIR) and all userspace
#   make check      all tests: native unit tests, then the VM tests
#                   (T=name runs one test)
#   make demo       the demonstration, in the VM (bench/demo, about a minute)
#   make bench      every benchmark scenario (bench/NAME, results in
#                   bench/results/NAME), then Documentation/performance.md
#                   (SCENARIOS="fig4 setup" runs some)
#   make lint       checkpatch --strict on the module
#   make install    install binaries, libraries, man pages and the tc plugin
#
# KDIR defaults to the running kernel's build directory; where the running
# kernel has none (a kernel without modules, as on our CI machines), to the
# test kernel's (selftests/lib/kver).

KVER_RUNNING := $(shell uname -r)
KDIR ?= $(or $(wildcard /lib/modules/$(KVER_RUNNING)/build),\
	     /lib/modules/$(shell selftests/lib/kver 2>/dev/null)/build)

SUBDIRS := lib rtcd rttr ctl bench/rtperf selftests/tools selftests

all: kmod userspace

kmod:
	$(MAKE) -C kmod KDIR=$(KDIR)

userspace:
	@for d in $(SUBDIRS); do $(MAKE) -C $$d || exit 1; done

deps:
	@scripts/install-deps

# T=name: a native unit test (selftests/unit/name.c) or a VM test.
T_UNIT := $(if $(T),$(if $(wildcard selftests/unit/$(T).c),$(T)),all)
T_VM := $(if $(T),$(if $(wildcard selftests/unit/$(T).c),,$(T)),all)

unit: deps userspace
	$(MAKE) -C selftests/unit run T=$(T)

check: deps
	@echo "== build (KDIR=$(KDIR))"
	@$(MAKE) -s all
ifneq ($(T_UNIT),)
	@echo "== native unit tests"
	@$(MAKE) -s -C selftests/unit run $(if $(T),T=$(T))
endif
ifneq ($(T_VM),)
	@echo "== VM tests"
	@selftests/vm-run --no-build -- selftests/run $(if $(T),$(T))
endif

demo: deps
	@bench/demo

# Scenarios not in the tree yet are skipped; one that fails does not stop
# the others, but fails the target once the summary is written.
SCENARIOS ?= fig4 fig5 fig6 fig7 nto1 alloc setup scale isolation table1

bench: deps
	@$(MAKE) -s all
	@failed=; for s in $(SCENARIOS); do \
		if [ ! -x bench/$$s ]; then echo "== bench/$$s: not in this tree, skipped"; continue; fi; \
		echo "== bench/$$s"; t0=$$(date +%s); \
		bench/$$s || failed="$$failed $$s"; \
		echo "== bench/$$s: $$(($$(date +%s) - t0)) s"; \
	done; \
	SCENARIOS="$(SCENARIOS)" bench/summary; \
	if [ -n "$$failed" ]; then echo "== failed:$$failed"; exit 1; fi

# CAMELCASE: the kernel's own names (struct Qdisc, Qdisc_ops), as in every
# net/sched/sch_*.c.
lint: deps
	build/ksrc/scripts/checkpatch.pl --strict --no-tree --terse \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,CAMELCASE \
		-f $(filter-out %.mod.c,$(wildcard kmod/*.c)) kmod/*.h \
		kmod/include/uapi/linux/*.h

install: all
	@for d in $(SUBDIRS); do $(MAKE) -C $$d install || exit 1; done

clean:
	-$(MAKE) -C kmod clean KDIR=$(KDIR)
	@for d in $(SUBDIRS) selftests/unit; do $(MAKE) -C $$d clean; done

.PHONY: all kmod userspace deps unit check demo bench lint install clean
