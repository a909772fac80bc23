#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmarks' methods end to end (bench/lib-point.sh, rtperf analyze),
# so that the bench cannot rot: bench/nto1 in its quick form
# (BENCH_QUICK=1), EtheReal paced and prio, the best-effort and platinum
# cases at 30% per source: seven senders started together per run, runs
# checked and repeated, summarized per flow and class. Fails when the
# scenario fails or its results are malformed: every point with its runs
# and why an invalid one is, estimates with their intervals, ordered
# percentiles and CDFs, Jain's index within its bounds, the commit stamp,
# the Markdown table, every datagram exported, the departures skipped
# after stalls counted, the reserved platinum stream's contract and delay
# bound beside its largest delay. Never on the figures (nor on whether the
# bound was kept: the hosts' stacks count against it, and an emulated
# machine makes of them what it will). Tests no kernel difference: once.
# About 2 minutes.
# once
# timeout=600
. "$(dirname "$0")/lib/ktap.sh"

TOP=$(cd "$(dirname "$0")/.." && pwd)
D=$(mktemp -d)
defer rm -rf "$D"

ktap_begin 10
start=$SECONDS
BENCH_QUICK=1 BENCH_COMMIT=${BENCH_COMMIT:-check} NTO1_CONFIGS="ethereal-paced prio" \
	NTO1_CASES="be plat" "$TOP/bench/nto1" --in-vm "$D" 2>&1 | sed 's/^/# /'
rc=${PIPESTATUS[0]}
ktap_result "bench/nto1 (quick) ran through in $((SECONDS - start)) s" "$rc"
J=$D/nto1.json
[ -s "$J" ] || { ktap_info "no $J"; echo '{}' >"$J"; }

# check DESC JQ: ok when JQ holds of nto1.json (none: not ok); what JQ
# says of it only on failure (a jq costs ~270 ms under emulation)
check() {
	local out
	holds "$2" "$J" 2>/dev/null && { ktap_ok "$1"; return; }
	out=$(jq "$2" "$J" 2>&1)
	ktap_fail "$1" "${out:-no output}"
}

check "three points (ethereal-paced be and plat, prio plat), stamped with the commit and kernel" '
	.scenario == "nto1" and (.machine.commit | type == "string") and (.machine.quick == true)
	and (.machine.kernel | type == "string")
	and ([.results[] | "\(.config) \(.case)"] == ["ethereal-paced be", "ethereal-paced plat", "prio plat"])'
check "each point: its runs, valid ones counted, why the others are not" '
	(.results | length > 0)
	and all(.results[]; (.runs | type == "number") and .runs >= 2 and .valid <= .runs
	    and (.run | length) == .runs
	    and ([.run[] | select(.valid)] | length) == .valid
	    and all(.run[]; .valid or (.why | type == "string" and length > 0)))'
check "estimates: a mean with its interval over the valid runs, none without" '
	[.results[] | .valid as $v | (.flows[], .classes[]) | (.throughput_bps, .loss_pct, .delay_mean_us)
	 | if $v == 0 then .n == 0 and .mean == null
	   else .n <= $v and (.mean | type == "number")
	        and (.n < 2 or (.ci | type == "number" and . >= 0)) end] | length > 0 and all'
check "pooled delays ordered (min <= p50 <= p99 <= p99.9 <= max) and CDFs as long as cdf_p, rising" '
	[.results[] | select(.valid > 0) | (.cdf_p | length) as $n | .classes[]
	 | (.delay_us | .min <= .p50 and .p50 <= .p99 and .p99 <= .p999 and .p999 <= .max)
	   and (.delay_cdf_us | length) == $n
	   and (.delay_cdf_us as $c | all(range(1; $c | length); $c[.] >= $c[. - 1]))] | all'
check "Jain's index of the loss of seven (or six) sources within [1/n, 1]" '
	all(.results[] | select(.valid > 0) | .classes[] | select(.flows > 1);
	    .jain_loss.mean >= 1 / .flows - 1e-9 and .jain_loss.mean <= 1 + 1e-9)'
check "each point: the departures its senders skipped after stalls, counted, never hidden" '
	(.results | length > 0)
	and all(.results[]; (.skipped | type == "number") and .departures >= .skipped
	    and (.valid == 0 or .departures > 0)
	    and .skipped == ([.flows[].skipped] | add))'
check "platinum on EtheReal: its contract and delay bound beside its largest delay; none on prio" '
	(.results[] | select(.config == "ethereal-paced" and .case == "plat")
	 | .valid == 0 or (.bounds | length == 1 and (.[0] | .name == "h1"
		and .delay_bound_us > 0 and .delay_max_us > 0 and .ratio > 0
		and .contract.rate_bps > 0 and .contract.hops == 1 and .contract.pacing == "packet"
		and .kept == (.failed_runs == 0))))
	and all(.results[] | select(.config == "prio"); .bounds == [])'
ktap_result "nto1.md: a row per class of every point, each with its runs" \
	"$([ "$(grep -c '^| \(be\|plat\) | 1518 | 30% | [a-z-]* | [a-z]* | \([0-9]/[0-9]\|invalid\)' \
		"$D/nto1.md" 2>/dev/null)" = 5 ]; echo $?)" \
	"$(cat "$D/nto1.md" 2>/dev/null)"
n=0
for f in "$D"/data/*.csv.gz; do
	[ -e "$f" ] || continue
	gzip -cd "$f" | head -n 1 | grep -qx 'run,rx,flow,seq,sched_ns,tx_ns,rx_ns,size' &&
		[ "$(gzip -cd "$f" | wc -l)" -gt 100 ] && n=$((n + 1))
done
ktap_result "every datagram of every run exported, a file per point" "$([ $n = 3 ]; echo $?)" \
	"$(ls -l "$D/data" 2>&1)"
ktap_end
