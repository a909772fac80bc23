#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A 4-port bridge with 4 hosts forwards unicast, broadcast and ARP exactly
# the same way on a plain bridge and with ethereal.ko loaded.
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lib/ethereal.sh"

hosts="h1 h2 h3 h4"

# Every check below covers every host or every ordered pair of hosts.
check_all() { # phase
	local phase=$1 a b bad

	bad=
	for a in $hosts; do
		on "$a" ip neigh flush dev eth0
	done
	for a in $hosts; do for b in $hosts; do
		[ "$a" = "$b" ] && continue
		on "$a" ping -q -c 2 -i 0.2 -W 2 "$(host_ip "$b")" >/dev/null ||
			bad="$bad $a->$b"
	done; done
	ktap_result "$phase: ping between every pair" "$([ -z "$bad" ]; echo $?)" \
		"failed:$bad"

	bad=
	for a in $hosts; do for b in $hosts; do
		[ "$a" = "$b" ] && continue
		on "$a" ip neigh show "$(host_ip "$b")" dev eth0 |
			grep -q "lladdr $(host_mac "$b")" || bad="$bad $a->$b"
	done; done
	ktap_result "$phase: ARP resolved every pair to the right MAC" \
		"$([ -z "$bad" ]; echo $?)" "wrong or missing:$bad"

	bad=
	for a in $hosts; do for b in $hosts; do
		[ "$a" = "$b" ] && continue
		udp_exchange "$a" "$b" "$(host_ip "$b")" "$phase $a to $b" ||
			bad="$bad $a->$b"
	done; done
	ktap_result "$phase: UDP datagram between every pair" \
		"$([ -z "$bad" ]; echo $?)" "lost:$bad"

	bad=
	for a in $hosts; do
		udp_broadcast_reaches "$a" "$hosts" || bad="$bad $a"
	done
	ktap_result "$phase: broadcast from every host reaches all others" \
		"$([ -z "$bad" ]; echo $?)" "incomplete from:$bad"
}

ktap_begin 9
topo_create "sw1:h1,h2,h3,h4" || ktap_skip_all "cannot build topology"

check_all "plain bridge"
ktap_check "load ethereal.ko" ethereal_load
check_all "module loaded"
ktap_end
