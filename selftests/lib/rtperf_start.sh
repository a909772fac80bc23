# SPDX-License-Identifier: GPL-2.0
# Two rtperf senders started together (--start), one in batches (-k), as
# selftests/rtperf.sh checks them through a switch and
# selftests/unit/rtperf_start.sh on a loopback. Source after ktap.sh.
#
#   rtperf_start DIR DADDR DPORT N1 N2 RUN...
#        flow 1 (--skip, N1 datagrams of 1472 bytes) and flow 2 (-k 4,
#        N2 of 200 bytes), both at 1 Mbit/s, RUN... the command before
#        "send" ("rtperf", "on h1 rtperf"), held on DIR/go's lock until
#        it holds a CLOCK_REALTIME start 300 ms ahead ($at). Their JSON in
#        DIR/s1.tx and DIR/s2.tx; fails, a failed one's stderr as
#        diagnostics, when one did.
#        Start the receiver first: a process started while the lock is
#        held inherits its open file, and with it the lock (flock's is
#        the open file's) until it exits: the senders would wait for the
#        receiver's end.
#   $RTPERF_STARTED
#        jq: defines started($at), true of a sender's JSON whose schedule
#        began at $at: its first departure at $at, or, for a --skip
#        sender, at a later slot of that same schedule when a stall at
#        the start skipped the first ones. Under TCG a stall of a frame
#        time (12 ms at 1 Mbit/s) happens; CI saw one skip its first.
#        Within 1 us: jq holds the nanosecond stamps in doubles, 256 ns
#        apart at today's times.
#   rtperf_batches CSV N2
#        ok when flow 2's N2 datagrams in the receiver's CSV came in fours
#        with one intended time each, 4 x 242 bytes of frames apart

rtperf_start() {
	local dir=$1 daddr=$2 dport=$3 n1=$4 n2=$5 fd s1 s2 rc=0
	shift 5
	: >"$dir/go"
	exec {fd}>"$dir/go"
	flock -x "$fd"
	"$@" send -j --skip --start "$dir/go" -f 1 -r 1mbit -n "$n1" "$daddr" "$dport" \
		>"$dir/s1.tx" 2>"$dir/s1.txerr" {fd}>&- &
	s1=$!
	"$@" send -j --start "$dir/go" -f 2 -k 4 -r 1mbit -n "$n2" -s 200 "$daddr" "$dport" \
		>"$dir/s2.tx" 2>"$dir/s2.txerr" {fd}>&- &
	s2=$!
	wait_line "$dir/s1.txerr" ready $s1 && wait_line "$dir/s2.txerr" ready $s2
	at=$(( (${EPOCHREALTIME/./} + 300000) * 1000 ))
	echo "$at" >"$dir/go"
	exec {fd}>&-
	wait $s1 || { rc=1; sed 's/^/# flow 1: /' "$dir/s1.txerr"; }
	wait $s2 || { rc=1; sed 's/^/# flow 2: /' "$dir/s2.txerr"; }
	return $rc
}

RTPERF_STARTED='def started($at): .start_ns == $at and
	((.first_ns - $at) as $d | ($d / .gap_ns | round) as $k |
	 $d == 0 or (.skip and $k >= 1 and $k <= .skipped and
		     ($d - $k * .gap_ns | fabs) <= 1000));'

rtperf_batches() {
	awk -F, -v n="$2" '$1 == 2 { got++; t[$2] = $3 } END {
		bad = got != n
		for (s = 0; s < n; s++) {
			if (t[s] != t[s - s % 4]) bad = 1
			if (s % 4 == 0 && s && t[s] - t[s - 4] != 4 * 242 * 8 * 1000) bad = 1
		}
		exit bad }' "$1"
}
