#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtperf send -R's report of its connection, natively against a stand-in
# for rtcd (selftests/lib/fake_rtcd.sh): the contract the path granted and
# its delay bound as rttr_info() tells them (what rtperf analyze sets a
# reserved flow's delays against, Documentation/benchmarks.md), null for
# an older rtcd that promises none, and no reservation at all on a plain
# socket. Needs root (a network namespace).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/fake_rtcd.sh"

fake_netns "$0" "$@"

rtperf=$top/bench/rtperf/rtperf
[ -x "$rtperf" ] || ktap_skip_all "rtperf not built (make userspace)"
fake_env rtperf_reservation

# send [REPLY]: a fresh fake rtcd answering REPLY, then a short reserved
# rtperf send's JSON in $out
send() {
	fake_rtcd "$sock" "$dir/rtcd.out" "$@" || ktap_skip_all "fake rtcd"
	out=$("$rtperf" send -j -R -S "$sock" -r 1mbit -t 0.2 10.0.0.2 5000 2>"$dir/err")
	fake_rtcd_stop
}

# check DESC JQ: ok when JQ holds of $out (none: not ok)
check() {
	local r
	holds "$2" <<<"$out" 2>/dev/null && { ktap_ok "$1"; return; }
	r=$(jq "$2" <<<"$out" 2>&1)
	ktap_fail "$1" "${r:-no output} $(cat "$dir/err")"
}

ktap_begin 3
send '{"burst": 4000, "delay_bound_ns": 2000000}'
check "the contract the path granted and its delay bound" '
	.reservation | .rate_bps == 1000000 and .burst == 4000 and .max_pkt == 1514
	and .hops == 1 and .delay_bound_ns == 2000000 and .pacing == "packet"
	and .tolerance > 0 and .id == "03:09"'
send
check "an rtcd that promises no bound: delay_bound_ns null" '
	.reservation | .delay_bound_ns == null and .rate_bps == 1000000'
out=$("$rtperf" send -j -r 1mbit -t 0.2 10.0.0.2 5000 2>"$dir/err")
check "a plain socket: no reservation" '.reservation == null and .sent > 0'
ktap_end
