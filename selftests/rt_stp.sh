#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# With the kernel's STP, a port moves listening -> learning -> forwarding on
# timers. Real-time frames toward it are dropped (drop_port_state) until it
# forwards, as the bridge would drop its own traffic, and flow afterwards.
# timeout=200
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

state() { ctl sw1 -j port show dev "$1" | jq -r '.[0].stp_state'; }

wait_forwarding() {
	local i
	for i in $(seq 300); do
		[ "$(state "$1")" = forwarding ] && return 0
		sleep 0.1
	done
	return 1
}

ktap_begin 5
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
TOPO_STP=1 topo_create "sw1:h1" || ktap_skip_all "cannot build topology"
on sw1 ip link set br0 type bridge forward_delay 200
ctl sw1 attach br0 || ktap_skip_all "cannot attach"
wait_forwarding swp1 || ktap_skip_all "swp1 never forwarded"

# A new port starts over: listening, learning, then forwarding. Its first
# state is read at once: what follows may take longer than a state lasts
# (forward_delay, 2 s) on a slow emulated machine.
topo_create "sw1:h2"
seen=$(state swp2)
ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate 10mbit
seen="$seen $(state swp2)"
host_proxy h1 03:09
seen="$seen $(state swp2)"
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 500 100 100 >/dev/null &
sender=$!
while kill -0 $sender 2>/dev/null; do
	seen="$seen $(state swp2)"
	sleep 0.2
done
wait $sender
ktap_info "swp2 went through: $(echo $seen | tr ' ' '\n' | uniq | tr '\n' ' ')"
ktap_result "the switch saw swp2 listen, learn, then forward" \
	"$(echo $seen | tr ' ' '\n' | uniq | tr '\n' ' ' | grep -q "listening learning forwarding"; echo $?)"
drops=$(conn_stat sw1 swp1 03:09 drop_port_state)
sent=$(conn_stat sw1 swp1 03:09 tx_packets)
ktap_info "dropped while not forwarding: $drops, sent: $sent"
ktap_result "frames were dropped while swp2 was not forwarding" "$([ "$drops" -gt 0 ]; echo $?)"
ktap_result "and sent once it forwarded" "$([ "$sent" -gt 0 ]; echo $?)"
ktap_result "every frame either sent or counted" "$([ $((drops + sent)) = 500 ]; echo $?)"
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" 100 100)
ktap_result "after convergence, all frames reach h2" $?
ktap_end
