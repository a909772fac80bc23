#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/burst's burst_count natively, on run directories written here: a
# burst is clean when it arrived whole and a best-effort frame was on its
# way at every moment from its first send to its last arrival; a stall
# that froze the frames on their way does not spoil it, a background that
# ran dry does; every frame sent and not received is lost, the last
# burst's too.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
eval "$(sed -n '/^burst_count() {/,/^}/p' "$top/bench/burst")"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
H=flow,seq,sched_ns,tx_ns,rx_ns,size

# run SENT "SEQ:TX:RX ..." "TX:RX ...": the flow's frames (bursts of 3,
# ms) and the background's, into $d
run() {
	local f
	echo "{\"sent\": $1}" >"$d/rt.tx"
	{ echo $H; for f in $2; do IFS=: read -r s t r <<<"$f"
		echo "1,$s,$((s / 3 * 100000000)),$((t * 1000000)),$((r * 1000000)),1472"; done; } >"$d/rt.csv"
	{ echo $H; s=0; for f in $3; do IFS=: read -r t r <<<"$f"
		echo "3,$s,0,$((t * 1000000)),$((r * 1000000)),1472"; s=$((s + 1)); done; } >"$d/bg.csv"
}

# check NAME KEY WANT: burst_count's KEY is WANT
check() {
	local got
	got=$(burst_count "$d" 3 | jq ".$2")
	ktap_result "$1" "$([ "$got" = "$3" ]; echo $?)" "$2 $got"
}

# background queued back to back from 0 to 20 ms: each frame on its way
# from its send until it leaves 1.2 ms after the one before
BUSY="0:2 0:3 1:4 2:5 3:6 4:7 5:8 6:9 7:10 8:11 9:12 10:13 11:14 12:15 13:20"
ktap_begin 8
run 3 "0:1:3 1:1:5 2:1:7" "$BUSY"
check "a whole burst on a busy port is clean" clean 1
run 3 "0:1:3 1:1:5 2:1:7" "0:2 1:3 5:8 6:9"
check "the background ran dry from 3 to 5 ms: not clean" clean 0
run 3 "0:1:3 1:1:5 2:1:17" "0:3 1:16 2:18"
check "a stall froze everything on its way from 4 to 15 ms: clean" clean 1
run 3 "0:1:3 1:1:5 2:1:7 0:1:3" "$BUSY"
check "a duplicate is one frame" received 3
run 6 "0:1:3 1:1:5 2:1:7 3:10:12 5:10:14" "$BUSY"
check "a frame of the second burst lost" lost 1
check "... and the burst with it" lost_bursts 1
run 9 "0:1:3 1:1:5 2:1:7 3:10:12 4:10:14 5:10:16" "$BUSY"
check "the last burst lost whole still counts" lost 3
check "... as a burst sent" bursts 3
ktap_end
