#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtperf analyze (bench/'s methods, Documentation/benchmarks.md) natively,
# on made-up runs with known answers: the common steady-state window and
# the warm-up, the rate of (n - 1) frames over last - first arrival, the
# loss and delays of what was meant to be sent in the window, every reason
# a run is invalid (a sender behind, one that skipped too much, a socket
# drop, flows that barely overlapped, a run that gave up), estimates over
# the valid runs only, with Student's interval, Jain's index of a class,
# departures skipped after stalls counted, a reserved flow's largest delay
# against its delay bound, what the switches measured of it hop by hop
# (their monitors' events, followed along the path), a reservation that
# rtcd open holds for an unshaped sender, and the export.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"

rtperf=$top/bench/rtperf/rtperf
[ -x "$rtperf" ] || ktap_skip_all "rtperf not built (make userspace)"
export LD_LIBRARY_PATH=$top/rttr
D=$(mktemp -d)
defer rm -rf "$D"

T0=1795000000000000000
MS=1000000

# sender DIR NAME N GAP_MS FIRST_MS [LATE_NS [SKIPPED]]: NAME.tx of a CBR
# sender of N 1000-byte datagrams GAP_MS apart from T0 + FIRST_MS
sender() {
	local skip=false
	[ -n "${7:-}" ] && skip=true
	printf '{"role":"send","size":1000,"batch":1,"sent":%d,"gap_ns":%d,"late_ns":{"mean":0,"max":%d,"over_gap":0},"enobufs":0,"skip":%s,"skipped":%d,"stall_max_ns":%d,"start_ns":%d,"first_ns":%d,"last_ns":%d}\n' \
		"$3" $(($4 * MS)) "${6:-0}" "$skip" "${7:-0}" $((${7:-0} ? 9 * MS : 0)) \
		$((T0 + $5 * MS)) $((T0 + $5 * MS)) $((T0 + ($5 + ($3 - 1) * $4) * MS)) >"$1/$2.tx"
}

# run DIR [A_DELAY_US [DROPS [B_FIRST_MS]]]: a run of flow a (1 ms apart,
# 1000 datagrams, A_DELAY_US in the network and 10 us at the host) and
# flow b (2 ms apart, 500 from B_FIRST_MS, 100 us, 100 to 109 lost), both
# at receiver rx, whose socket dropped DROPS
run() {
	local d=$1 ad=${2:-100} drops=${3:-0} bf=${4:-0}
	mkdir -p "$d"
	printf '{"role":"recv","socket_drops":%d,"flows":[]}\n' "$drops" >"$d/rx.rx"
	# times as T0's seconds and ns after them: awk's numbers are doubles
	awk -v t0s=$((T0 / 1000000000)) -v ms=$MS -v ad="$ad" -v bf="$bf" '
	function t(ns) { return sprintf("%d%09d", t0s + int(ns / 1e9), ns % 1e9) }
	BEGIN {
		print "flow,seq,sched_ns,tx_ns,rx_ns,size"
		for (k = 0; k < 1000; k++) {
			s = k * ms
			printf "1,%d,%s,%s,%s,1000\n", k, t(s), t(s + 10000), t(s + 10000 + ad * 1000)
		}
		for (k = 0; k < 500; k++) {
			if (k >= 100 && k < 110) continue
			s = bf * ms + 2 * k * ms
			printf "2,%d,%s,%s,%s,1000\n", k, t(s), t(s + 10000), t(s + 110000)
		}
	}' >"$d/rx.csv"
	sender "$d" a 1000 1 0
	sender "$d" b 500 2 "$bf"
}

# reserve DIR BOUND_US: flow a reserved, its path promising BOUND_US
reserve() {
	jq -c --argjson b "$(($2 * 1000))" '.reservation = {id: "1.2", proxy: "10.1.0.1",
		rate_bps: 9000000, burst: 3000, max_pkt: 1514, hops: 1, delay_bound_ns: $b,
		pacing: "packet", tolerance: 1500, send_max_ns: 0, late_max_ns: 0}' \
		"$1/a.tx" >"$1/a.tx.new" && mv "$1/a.tx.new" "$1/a.tx"
}

run "$D/r1"; reserve "$D/r1" 150			# a: 100 us, within 150
run "$D/r2"; sender "$D/r2" a 1000 1 0 5000000		# 5 ms behind, gap 1 ms
run "$D/r3" 100 3					# the socket dropped 3
run "$D/r4" 100 0 500					# b starts 0.5 s late
run "$D/r5"; sender "$D/r5" a 1000 1 0 0 30		# 30 of 1030 skipped
run "$D/r6" 200; sender "$D/r6" a 1000 1 0 0 5		# a: 200 us, 5 skipped
reserve "$D/r6" 150					# above its bound
run "$D/r7"; echo "no reservation" >"$D/r7/why"	# gave up

# hops DIR SW2_MAX_MS SW2_ON_TIME_MS SW2_BROKEN: flow a reserved as 03:01
# to 10.0.0.3:5000 through sw1 (output ID 7) and sw2 (to the receiver),
# each promising 21 ms, as their monitors (etherealctl -j -s) saw it go;
# beside it at sw1 another flow's connection with ID 7, to port 5001
hops() {
	run "$1"; reserve "$1" 150
	jq -c '.daddr = "10.0.0.3" | .dport = 5000 | .reservation.id = "03:01"' "$1/a.tx" \
		>"$1/a.tx.new" && mv "$1/a.tx.new" "$1/a.tx"
	local m='"promise_ns":21000000'
	cat >"$1/hops-sw1.json" <<-EOT
	{"event":"added","bridge":"br0","dev":"swp1","id":769,"out":"trk2","outid":7,"rate":1125000,"daddr":"10.0.0.3","dport":5000,"measured":{"frames":0,"max_ns":0,"on_time_max_ns":0,"over":0,"over_on_time":0,$m}}
	{"event":"teardown","bridge":"br0","dev":"swp2","id":7,"out":"trk2","outid":8,"rate":1125000,"daddr":"10.0.0.3","dport":5001,"measured":{"frames":900,"max_ns":90000000,"on_time_max_ns":90000000,"over":9,"over_on_time":9,$m}}
	{"event":"teardown","bridge":"br0","dev":"swp1","id":769,"out":"trk2","outid":7,"rate":1125000,"daddr":"10.0.0.3","dport":5000,"measured":{"frames":900,"max_ns":3000000,"on_time_max_ns":3000000,"over":0,"over_on_time":0,$m}}
	EOT
	cat >"$1/hops-sw2.json" <<-EOT
	{"event":"teardown","bridge":"br0","dev":"trk1","id":7,"out":"swp3","lladdr":"02:00:00:00:00:03","rate":1125000,"daddr":"10.0.0.3","dport":5000,"measured":{"frames":900,"max_ns":$(($2 * MS)),"on_time_max_ns":$(($3 * MS)),"over":2,"over_on_time":$4,$m}}
	EOT
}
hops "$D/h1" 25 20 0					# sw2 over during stalls only
hops "$D/h2" 24 22 1					# sw2 over, not a stall

# held DIR: flow a unshaped to the proxy of a reservation rtcd open holds
# (bench/lib-point.sh's lp_open: open-h1, open-h1.req) for 10.0.0.3:5000
# through sw1, and beside it h0's for port 5001 under the same proxy (a
# switch may give hosts on different ports the same connection ID) and
# another contract, found first: the port tells them apart
held() {
	run "$1"
	jq -c '.daddr = "198.18.0.5" | .dport = 5000' "$1/a.tx" >"$1/a.tx.new" &&
		mv "$1/a.tx.new" "$1/a.tx"
	local c='"lifetime_ms":0,"hops":1,"rate":9000000,"burst":3000,"max_pkt":1514,"delay_bound_ns":150000'
	echo "{\"ok\":true,\"id\":\"03:01\",\"proxy\":\"198.18.0.5\",${c/9000000/1000000}}" >"$1/open-h0"
	echo "10.0.0.3 5001" >"$1/open-h0.req"
	echo "{\"ok\":true,\"id\":\"03:01\",\"proxy\":\"198.18.0.5\",$c}" >"$1/open-h1"
	echo "10.0.0.3 5000" >"$1/open-h1.req"
	echo 1 >"$1/open-h1.pid"
	cat >"$1/hops-sw1.json" <<-EOT
	{"event":"teardown","bridge":"br0","dev":"swp1","id":769,"out":"swp3","rate":1125000,"daddr":"10.0.0.3","dport":5000,"measured":{"frames":900,"max_ns":3000000,"on_time_max_ns":3000000,"over":0,"over_on_time":0,"promise_ns":21000000}}
	EOT
}
held "$D/o1"

ktap_begin 15
out=$("$rtperf" analyze -w 0.1 -S 2 -o "$D/export.csv" -F a:rx:1:c:8336000:9000000 -F b:rx:2:c:4168000 \
	"$D"/r?)
rc=$?
ktap_result "rtperf analyze summarizes seven runs" $rc
ktap_info "$(jq -c 'del(.cdf_p, .flows, .classes)' <<<"$out")"

# check DESC JQ: ok when JQ holds of the summary (none: not ok)
check() {
	local r
	holds "$2" <<<"$out" 2>/dev/null && { ktap_ok "$1"; return; }
	r=$(jq "$2" <<<"$out" 2>&1)
	ktap_fail "$1" "${r:-no output}"
}

check "two runs valid, each other run invalid for its reason" '
	.runs == 7 and .valid == 2 and ([.run[] | .valid] == [true, false, false, false, false, true, false])
	and (.run[1].why | test("sender a fell behind its schedule by 5.0 ms"))
	and (.run[2].why | test("receiver rx.s socket dropped 3"))
	and (.run[3].why | test("overlapped 33\\.3%"))
	and (.run[4].why | test("sender a skipped 30 of 1030"))
	and (.run[6].why == "no reservation")'
# window [T0 + 100 ms, T0 + 998 ms] (b ends first); a arrives at
# k ms + 110 us: 100..997, 897 gaps of 1 ms of 1042-byte frames; b at
# 2k ms + 110 us: 50..498 but the 10 lost, 438 frames over 896 ms
check "the window: latest first send + the warm-up to the earliest last" '
	.window_s.mean == 0.898 and .run[0].overlap == 99.9'
check "rate: (n - 1) frames over last - first arrival in the window, exactly" '
	.flows[0].throughput_bps.mean == 8336000
	and .flows[1].throughput_bps.mean == (438 * 8336 / 0.896 | round)
	and .flows[0].sent_bps.n == 2'
# meant to go in the window: b's 50..499, 100..109 lost; a's 100..998
check "loss of what was meant to be sent in the window" '
	.flows[1].expected == 900 and .flows[1].lost == 20 and .flows[1].loss_pct.mean == 2.22
	and .flows[0].expected == 1798 and .flows[0].lost == 0
	and .classes[0].loss_pct.mean == 0.74'
# a's delay 100 us in r1, 200 us in r6: mean 150, t(0.975, 1) x 70.71 / sqrt 2;
# each run's p99.9 and max the same (the class's too: b's 100 us is less)
check "delay over the valid runs: the mean with Student's interval, pooled percentiles" '
	.flows[0].delay_mean_us.mean == 150 and .flows[0].delay_mean_us.ci == 635.3
	and .flows[0].delay_p999_us.mean == 150 and .flows[0].delay_p999_us.ci == 635.3
	and .flows[0].delay_max_us.mean == 150 and .flows[0].delay_max_us.n == 2
	and .classes[0].delay_max_us.mean == 150
	and .flows[0].delay_us.p50 == 100 and .flows[0].delay_us.max == 200
	and .flows[0].delay_app_us.min == 110 and .flows[0].delay_app_us.max == 210
	and .flows[0].jitter_us.mean == 0 and .flows[0].ipdv_us.mean == 0'
check "a CDF per flow, as long as cdf_p, from min to max" '
	(.cdf_p | length) as $n | .flows[0].delay_cdf_us | length == $n and .[0] == 100 and .[-1] == 200'
# loss ratios 0 and 2.22%: (x1 + x2)^2 / (2 (x1^2 + x2^2)) = 1/2
check "Jain's index of the class: one flow loses, the other not: 1/2" '
	.classes[0].jain_loss.mean == 0.5 and .classes[0].flows == 2
	and .classes[0].offered_bps == 12504000 and .classes[0].reserved_bps == null'
# valid: r1 and r6, 1000 + 500 sent in each, 5 skipped in r6
check "departures skipped after stalls counted over the valid runs, not hidden" '
	.skipped == 5 and .departures == 3005 and .skipped_pct == 0.17 and .stall_max_us == 9000
	and .flows[0].skipped == 5'
check "a reserved flow: its largest delay beside its bound, a run above it counted" '
	(.bounds | length) == 1 and .flows[1].bound == null and .bounds_exceeded == 1
	and (.bounds[0] | .name == "a" and .delay_bound_us == 150 and .delay_max_us == 200
	     and .ratio == 1.333 and .runs == 2 and .exceeded_runs == 1 and .kept == false
	     and .contract.rate_bps == 9000000 and .contract.pacing == "packet")
	and .flows[0].bound == .bounds[0]'
out=$("$rtperf" analyze -w 0.1 -F a:rx:1:c:8336000:9000000 -F b:rx:2:c:4168000 "$D/h1")
check "hop by hop: what each switch measured, stalls told apart, bound kept" '
	.bounds[0] | .kept == true and .failed_runs == 0 and .measured_runs == 1
	and ([.hops[] | [.switch, .out, .promise_us, .max_us, .on_time_max_us, .over, .over_on_time]]
	     == [["sw1", "trk2", 21000, 3000, 3000, 0, 0], ["sw2", "swp3", 21000, 25000, 20000, 2, 0]])
	and .switch_ratio == 1.19 and .switch_on_time_ratio == 0.952 and .ratio == 0.667'
out=$("$rtperf" analyze -w 0.1 -F a:rx:1:c:8336000:9000000 -F b:rx:2:c:4168000 "$D/h1" "$D/h2")
check "hop by hop over two runs: the largest of each, a frame over its promise on time breaks it" '
	.bounds_exceeded == 1 and (.bounds[0] | .kept == false and .broken_runs == 1
	and .exceeded_runs == 0 and .hops[1].max_us == 25000 and .hops[1].on_time_max_us == 22000
	and .hops[1].over == 4 and .hops[1].over_on_time == 1 and .hops[1].frames == 1800)'
out=$("$rtperf" analyze -w 0.1 -F a:rx:1:c:8336000:9000000 -F b:rx:2:c:4168000 "$D/o1")
check "a reservation rtcd open holds for an unshaped sender: its bound, what the switch measured" '
	(.bounds | length) == 1 and (.bounds[0] | .name == "a" and .delay_bound_us == 150
	and .delay_max_us == 100 and .kept == true and .measured_runs == 1
	and .contract == {rate_bps: 9000000, burst: 3000, max_pkt: 1514, hops: 1, pacing: "none"}
	and ([.hops[] | [.switch, .out, .max_us]] == [["sw1", "swp3", 3000]]))'
ktap_result "the export: every datagram of every run, tagged with the run" \
	"$([ "$(head -n 1 "$D/export.csv")" = run,rx,flow,seq,sched_ns,tx_ns,rx_ns,size ] &&
	   [ "$(grep -c '^6,rx,1,' "$D/export.csv")" = 1000 ] &&
	   [ "$(wc -l <"$D/export.csv")" = $((7 * 1490 + 1)) ]; echo $?)"
# r5: a skipped 30 of 1030 (2.9%; 1.96% of both flows' departures), over
# -S 2. As an overload (flag o) at 3x it may skip a third; at 1.05x half
# its excess, 2.4%, is under the 2.9% it skipped; and o needs an offer
# above the reservation.
over() { "$rtperf" analyze -w 0.1 -S 2 -F "a:rx:1:c:$1" -F b:rx:2:c:4168000 "$D/r5" 2>&1; }
o3=$(over 18000000:6000000:o | jq -c '[.valid, .skipped_pct]')
o105=$(over 6300000:6000000:o | jq -c '[.valid, (.run[0].why | test("more than 2.38%"))]')
bad=$(over 6000000:6000000:o; echo "rc=$?")
ktap_result "an overload (flag o) may skip half its excess, at least -S; o needs OFFERED > RESERVED" \
	"$([ "$o3" = '[1,1.96]' ] && [ "$o105" = '[0,true]' ] && [[ $bad == *"flag o needs"*rc=2 ]]; echo $?)" \
	"3x: $o3, 1.05x: $o105, not over: $bad"
ktap_end
