#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtperf send's --start and -k natively, on the loopback of a network
# namespace of its own: two senders held on a lock's file start their
# schedules at the time it then holds, batches arrive in fours with one
# intended time; a sender whose receiver is gone stops on the refusal
# with one lateness a departure that went (late_ns.mean was divided by
# datagrams, and took a departure that failed). Needs root.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/fake_rtcd.sh"
. "$top/selftests/lib/rtperf_start.sh"

fake_netns "$0" "$@"
command -v flock >/dev/null || ktap_skip_all "no flock"
rtperf=$top/bench/rtperf/rtperf
[ -x "$rtperf" ] || ktap_skip_all "rtperf not built (make userspace)"
ip link set lo up || ktap_skip_all "no loopback"
dir=$(mktemp -d /tmp/rtperf_start.XXXXXX) || ktap_skip_all "no scratch directory"
defer rm -rf "$dir"

ktap_begin 4
"$rtperf" recv -j -w 1 -t 10 -o "$dir/rx.csv" 5002 >"$dir/rx" 2>"$dir/rxerr" &
rx=$!
wait_line "$dir/rxerr" listening $rx || ktap_skip_all "receiver: $(cat "$dir/rxerr")"
rtperf_start "$dir" 127.0.0.1 5002 20 24 "$rtperf" >"$dir/fail"
rc=$?
wait $rx
ktap_result "--start: both start at the file's time, every datagram sent" \
	"$([ $rc = 0 ] && holds -s "$RTPERF_STARTED"' (map(started($at) and
		  .late_ns.mean <= .late_ns.max) | all) and .[0].sent == 20 and .[1].sent == 24' \
		--argjson at "$at" "$dir/s1.tx" "$dir/s2.tx"
	  echo $?)" "$(cat "$dir/fail" "$dir/s1.tx" "$dir/s2.tx")"
ktap_result "-k 4: batches of four, one intended time each, every one arrived" \
	"$(rtperf_batches "$dir/rx.csv" 24; echo $?)"

# Nobody on the port: the first datagram's port unreachable fails the
# second send. One lateness, that of the departure that went.
"$rtperf" send -j -r 1mbit -n 5 127.0.0.1 5003 >"$dir/s3" 2>"$dir/s3err"
ktap_result "a refused sender fails after its first datagram" \
	"$([ $? = 1 ] && grep -q refused "$dir/s3err" && holds '.sent == 1' "$dir/s3"; echo $?)" \
	"$(cat "$dir/s3" "$dir/s3err")"
ktap_result "its lateness is that one departure's: mean = max" \
	"$(holds '.late_ns.mean == .late_ns.max' "$dir/s3"; echo $?)" "$(cat "$dir/s3")"
ktap_end
