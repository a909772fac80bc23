# SPDX-License-Identifier: GPL-2.0
# Loading the module under test.

ETHEREAL_KO=${ETHEREAL_KO:-${ETHEREAL_TOP:-.}/kmod/ethereal.ko}

ethereal_load() {
	lsmod | grep -q '^ethereal ' && return 0
	modprobe bridge && insmod "$ETHEREAL_KO"
}

ethereal_unload() {
	lsmod | grep -q '^ethereal ' || return 0
	rmmod ethereal
}
