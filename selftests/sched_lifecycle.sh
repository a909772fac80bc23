#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The qdisc and the switch in any order, under traffic: queues follow the
# connections whether the qdisc came first or last; replacing or deleting
# the qdisc, deleting a backlogged connection, detaching, removing the port;
# the module stays loaded while a qdisc of its kind exists. dmesg stays clean.
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

classes() { on sw1 tc class show dev swp2 | grep -c "^class ethereal"; }

conns() {
	local id
	for id in 03:09 03:0a 03:0b; do
		ctl sw1 conn add dev swp1 id $id out swp2 lladdr "$(host_mac h2)" \
			daddr "$(host_ip h2)" swap rate 1mbit || return 1
	done
}

# Load until stop_load: 4 Mbit/s from h1 into a connection of 1 Mbit/s,
# whose queue stays full, and 8 Mbit/s of best effort from h3.
load_pids=()
start_load() {
	on_bg h1 udpprobe send "$(proxy_ip "${1:-03:09}")" 5000 1000000 1472 4mbit >/dev/null 2>&1
	load_pids+=($!)
	on_bg h3 udpprobe send "$(host_ip h2)" 5001 1000000 1472 8mbit >/dev/null 2>&1
	load_pids+=($!)
}
stop_load() {
	kill "${load_pids[@]}" 2>/dev/null
	kill -CONT "${load_pids[@]}" 2>/dev/null
	wait "${load_pids[@]}" 2>/dev/null
	load_pids=()
}
defer stop_load

# udp_tx_held NODE: bytes that NODE's UDP sockets sent and that are not yet
# freed (their sk_wmem_alloc: /proc/net/udp's tx_queue, in hex).
udp_tx_held() {
	local n=0 q
	for q in $(on "$1" awk 'NR > 1 { split($5, a, ":"); print a[1] }' /proc/net/udp); do
		n=$((n + 16#$q))
	done
	echo $n
}
# freed_after NAME CMD...: CMD, while h1's sender (the first of load_pids)
# fills a connection's queue; then the sender is stopped, and once what was
# in flight is through, its socket must hold nothing: the frames the queue
# had when CMD dropped it were freed. Frames dropped but not freed would
# pin the sender's socket, and its namespace, for good.
freed_after() {
	local name=$1 held
	shift
	"$@"
	kill -STOP "${load_pids[0]}"
	sleep "$(slow 1)"
	held=$(udp_tx_held h1)
	kill -CONT "${load_pids[0]}"
	ktap_result "$name: the frames it held were freed" "$([ "$held" = 0 ]; echo $?)" \
		"h1's socket still holds $held bytes"
}

ktap_begin 12
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2,h3" || ktap_skip_all "cannot build topology"
host_proxy h1 03:09

# qdisc first, then attach and connections
on sw1 tc qdisc add dev swp2 root handle 1: ethereal rate 10mbit
ctl sw1 attach br0 && conns
ktap_result "qdisc before the switch: one queue per connection" "$([ "$(classes)" = 3 ]; echo $?)"
start_load
sleep 1

on sw1 tc qdisc replace dev swp2 root handle 2: ethereal rate 10mbit mode cyclic
ktap_result "qdisc replaced under load: the new one has the queues" \
	"$([ "$(classes)" = 3 ] && on sw1 tc class show dev swp2 | grep -q "class ethereal 2:"
	   echo $?)"
sleep 1
freed_after "a backlogged connection deleted" ctl sw1 conn del dev swp1 id 03:09
ktap_result "a backlogged connection deleted: its queue goes with it" "$([ "$(classes)" = 2 ]; echo $?)"

on sw1 tc qdisc del dev swp2 root
ktap_result "qdisc deleted under load: connections stay" \
	"$([ "$(ctl sw1 -j show | jq '.[0].connections')" = 2 ]; echo $?)"

on sw1 tc qdisc add dev swp2 root handle 3: ethereal rate 10mbit
ktap_result "qdisc after the connections: their queues appear" "$([ "$(classes)" = 2 ]; echo $?)"

# h1's load now goes to 03:0a, which has a queue, until the detach.
stop_load
host_proxy h1 03:0a
start_load 03:0a
sleep 1
freed_after "detached under load" ctl sw1 detach br0
ktap_result "detached: the qdisc stays, without queues" \
	"$([ "$(classes)" = 0 ] && on sw1 tc qdisc show dev swp2 | grep -q "reserved 0bit conns 0"
	   echo $?)"
ctl sw1 attach br0 && conns
ktap_result "attached again: the qdisc takes the connections" "$([ "$(classes)" = 3 ]; echo $?)"

out=$(rmmod ethereal 2>&1)
ktap_result "the module stays while its qdisc exists" \
	"$(lsmod | grep -q '^ethereal '; echo $?)" "$out"

# Idle cycles are no overruns: 2 s idle is 200 cycles of 10 ms.
stop_load
overruns() { on sw1 tc -s qdisc show dev swp2 | grep -o 'overruns [0-9]*' | cut -d' ' -f2; }
on sw1 tc qdisc replace dev swp2 root handle 4: ethereal rate 10mbit mode cyclic
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 5 200 100kbit >/dev/null 2>&1
sleep 2
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 5 200 100kbit >/dev/null 2>&1
n=$(overruns)
ktap_result "cyclic: 2 s idle between frames counts no overruns" \
	"$([ -n "$n" ] && [ "$n" -lt 50 ]; echo $?)" "overruns: $n"

on sw1 ip link del swp2
ktap_result "port deleted with its qdisc: connections gone" \
	"$([ "$(ctl sw1 -j show | jq '.[0].connections')" = 0 ]; echo $?)"
stop_load
ktap_end
