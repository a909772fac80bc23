# SPDX-License-Identifier: GPL-2.0
# Loading the module under test.

# Built per kernel: build/kmod/KERNELRELEASE (kmod/Makefile).
ETHEREAL_KO=${ETHEREAL_KO:-${ETHEREAL_TOP:-.}/build/kmod/$(uname -r)/ethereal.ko}

ethereal_load() {
	lsmod | grep -q '^ethereal ' && return 0
	modprobe bridge && insmod "$ETHEREAL_KO"
}

ethereal_unload() {
	lsmod | grep -q '^ethereal ' || return 0
	rmmod ethereal
}
