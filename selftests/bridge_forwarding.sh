#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A 4-port bridge with 4 hosts forwards unicast, broadcast and ARP exactly
# the same way on a plain bridge, with ethereal.ko loaded, and attached as
# an EtheReal switch; the bridge still learns its FDB. The plain bridge is
# the stock kernel's: on make check's first kernel only (ktap_once).
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lib/ethereal.sh"

hosts="h1 h2 h3 h4"

# Every check below covers every host or every ordered pair of hosts.
check_all() { # phase
	local phase=$1 a b bad pids=() pairs=() i neigh mac

	bad=
	for a in $hosts; do
		on "$a" ip neigh flush dev eth0
	done
	# the pings at once, each with its own 2 s; 10.0.0.N is host_ip's
	# address without its fork (~40 ms)
	for a in $hosts; do for b in $hosts; do
		[ "$a" = "$b" ] && continue
		on_bg "$a" ping -q -c 1 -W 2 "10.0.0.${b##*[a-z]}" >/dev/null
		pids+=($!)
		pairs+=("$a->$b")
	done; done
	for i in "${!pids[@]}"; do
		wait "${pids[i]}" || bad="$bad ${pairs[i]}"
	done
	ktap_result "$phase: ping between every pair" "$([ -z "$bad" ]; echo $?)" \
		"failed:$bad"

	# one table a host, each pair's line in it
	bad=
	for a in $hosts; do
		neigh=$'\n'$(on "$a" ip neigh show dev eth0)
		for b in $hosts; do
			[ "$a" = "$b" ] && continue
			_topo_host_mac mac "$b"
			[[ $neigh =~ $'\n'"10.0.0.${b##*[a-z]} "[^$'\n']*"lladdr $mac" ]] ||
				bad="$bad $a->$b"
		done
	done
	ktap_result "$phase: ARP resolved every pair to the right MAC" \
		"$([ -z "$bad" ]; echo $?)" "wrong or missing:$bad"

	bad=$(udp_mesh "$hosts" unicast 4000)
	ktap_result "$phase: UDP datagram between every pair" $? "missed at:$bad"

	bad=$(udp_mesh "$hosts" broadcast 4001)
	ktap_result "$phase: broadcast from every host reaches all others" $? \
		"missed at:$bad"
}

ktap_begin 16
topo_create "sw1:h1,h2,h3,h4" || ktap_skip_all "cannot build topology"

if ktap_once 4 "plain bridge"; then check_all "plain bridge"; fi
ktap_check "load ethereal.ko" ethereal_load
check_all "module loaded"
ktap_check "attach br0" on sw1 etherealctl attach br0
on sw1 bridge fdb flush dev br0 2>/dev/null
for p in swp1 swp2 swp3 swp4; do on sw1 bridge fdb flush dev $p; done
check_all "switch attached"
bad=
for h in $hosts; do
	on sw1 bridge fdb show br br0 | grep -q "$(host_mac "$h") dev $(port_of sw1 "$h") " ||
		bad="$bad $h"
done
ktap_result "switch attached: FDB learned every host on its port" \
	"$([ -z "$bad" ]; echo $?)" "missing:$bad"
ktap_result "switch attached: nothing dropped" \
	"$(on sw1 etherealctl -j stats | holds '[.[0].stats | to_entries[] |
	   select(.key | startswith("drop_")) | .value] | add == 0'; echo $?)"
ktap_end
