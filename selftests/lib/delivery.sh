# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Whether a flow of lib/sched.sh (flow_start, flows_go) was delivered:
# every frame, at the rate it was sent. Needs lib/sched.sh and lib/rt.sh.
#
# A rate over the receive stamps, first to last, is the sender's rate
# stretched by how much later the last frame was than the first: the
# frames' delays vary by as much as the path's queues let them, and a
# check on the rate alone counts that as rate. With h1's NIC FIFO (50 ms,
# kept full by TCP) and a 20 ms cycle at the switch, 84 ms of it over a
# 6 s flow read as 1.4% short (sched_queue in CI, November 2026), though
# every frame arrived within what the path allows.

# span_change NAME: how much longer, in ms, the receiver's first-to-last
# span of NAME was than the sender's (negative: shorter)
span_change() {
	local rx tx
	rx=$(flow_rx "$1")
	tx=$(flow_tx "$1")
	awk -v n="$(field received "$rx")" -v f=$((_flow_size[$1] + 42)) \
		-v rr="$(field rate_bps "$rx")" -v tr="$(field rate_bps "$tx")" 'BEGIN {
		if (n < 2 || rr <= 0 || tr <= 0) { print "none"; exit }
		b = (n - 1) * f * 8
		printf "%.1f\n", (b / rr - b / tr) * 1000 }'
}

# delivered_in NAME SPREAD_MS PERCENT: every frame of NAME arrived, and
# the receiver's span from the first to the last differs from the
# sender's by at most SPREAD_MS, how far the path's queues may vary the
# delay (the connection's bound, and a host's NIC FIFO that other
# traffic keeps full), and PERCENT of the span: what a rate measured on
# the emulated machine is allowed elsewhere (senders_ok).
delivered_in() {
	local tx d
	tx=$(flow_tx "$1")
	[ "$(field received "$(flow_rx "$1")")" = "$(field sent "$tx")" ] || return 1
	d=$(span_change "$1")
	[ "$d" != none ] &&
	awk -v d="$d" -v s="$2" -v p="$3" -v n="$(field sent "$tx")" \
		-v f=$((_flow_size[$1] + 42)) -v tr="$(field rate_bps "$tx")" 'BEGIN {
		if (d < 0) d = -d
		exit !(d <= s + p / 100 * (n - 1) * f * 8 / tr * 1000) }'
}

# conn_bound_ms SW DEV ID: the delay SW promised connection ID arriving
# on DEV (its bound at that hop), in ms, rounded up
conn_bound_ms() {
	local ns
	ns=$(json_first "$(ctl "$1" -j conn show dev "$2" id "$3")" delay_ns)
	echo $(((${ns:-0} + 999999) / 1000000))
}
