#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A reservation with rtcd's default contract (a burst of 10 ms of its
# rate) loses nothing at the switch while its sender keeps to it, whatever
# the scheduler: paced, and cyclic with a 10 and a 20 ms cycle (a
# connection is visited once a cycle: its burst and more than a cycle of
# its rate can arrive between two visits), alone and beside a greedy TCP
# flow from the same host. h1's NIC is a FIFO at the link rate as deep as
# the discard window, which TCP keeps full: the stream reaches the switch
# late and bunched behind it, up to that window, which the first switch
# allows a host (Documentation/scheduler.md, "What a connection's queue
# holds"). The paper's queue of twice the burst dropped such frames
# (bench fig5 and fig6 at c584e08). The stream is sent at 95% of its
# reservation; ports at 10 Mbit/s with a 30 ms delay budget, as the
# bench's. Each connection's queue is checked against bound.h's sizing,
# and the TCP flow against a tenth of the link, so that a run without it
# cannot pass as one behind it.
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/sched.sh"
. "$(dirname "$0")/lib/ethereal.sh"
. "$(dirname "$0")/lib/delivery.sh"

LINK=$(machine_rate 10000000)
RATE=$((LINK * 4 / 10))
SIZE=1472
FRAME=$((SIZE + 42))
# rtcd's default burst: 10 ms of the rate, at least two frames
BURST=$((RATE / 800))
[ "$BURST" -ge $((2 * FRAME)) ] || BURST=$((2 * FRAME))
WINDOW=$(slow 50)
# h1's NIC FIFO: the discard window of the link
NICQ=$((LINK / 8 * WINDOW / 1000))
SECS=6

# mark: the class's drops before a try (flows_go runs it before each)
mark() { _d0=$(class_stat sw1 swp2 dropped); }

# tcp_start: mark, and a greedy TCP flow from h1 to h2 for the run's
# length, once an earlier try's is over
tcp_start() {
	mark
	tcp_flow_end
	tcp_flow_start h1 h2 $((SECS + 1)) "$_flow_dir/tcp.json"
}

# queue_want MODE CYCLE_NS: the queue bound.h gives the connection at
# swp2 now: its burst, a frame, and its rate over its stay (paced: the
# port's common term; cyclic: its visits, at most max(cycle, common term)
# apart, and the common term) and the discard window; at least 2 x burst
queue_want() {
	local common
	common=$(on sw1 tc -j qdisc show dev swp2 | jq '.[0].options.delay_used')
	awk -v m="$1" -v c="$2" -v t="$common" -v r="$RATE" -v b="$BURST" -v l="$FRAME" \
		-v j=$((WINDOW * 1000000)) 'BEGIN {
		q = int(r * c / 8e9)
		stay = t
		if (m == "cyclic") {
			v = int(b / q) + (b % q ? 1 : 0) + 1
			stay = v * (c > t ? c : t) + t
		}
		n = b + l + int(r * (stay + j) / 8e9)
		print (n > 2 * b ? n : 2 * b) }'
}

# run MODE CYCLE_MS [tcp]
run() {
	local mode=$1 cycle=$2 tcp=${3:-} name dropped buf want goodput spread
	name="$mode ${cycle} ms${tcp:+, TCP beside}"
	ports_qdisc sw1 "${LINK}bit" rt-limit 80% mode "$mode" cycle "$(slow "$cycle")ms" \
		delay "$(slow 30)ms" discard-window "${WINDOW}ms"
	ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
		daddr "$(host_ip h2)" swap rate "$RATE" burst "$BURST"
	buf=$(json_first "$(ctl sw1 -j conn show dev swp1 id 03:09)" buffer)
	want=$(queue_want "$mode" $(($(slow "$cycle") * 1000000)))
	ktap_result "$name: the queue holds the connection's stay and the discard window" \
		"$([ "$buf" = "$want" ]; echo $?)" "a queue of $buf bytes, $want wanted"
	# The sender's contract here is what the switch takes: its burst
	# and a window of its rate (the host's bunching, which shows as the
	# sender catching up after its NIC was full).
	flow_start rt h1 h2 "$(proxy_ip 03:09)" 5000 $((RATE * 95 / 100)) $SECS $SIZE \
		$((BURST + RATE / 8 * WINDOW / 1000))
	_tcp=
	if [ -n "$tcp" ]; then
		flows_go tcp_start
		tcp_flow_end
		goodput=$(jq '.end.sum_received.bits_per_second | floor' "$_flow_dir/tcp.json" \
			2>/dev/null)
	else
		flows_go mark
	fi
	dropped=$(($(class_stat sw1 swp2 dropped) - _d0))
	# How far the stream's delay varied: what the switch measured of it, and with
	# TCP beside, h1's NIC FIFO (WINDOW ms of the link)
	spread=$(conn_delay_max_ms sw1 swp1 03:09)
	[ -z "$tcp" ] || spread=$((spread + WINDOW))
	ktap_info "$name: a queue of $buf bytes, $dropped dropped${tcp:+, TCP ${goodput:-none} bit/s};" \
		"span $(span_change rt) ms longer than sent, of $spread allowed; $(flow_rx rt)"
	ktap_senders "$name: the sender kept its rate, bunched within the window"
	flow_explain "$name: every frame arrived, none dropped at the switch${tcp:+, beside TCP}" \
		"$([ "$dropped" = 0 ] && delivered_in rt "$spread" 1 &&
		   { [ -z "$tcp" ] || [ "${goodput:-0}" -ge $((LINK / 10)) ]; }; echo $?)" \
		path_drops h1 sw1 swp1 swp2 h2
	ctl sw1 conn del dev swp1 id 03:09
}

ktap_begin 12
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
command -v iperf3 >/dev/null || ktap_skip_all "iperf3 is not installed"
TOPO_OFFLOAD=off topo_create "sw1:h1,h2" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"
on h1 tc qdisc add dev eth0 root tbf rate "${LINK}bit" burst 3028 limit $NICQ
host_proxy h1 03:09
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null

run cyclic 20
run cyclic 20 tcp
run cyclic 10 tcp
run paced 10 tcp
ktap_end
