#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fig. 5: real time and a greedy TCP flow from the same host to the same
# receiver, reserving 30% and then 70% of the link. Ports at 10 Mbit/s (the
# paper's 100 divided by 10; machine_rate: less on a debug kernel); the
# host's NIC is emulated by a FIFO at the link rate that both flows share, preemptive discard on (sched_discard.sh tests it
# alone). Real time gets its reservation and TCP the residual, without
# being starved.
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/sched.sh"
. "$(dirname "$0")/lib/ethereal.sh"
. "$(dirname "$0")/lib/delivery.sh"

LINK=$(machine_rate 10000000)
# h1's NIC FIFO: 77 ms of the link, 64 frames at 10 Mbit/s
NICQ=$((64 * 1514 * (LINK / 1000) / 10000))
NICQ_MS=$((NICQ * 8000 / LINK + 1))
SECS=10
SIZE=1472

# tcp_start: a greedy TCP flow from h1 to h2 for the run's length, after
# any earlier try's; preemptive discards counted from here
tcp_start() {
	tcp_flow_end
	_early0=$(port_stat sw1 swp1 drop_early)
	tcp_flow_start h1 h2 $((SECS + 1)) "$_flow_dir/tcp.json"
}

# The reservation's burst: 100 ms at its rate (of machine time: slow). Real
# time shares h1's NIC FIFO (77 ms) with TCP, which keeps it full: a datagram may
# wait that long to get in (ENOBUFS, sent again), and then the ones queued
# behind it follow at once. A reservation that did not cover its own host's
# queue would ask the switch to drop what its NIC bunched (40 ms did: the
# sender caught up by 79-88 ms in fresh-clone runs).
run() { # percent
	local pct=$1 rate=$((LINK * $1 / 100)) goodput res rt early burst spread
	burst=$((rate / 8 * $(slow 100) / 1000))
	ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
		daddr "$(host_ip h2)" swap rate "$rate" burst $burst
	flow_start rt h1 h2 "$(proxy_ip 03:09)" 5000 "$rate" $SECS $SIZE $burst
	_tcp=
	flows_go tcp_start
	tcp_flow_end
	goodput=$(jq '.end.sum_received.bits_per_second | floor' "$_flow_dir/tcp.json")
	res=$((LINK - rate))
	rt=$(flow_rx rt)
	early=$(( $(port_stat sw1 swp1 drop_early) - _early0 ))
	# how far its delay varied: h1's NIC FIFO, and what the switch measured
	spread=$(($(conn_delay_max_ms sw1 swp1 03:09) + NICQ_MS))
	ktap_info "$pct%: real time $(field rate_bps "$rt") bit/s, $(field received "$rt")" \
		"of $(field sent "$(flow_tx rt)") frames (sent at $(field sent_bps "$(flow_tx rt)") bit/s); TCP goodput $goodput bit/s" \
		"(residual $res); $early preemptive discards; span $(span_change rt) ms longer than" \
		"sent, of $spread allowed"
	ktap_senders "$pct%: the real-time sender offered its rate, within its contract"
	flow_result "$pct%: real time got its reservation within 1% and its delay spread, nothing lost" \
		"$(delivered_in rt "$spread" 1; echo $?)"
	# TCP goodput carries 1448 of every 1514 bytes on the wire.
	flow_result "$pct%: TCP got at least half the residual, and not more than it" \
		"$(at_least "$goodput" "$res" 50 && at_least "$res" "$goodput" 95; echo $?)"
	ctl sw1 conn del dev swp1 id 03:09
}

ktap_begin 6
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
command -v iperf3 >/dev/null || ktap_skip_all "iperf3 is not installed"
topo_create "sw1:h1,h2" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"
ports_qdisc sw1 "${LINK}bit" rt-limit 80% mode paced discard-window "$(slow 50)ms"
# h1's NIC: the link rate out of a 77 ms FIFO, shared by both flows
on h1 tc qdisc add dev eth0 root tbf rate "${LINK}bit" burst 3028 limit $NICQ
host_proxy h1 03:09
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null

run 30
run 70
ktap_end
