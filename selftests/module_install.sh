#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Installed like a driver: make install-module puts ethereal.ko under
# /lib/modules/VERSION/updates and runs depmod; the kernel then loads it on
# first use, with no insmod: tc through "net-sch-ethereal" (or
# "sch_ethereal" before 6.9), etherealctl through the generic netlink
# family's alias. The guest's /lib and /usr are throw-away overlays:
# nothing reaches the host. (make uninstall is checked natively, with
# DESTDIR, by selftests/check.)
# timeout=400
. "$(dirname "$0")/lib/ktap.sh"
top=${ETHEREAL_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
kver=$(uname -r)
ko=/lib/modules/$kver/updates/ethereal.ko

ktap_begin 7
[ -f "$top/build/kmod/$kver/ethereal.ko" ] || ktap_skip_all "ethereal.ko not built for $kver"

loaded() { lsmod | grep -q '^ethereal '; }
unload() { ! loaded || rmmod ethereal; }

# depmod reads every module of the tree it indexes: 4000 files and 400 MB,
# minutes under emulation. It runs here on a tree of what this test can
# load (ethereal.ko's dependencies, dummy), mounted over the guest's for
# the test only: unmounting it leaves the next tests the tree and index
# they had, without ethereal.ko (they insmod theirs).
mods=/lib/modules/$kver
tree=$(mktemp -d)
for m in $(modinfo -F depends "$top/build/kmod/$kver/ethereal.ko" | tr , ' ') dummy; do
	modprobe -S "$kver" --show-depends "$m" | sed -n 's|^insmod \([^ ]*\).*|\1|p'
done | sort -u | while read -r f; do
	install -D -m 0644 "$f" "$tree/${f#"$mods"/}"
done
cp "$mods"/modules.builtin* "$mods/modules.order" "$tree/" 2>/dev/null
mount --bind "$tree" "$mods" || ktap_skip_all "cannot mount a module tree over $mods"
# Lazily: a modprobe the kernel started for the test may still hold the
# index open, and a busy tree must not stay mounted (rm would empty it).
# The tree goes with it: a second unmount would take the guest's own.
put_back() { [ -d "$tree" ] && umount -l "$mods" && rm -rf "$tree"; }
defer sh -c "rm -rf /usr/src/ethereal-*"
defer put_back
ktap_check "make install-module KVER=$kver" \
	make -s -C "$top" install-module KVER="$kver"
ktap_check "modprobe finds $ko" sh -c "[ \"\$(modinfo -n ethereal)\" = '$ko' ]"

unload
ip link add eth-inst type dummy
defer ip link del eth-inst
ktap_check "tc qdisc add ... ethereal loads the module" \
	sh -c "tc qdisc add dev eth-inst root ethereal rate 10mbit && lsmod | grep -q '^ethereal '"
tc qdisc del dev eth-inst root 2>/dev/null
ktap_check "unloads" unload

ip link add br-inst type bridge
defer ip link del br-inst
ktap_check "etherealctl attach loads the module" \
	sh -c "etherealctl attach br-inst && lsmod | grep -q '^ethereal '"
etherealctl detach br-inst 2>/dev/null
ktap_check "unloads again" unload
put_back
ktap_check "the guest's own module tree is back (sch_htb found)" modprobe -n sch_htb

ktap_end
