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
# sender's by at most SPREAD_MS, how far the queues on the way varied the
# delay (what the switch measured of the connection's frames, and a host's
# NIC FIFO that other traffic keeps full), and PERCENT of the span: what a
# rate measured on the emulated machine is allowed elsewhere (senders_ok).
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

# conn_delay_max_ms SW DEV ID: the largest delay SW measured of the frames
# of connection ID arriving on DEV, on its output port (from when each
# conformed to its contract until it left), in ms, rounded up; 0 when it
# measured none. Not the promise: a delay bound covers the worst case, and
# allowing that much would let a port that delayed a frame far past what
# it measured pass.
conn_delay_max_ms() {
	local ns
	ns=$(json_num "$(ctl "$1" -j conn show dev "$2" id "$3")" measured max_ns)
	echo $(((${ns:-0} + 999999) / 1000000))
}
