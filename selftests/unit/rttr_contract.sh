#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# librttr's side of the contract, natively against a stand-in for rtcd
# (selftests/lib/fake_rtcd.sh): what rttr_info() reports from an older
# rtcd's reply (the contract asked for, no delay bound) and from a newer
# one's (the burst the path granted, its delay bound); max_delay_ns sent
# to rtcd only when set, and a bound over it, or none, refused with ETIME
# and the connection closed; rtcd's "delay" refusal as ETIME with its hop;
# a reply whose contract makes no sense as EPROTO; tick mode reported as
# the paper's bucket. Needs root (a network namespace).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/fake_rtcd.sh"

fake_netns "$0" "$@"

send=$top/rttr/rttr-send
fake_env rttr_contract

# run [REPLY] -- RTTR-SEND ARGS: a fresh fake rtcd answering REPLY, then
# rttr-send's JSON in $out, what it said on stderr in $err, its status in
# $rc, the requests rtcd got in $reqs
run() {
	local reply=
	[ "$1" = -- ] || { reply=$1; shift; }
	shift
	fake_rtcd "$sock" "$dir/rtcd.out" ${reply:+"$reply"} || ktap_skip_all "fake rtcd"
	out=$("$send" -S "$sock" -j "$@" 10.0.0.2 5000 5mbit -n 3 2>"$dir/err")
	rc=$?
	err=$(<"$dir/err")
	fake_rtcd_stop
	reqs=$(grep -v '^ready' "$dir/rtcd.out")
}
# info JQ: the JSON report's info satisfies JQ
info() { holds ".info | $1" <<<"$out" 2>/dev/null; }

ktap_begin 12

# An older rtcd: the contract is what was asked, the bound unknown; per-packet
# pacing, half of 10 ms of burst beyond a frame its tolerance, the rest the
# jitter budget.
run -- -v
ktap_result "older rtcd: the contract asked for (10 ms of burst), no bound" \
	"$(info '.rate_bps == 5000000 and .burst == 6250 and .max_pkt == 1514 and
		.hops == 1 and .delay_bound_ns == null'; echo $?)" "$out"
ktap_result "per-packet by default: half the burst beyond a frame for each, tolerance and jitter" \
	"$(info '.pacing == "packet" and .tolerance == 3882 and .resolution_ns == 200000 and
		.jitter_ns == 3788800'; echo $?)" "$out"
ktap_result "the request carries no max_delay_ns when none is set" \
	"$(holds -s '.[0] | .op == "open" and .burst == 6250 and has("max_delay_ns") == false' \
		<<<"$reqs"; echo $?)" "$reqs"
ktap_result "-v prints the contract and the pacing" \
	"$(grep -q 'contract rate 5Mbit/s burst 6250b max_pkt 1514, 1 hop, delay bound unknown' <<<"$err" &&
	   grep -q 'pacing per-packet, resolution 200us, tolerance 3882b, jitter budget 3.789ms' <<<"$err"
	   echo $?)" "$err"

# A newer rtcd: the path granted less burst (the pacer keeps half of it
# beyond a frame for the jitter) and promised a bound.
run '{"rate": 5000000, "burst": 4000, "max_pkt": 1514, "delay_bound_ns": 2000000, "hops": 3}' -- -d 3ms
ktap_result "newer rtcd: the granted burst and the bound reported" \
	"$(info '.burst == 4000 and .delay_bound_ns == 2000000 and .hops == 3 and
		.tolerance == 2757 and .jitter_ns == 1988800'; echo $?)" "$out"
ktap_result "max_delay_ns sent to rtcd" \
	"$(holds -s '.[0].max_delay_ns == 3000000' <<<"$reqs"; echo $?)" "$reqs"

# A bound over the maximum, or none: refused, and the connection closed.
run '{"delay_bound_ns": 2000000}' -- -d 1ms
ktap_result "a bound over max_delay_ns: ETIME, the connection closed" \
	"$([ $rc = 1 ] && grep -q 'delay bound, 2000000 ns, exceeds max_delay_ns (1000000) (Timer expired)' <<<"$err" &&
	   holds -s '.[1] | .op == "close" and .id == "03:09"' <<<"$reqs"; echo $?)" "$err $reqs"
run -- -d 1ms
ktap_result "no bound and a max_delay_ns: ETIME, the connection closed" \
	"$([ $rc = 1 ] && grep -q 'promises no delay bound.*(Timer expired)' <<<"$err" &&
	   holds -s '.[1].op == "close"' <<<"$reqs"; echo $?)" "$err $reqs"

# rtcd's refusal for the delay: ETIME, with the hop.
run '{"ok": false, "id": null, "proxy": null, "error": "delay", "hop": 2,
	"message": "the delay bound exceeds the maximum (switch 2)"}' -- -d 1ms
ktap_result "a \"delay\" refusal: ETIME, with its hop" \
	"$([ $rc = 1 ] && grep -q 'maximum (switch 2) \[delay, hop 2\] (Timer expired)' <<<"$err"; echo $?)" "$err"

# Nonsense in the contract: EPROTO.
run '{"burst": 1000}' --
ktap_result "a granted burst under max_pkt: EPROTO" \
	"$([ $rc = 1 ] && grep -q "contract or delay bound makes no sense (Protocol error)" <<<"$err"; echo $?)" "$err"

# Tick mode: the bucket of two periods, no budget past the contract.
run -- -P tick
ktap_result "tick mode: the paper's bucket, 20 ms of burst, as asked" \
	"$(info '.pacing == "tick" and .burst == 12500 and .tolerance == 12500 and
		.resolution_ns == 10000000 and .jitter_ns == 0'; echo $?)" "$out"
ktap_result "tick mode: the frames sent" "$(holds '.sent == 3' <<<"$out"; echo $?)" "$out"

ktap_end
