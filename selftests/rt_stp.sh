#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# With the kernel's STP, a port moves listening -> learning -> forwarding on
# timers. Real-time frames toward it are dropped (drop_port_state) until it
# forwards, as the bridge would drop its own traffic, and flow afterwards.
#
# Keyed off the states the switch reports, not off how fast the machine is:
# the new port is held down (its STP timers stopped) until the connection,
# the host's proxy entry and a sender are in place and frames toward it are
# being dropped; only then does it come up and start its timers, and the
# sender goes on until the port has been seen forwarding, then a chunk more.
# timeout=200
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

CHUNK=100	# frames a sender run: 1 s at 100/s

# within SECONDS CMD...: CMD succeeds within SECONDS, polled
within() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}
state_is() { [ "$(port_state sw1 "$1")" = "$2" ]; }
dropping() { [ "$(conn_stat sw1 swp1 03:09 drop_port_state)" -gt 0 ] 2>/dev/null; }

# send_chunks: CHUNK frames at a time toward h2 while $go exists, then a
# chunk more: one whole run starts after the port was seen forwarding.
send_chunks() {
	while [ -e "$go" ]; do
		on h1 udpprobe send "$(proxy_ip 03:09)" 5000 $CHUNK 100 100 || return
	done
	on h1 udpprobe send "$(proxy_ip 03:09)" 5000 $CHUNK 100 100
}

ktap_begin 5
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
TOPO_STP=1 topo_create "sw1:h1" || ktap_skip_all "cannot build topology"
# A state lasts a forward delay: 2 s, and longer on a slower kernel, so that
# the polls below see each one (the bridge takes 2 to 30 s).
fd=$(slow 200)
[ "$fd" -le 3000 ] || fd=3000
on sw1 ip link set br0 type bridge forward_delay $fd
ctl sw1 attach br0 || ktap_skip_all "cannot attach"
within "$(slow 30)" state_is swp1 forwarding || ktap_skip_all "swp1 never forwarded"

# The new port, held down (disabled) through the setup, however long it takes.
topo_create "sw1:h2" || ktap_skip_all "cannot add h2"
on sw1 ip link set swp2 down
ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate 10mbit
host_proxy h1 03:09
go=$(mktemp)
log=$(mktemp)
defer rm -f "$go" "$log"
send_chunks >"$log" &
sender=$!
within "$(slow 10)" dropping || ktap_info "no frame dropped yet toward the down port"

# Up: listening, learning, then forwarding, each read as the switch has it.
on sw1 ip link set swp2 up
up_drops=$(conn_stat sw1 swp1 03:09 drop_port_state)
path=
last=
end=$((SECONDS + 2 * fd / 100 + $(slow 10)))
while [ $SECONDS -lt $end ]; do
	s=$(port_state sw1 swp2)
	[ "$s" = "$last" ] || path="$path $s"
	last=$s
	[ "$s" = forwarding ] && break
	sleep 0.1
done
rm -f "$go"
wait $sender || ktap_info "the sender failed ($?)"
total=0
while read -r line; do
	[[ $line =~ ^sent=([0-9]+) ]] && total=$((total + BASH_REMATCH[1]))
done <"$log"
ktap_info "swp2 went through:$path"
ktap_result "the switch saw swp2 listen, learn, then forward" \
	"$([[ "$path " == *" listening learning forwarding "* ]]; echo $?)"
drops=$(conn_stat sw1 swp1 03:09 drop_port_state)
sent=$(conn_stat sw1 swp1 03:09 tx_packets)
ktap_info "of $total frames: dropped while not forwarding $drops ($((drops - up_drops)) once up), sent $sent"
# Counted from when it came up: dropped for its STP state, not its link.
ktap_result "frames were dropped while swp2 was not forwarding" \
	"$([ $((drops - up_drops)) -gt 0 ]; echo $?)"
# The last run started after the port was seen forwarding: all of it passes.
ktap_result "and sent once it forwarded" "$([ "$sent" -ge $CHUNK ]; echo $?)"
ktap_explain "every frame either sent or counted" \
	"$([ $((drops + sent)) = "$total" ] && [ "$total" -gt 0 ]; echo $?)" \
	conn_stats sw1 swp1 03:09

# Converged: the port forwards before the flow starts; what to tell a loss by.
within "$(slow 10)" state_is swp2 forwarding
before="swp2 $(port_state sw1 swp2); h2 Udp: $(snmp_all h2 Udp); 03:09: $(conn_stats sw1 swp1 03:09)"
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" 100 100)
rc=$?
if [ $rc != 0 ]; then
	while read -r line; do ktap_info "$line"; done <<<"$res"
	ktap_info "before: $before"
	ktap_info "after: swp2 $(port_state sw1 swp2); h2 Udp: $(snmp_all h2 Udp); 03:09: $(conn_stats sw1 swp1 03:09)"
fi
ktap_result "after convergence, all frames reach h2" $rc
ktap_end
