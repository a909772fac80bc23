#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rtperf (bench/rtperf) end to end, h1 -> h2 through one EtheReal switch:
# a 5 Mbit/s CBR flow arrives whole at its rate with sane delays (and its
# per-datagram CSV), a Poisson flow of 5 Mbit/s mean at that mean, two
# flows into one receiver are reported apart, a flow reserved through rtcd
# (-R) arrives whole at the reservation and its connection goes with the
# sender, and bad arguments are usage errors. 3 s flows: about 40 s. The
# bench's tool, as bench_quick is: on make check's first kernel only.
# once
# timeout=180
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"
. "$(dirname "$0")/lib/rtperf_start.sh"

TOP=$(cd "$(dirname "$0")/.." && pwd)
SOCK=/tmp/rtcd-rtperf.sock
D=$(mktemp -d)
defer rm -rf "$D"

# pair NAME SENDER_ARGS...: rtperf recv on h2 (JSON in $D/NAME.rx), rtperf
# send from h1 to it with SENDER_ARGS (JSON in $D/NAME.tx). The receiver
# stops 2 s after the last datagram, or after 20 s if none comes.
pair() {
	local name=$1 i pid rc
	shift
	on_bg h2 rtperf recv -j -w 2 -t 20 -o "$D/$name.csv" 5000 \
		>"$D/$name.rx" 2>"$D/$name.rxerr"
	pid=$!
	wait_line "$D/$name.rxerr" listening $pid
	on h1 rtperf send -j "$@" "$(host_ip h2)" 5000 >"$D/$name.tx" 2>"$D/$name.txerr"
	rc=$?
	wait $pid
	ktap_info "$name: sent $(jq -c '{sent, frame_bps, late_ns, reservation}' "$D/$name.tx" 2>/dev/null)"
	ktap_info "$name: received $(jq -c '.flows[] | {received, lost, duplicates, reordered,
		frame_bps, delay_ns, ipdv_mean: .ipdv_ns.mean, window}' "$D/$name.rx" 2>/dev/null)"
	[ $rc = 0 ] || sed 's/^/# /' "$D/$name.txerr"
	# Where order was lost: each late datagram, with its send and receive
	# times (ns) beside those of the newest one before it.
	# (columns: flow, seq, sched_ns, tx_ns, rx_ns, size)
	awk -F, 'NR > 1 && $2 < max { printf "%s: seq %d (sent %d, received %d) after seq %d (sent %d, received %d)\n", n, $2, $4, $5, max, mtx, mrx }
		NR > 1 && $2 > max { max = $2; mtx = $4; mrx = $5 }' n="$name" max=-1 "$D/$name.csv" 2>/dev/null |
		head -n 5 | while read -r l; do ktap_info "$l"; done
	return $rc
}

# check NAME DESC JQ_EXPR: ok when JQ_EXPR holds of the receiver's first
# flow, with $tx the sender's report
check() {
	ktap_result "$2" "$(holds '.flows[0] as $f | $tx[0] as $tx | $f | '"$3" \
		--slurpfile tx "$D/$1.tx" "$D/$1.rx" 2>/dev/null; echo $?)"
}
# whole: every datagram sent arrived once, in order
WHOLE='.received == $tx.sent and .lost == 0 and .duplicates == 0 and .reordered == 0'
within() { echo "(. >= $1 * (1 - $2 / 100) and . <= $1 * (1 + $2 / 100))"; }

ktap_begin 12
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2" || ktap_skip_all "cannot build topology"
# As on a real network, one flow's frames reach the switch in order: the
# switch on a CPU of its own, not wherever each sender's frame happened to
# be sent from (a veth delivers on the sending CPU, and on PREEMPT_RT each
# CPU's backlog is handled by its own thread: a connection's frames came
# out of order, 1 in 1239, once in a few runs).
topo_switch_cpu sw1 || ktap_skip_all "cannot give the switch its CPU"
"$TOP/tc-configs/ethereal-switch" -n "$(ns_of sw1)" -r 100mbit br0 ||
	ktap_skip_all "cannot make the switch"
rm -f $SOCK
on_bg h1 rtcd -i eth0 -S $SOCK 2>"$D/rtcd.log"
RTCD=$!
defer kill "$RTCD"
for i in $(seq 100); do [ -S $SOCK ] && break; sleep 0.1; done
[ -S $SOCK ] || ktap_skip_all "rtcd did not start"
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
on h2 ping -c 1 -W 2 "$(host_ip h1)" >/dev/null

# --- CBR, best effort ---
pair cbr -r 5mbit -t 3 -f 1
check cbr "cbr 5 Mbit/s: every datagram arrived, none lost, duplicated or reordered" \
	"$WHOLE and .received > 1000"
check cbr "cbr 5 Mbit/s: frame rate and 80 ms window mean within 3%" \
	"(.frame_bps | $(within 5000000 3)) and (.window.mean_bps | $(within 5000000 3))"
check cbr "cbr: delays sane: 0 < min <= p50 <= p99 <= p99.9 <= max < 1 s, from intended no less" \
	'.delay_ns as $d | $d.min > 0 and $d.min <= $d.p50 and $d.p50 <= $d.p99 and
	 $d.p99 <= $d.p999 and $d.p999 <= $d.max and $d.max < 1e9 and
	 .jitter_ns >= 0 and .ipdv_ns.n == .received - 1 and .ipdv_ns.max <= $d.max - $d.min and
	 .delay_app_ns.min >= $d.min and .delay_app_ns.max >= $d.max'
check cbr "cbr: inter-arrival mean is the period (2.42 ms) within 3%, histogram complete" \
	"(.iat_ns.mean | $(within 2422400 3)) and
	 ([.iat_ns.histogram[][1]] | add) == .received - 1"
ktap_result "cbr: the CSV has a line per datagram, with its flow and numbers" \
	"$(awk -F, 'NR > 1 && $1 == 1 && $2 == NR - 2 { n++ } END { print n }' "$D/cbr.csv" |
	   grep -qx "$(jq '.flows[0].received' "$D/cbr.rx")"; echo $?)"

# --- Poisson ---
pair poisson -p poisson -e 1 -r 5mbit -t 3
check poisson "poisson 5 Mbit/s: every datagram arrived, mean rate within 10%" \
	"$WHOLE and (.frame_bps | $(within 5000000 10))"

# --- two senders, one receiver ---
on_bg h2 rtperf recv -j -w 2 -t 20 5001 >"$D/two.rx" 2>"$D/two.rxerr"
pid=$!
wait_line "$D/two.rxerr" listening $pid
on_bg h1 rtperf send -f 7 -r 1mbit -n 100 "$(host_ip h2)" 5001 >/dev/null
on h1 rtperf send -f 8 -r 1mbit -n 50 -s 200 "$(host_ip h2)" 5001 >/dev/null
wait $pid
ktap_result "two flows into one receiver: reported apart by flow id" \
	"$(holds '[.flows[] | [.flow, .received]] == [[7, 100], [8, 50]]' "$D/two.rx"; echo $?)"

# --- through a reservation ---
# librttr never catches up what a stall of the sender took beyond its
# tolerance (unused_ns): the rate is 5 Mbit/s less that, the stall bounded.
pair reserved -R -S $SOCK -r 5mbit -t 3
check reserved "-R: reserved through rtcd, every datagram arrived, within 3% of 5 Mbit/s, stalls aside" \
	"$WHOLE and .received > 1000 and (\$tx.reservation.id | type == \"string\") and
	 (\$tx.reservation.unused_ns / 3e9) as \$stalled | \$stalled < 0.1 and
	 .frame_bps <= 5000000 * 1.03 and .frame_bps >= 5000000 * 0.97 * (1 - \$stalled)"
for i in $(seq 40); do
	[ "$(json_first "$(ctl sw1 -j show br0)" connections)" = 0 ] && break
	sleep 0.05
done
ktap_result "-R: the connection is gone from the switch once the sender exits" \
	"$([ "$(ctl sw1 -j show br0 | jq -r '.[0].connections')" = 0 ]; echo $?)"

# --- senders started together (--start), one in batches (-k) ---
on_bg h2 rtperf recv -j -w 2 -t 20 -o "$D/sync.csv" 5002 >"$D/sync.rx" 2>"$D/sync.rxerr"
pid=$!
wait_line "$D/sync.rxerr" listening $pid
rtperf_start "$D" "$(host_ip h2)" 5002 50 48 on h1 rtperf
wait $pid
ktap_info "sync: $(jq -c '{sent, start_ns, first_ns, skipped, stall_max_ns, late_ns}' "$D/s1.tx" "$D/s2.tx" | tr '\n' ' ')"
ktap_result "--start: both senders' schedules start at the time the lock's file gave" \
	"$(holds -s "$RTPERF_STARTED"' length == 2 and (map(started($at)) | all)' \
		--argjson at "$at" "$D/s1.tx" "$D/s2.tx"; echo $?)"
ktap_result "-k 4: batches of four back to back, one intended time each, every one arrived" \
	"$(rtperf_batches "$D/sync.csv" 48; echo $?)"

# --- usage errors ---
rc=0
for args in "send -r fast 10.0.0.2 5000" "send -b 64k 10.0.0.2 5000" \
	    "send -s 10 10.0.0.2 5000" "send 10.0.0.256 5000" "recv -W 0 5000" \
	    "recv 70000" "bogus"; do
	out=$(rtperf $args 2>&1 >/dev/null)
	r=$?
	ktap_info "rtperf $args: $r: $(head -n 1 <<<"$out")"
	[ $r = 2 ] && [ -n "$out" ] || rc=1
done
ktap_result "bad arguments: exit 2 with a message" $rc
ktap_end
