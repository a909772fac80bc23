#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtcd natively against a fake first switch (fake_switch.py on its link's
# veth peer): a held connection whose path is lost (the switch answers
# "expired") is down, not torn down. rtcd sets it up again on its ID for as
# long as the owner holds it: SETUPs every 500 ms for the first window (3 s
# and the path's lifetime), then at waits doubling from 1 s up to the
# lifetime, +-25%; a refusal for now (bandwidth) is retried, one for good
# (invalid) ends it. The owner is told down, then up with how long; status
# shows it; librttr's sender goes on through it and reports the path. The
# lifetime is 2 s here, so that the backoff reaches its cap within the
# test (about 12 s). Needs root (namespaces, a packet socket).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/rtcd_ns.sh"

use_rttr
# The constants, as rtcd is built with them.
give_up=$(define RTCD_GIVE_UP_MS "$top/lib/rtcd_sock.h")
retransmit=$(define RTCD_RETRANSMIT_MS "$top/rtcd/rtcd.h")
[ -n "$give_up" ] && [ -n "$retransmit" ] || ktap_skip_all "constants not found in the headers"
life=2000			# the fake switch's LIFETIME: the backoff's cap
window=$((give_up + life))	# the first window's retransmits
# How far a SETUP may come from when it was due, in ms: early, the timer's
# rounding; late, a loaded machine waking rtcd (10 ms seen, 700 allowed
# as in rtcd_signal.sh).
early=50
late=700

printf 'socket-group nogroup\n' >"$conf"
start -v || ktap_skip_all "rtcd does not start: $(cat "$log")"
ktap_begin 12

# DPORT[.N]=ACTION@MS: what the fake switch does, MS after the Nth
# connection's first SETUP (a connection set up again has a new cookie).
# 5001: lost at 1 s; set up again: refused for now at once, so backed off
#       from the start, accepted 6.5 s later.
# 5002: lost at 1 s; unanswered through the first window, accepted 5 s
#       past it (two backoffs: 1 + 2 s, 25% and a late wake-up over).
# 5003: lost at 1 s; refused for good.
# 5004: librttr's sender's: lost at 0.5 s, back 2 s later.
# 5005: a lifetime of 8 s; lost at 1 s; every SETUP refused: the waits
#       double, 1, 2, 4 s (a refusal must not double them again).
# 5006: librttr's; lost at 0.5 s, rtcd restarted while it is down (its
#       second connection unanswered); the third, the new rtcd's, accepted.
fake_switch lifetime=$life \
	"5001=accept@0,expire@1000" "5001.2=reject@0,accept@6500" \
	"5002=accept@0,expire@1000" "5002.2=accept@$((window + 5000))" \
	"5003=accept@0,expire@1000" "5003.2=reject-invalid@0" \
	"5004=accept@0,expire@500" "5004.2=accept@2000" \
	"5005=accept:8000@0,expire@1000" "5005.2=reject-each@0" \
	"5006=accept@0,expire@500" "5006.3=accept@1000"

# The Nth connection to DPORT as the switch saw it.
conn() { grep "\"dport\": $1, \"n\": $2," "$sw_out"; }

open_held 60 5001 5002 5003 5005
"$send" -S "$sock" -j -v 10.0.0.2 5004 1mbit -s 200 -t 4 >"$dir/tx" 2>"$dir/tx.err" &
tx=$!

# Down, both, and a while into being set up again: status says so.
for p in 5001 5002; do wait_line "${out[$p]}" '"event":"down"' "${opener[$p]}"; done
sleep 2
down=$(cli status)
# Up again (5002 at the latest, 1 s + the window + 5 s), and 5003 ended.
for _ in $(seq 300); do
	grep -q '"event":"up"' "${out[5001]}" && grep -q '"event":"up"' "${out[5002]}" && break
	sleep 0.05
done
wait "${opener[5003]}"
rc5003=$?
up=$(cli status)
wait $tx
for p in 5001 5002 5005; do kill "${opener[$p]}" 2>/dev/null; wait "${opener[$p]}" 2>/dev/null; done
# The closes are the last TEARDOWNs: the second connections' lines are there.
for _ in $(seq 40); do
	[ "$(grep -c '"n": 2' "$sw_out")" -ge 4 ] && break
	sleep 0.05
done
cp "$log" "$dir/rtcd1.log"

# rtcd restarted (SIGTERM, as systemctl restart) while 5006 is down: the
# new one takes it back down, sets it up, and librttr's claim learns so.
"$send" -S "$sock" -j -v 10.0.0.2 5006 1mbit -s 200 -t 5 >"$dir/tx6" 2>"$dir/tx6.err" &
tx6=$!
wait_line "$dir/tx6.err" "path down" $tx6
sleep 0.5
stop
start -v
wait $tx6
# Its close is the last TEARDOWN: the third connection's line is there.
for _ in $(seq 40); do
	conn 5006 3 >/dev/null && break
	sleep 0.05
done
kill "$sw"
wait "$sw" 2>/dev/null
stop
cat "$dir/rtcd1.log" "$log" >"$dir/rtcd.all.log"
log=$dir/rtcd.all.log

why() { # DPORT: what the client, the switch and rtcd saw
	echo "client: $(cat "${out[$1]}"); switch: $(conn "$1" 2 || cat "$sw_out")"
	grep -v "refresh" "$log" | tail -25
}
for p in 5001 5002 5005; do
	ktap_info "$p set up again: SETUPs at $(conn $p 2 | jq -c .setup_ms) ms"
done
# DPORT: every gap between SETUPs set up again, from AFTER ms on, is a
# backoff within [0.75, 1.25] of one doubling from 1 s to the lifetime:
# the first 1 s, then the lifetime reached.
backoff_ok() { # DPORT AFTER
	conn "$1" 2 | holds '
		[.setup_ms | . as $s | range(1; length) | select($s[. - 1] >= $a) |
		 $s[.] - $s[. - 1]] as $g |
		($g | length) >= 2 and
		($g[0] >= 2 * $r * 0.75 - $e and $g[0] <= 2 * $r * 1.25 + $l) and
		all($g[1:][]; . >= $cap * 0.75 - $e and . <= $cap * 1.25 + $l)' \
		--argjson a "$2" --argjson cap $life --argjson e $early --argjson l $late \
		--argjson r "$retransmit"
}
# The status's connection to DPORT, from JSON $1.
status_of() { jq -c --argjson p "$2" '.connections[] | select(.dport == $p)' <<<"$1"; }

# Every one of DPORTs' connections in status JSON $1 meets jq FILTER $2.
all_status() { # JSON FILTER DPORT...
	local j=$1 f=$2 p
	shift 2
	for p in "$@"; do
		status_of "$j" "$p" | holds "$f" || return 1
	done
}

ktap_result "lost (expired): the owner is told down, then up with how long, ~6.5 s" \
	"$(holds -s '
		[.[] | select(.event == "down")] as $d | [.[] | select(.event == "up")] as $u |
		($d | length) == 1 and $d[0].error == "expired" and ($u | length) == 1 and
		$u[0].down_ms >= 6500 - $e and $u[0].down_ms <= 6500 + $l and $u[0].hops == 1' \
		--argjson e $early --argjson l $late "${out[5001]}"; echo $?)" "$(why 5001)"
ktap_result "status while down: state down, down_ms, downs 1" \
	"$(all_status "$down" '.state == "down" and .down_ms > 1000 and .downs == 1' 5001 5002
	   echo $?)" "$down"
ktap_result "status once back: up, downs 1, no down_ms" \
	"$(all_status "$up" '.state == "up" and .downs == 1 and (has("down_ms") | not)' 5001 5002
	   echo $?)" "$up"
ktap_result "refused for now (bandwidth): backed off from 1 s, doubling to the lifetime, +-25%" \
	"$(backoff_ok 5001 0; echo $?)" "$(why 5001)"
ktap_result "unanswered: a SETUP every $retransmit ms through the first $window ms" \
	"$(conn 5002 2 | holds '
		[.setup_ms[] | select(. < $w - $r)] as $s |
		($s | length) >= ($w / $r - 2) and
		all(range(1; $s | length) as $i | $s[$i] - $s[$i - 1]; . <= $r + $l)' \
		--argjson w $window --argjson r "$retransmit" --argjson l $late
	   echo $?)" "$(why 5002)"
ktap_result "unanswered past it: not given up, backed off, up when answered" \
	"$(backoff_ok 5002 $((window - early)) && grep -q '"event":"up"' "${out[5002]}"
	   echo $?)" "$(why 5002)"
ktap_result "refused at every SETUP: the waits double, 1, 2, 4 s, +-25%, not faster" \
	"$(conn 5005 2 | holds '
		[.setup_ms | . as $s | range(1; length) | $s[.] - $s[. - 1]] as $g |
		($g | length) >= 3 and
		all(range(3) as $i | [$g[$i], 1000 * pow(2; $i)];
		    .[0] >= .[1] * 0.75 - $e and .[0] <= .[1] * 1.25 + $l)' \
		--argjson e $early --argjson l $late; echo $?)" "$(why 5005)"
ktap_result "refused for good (invalid): torn down, the owner told, gone from status" \
	"$([ "$rc5003" = 1 ] && grep -q '"event":"teardown".*"error":"invalid"' "${out[5003]}" &&
	   [ -z "$(status_of "$up" 5003)" ]; echo $?)" "rc $rc5003: $(why 5003)"
ktap_result "librttr: the sender ran through it, path up, down once for ~2 s" \
	"$(holds '.seconds >= 3.9 and .info.path == "up" and .info.downs == 1 and
		.info.down_ns >= 1.9e9 and .info.down_ns <= 2.7e9' "$dir/tx" &&
	   grep -q "path down" "$dir/tx.err" && grep -q "path up again" "$dir/tx.err"
	   echo $?)" \
	"$(cat "$dir/tx" "$dir/tx.err"; grep 05 "$log" | grep -v refresh | tail)"
ktap_result "rtcd restarted while down: taken back down, set up again, claimed" \
	"$(grep -q "taken back from the last rtcd (down" "$log" &&
	   grep -q "claimed by pid" "$log" && conn 5006 3 >/dev/null; echo $?)" \
	"$(grep -v refresh "$log" | grep -i '5006\|taken\|claim\|restart' | tail -20)"
ktap_result "... and its sender ran through it, told it was down once, up at the end" \
	"$(holds '.seconds >= 4.9 and .info.path == "up" and .info.downs == 1' "$dir/tx6" &&
	   grep -q "path down" "$dir/tx6.err" && grep -q "path up again" "$dir/tx6.err"
	   echo $?)" "$(cat "$dir/tx6" "$dir/tx6.err")"
ktap_result "rtcd exited 0" "$([ -z "$bad_exits" ]; echo $?)" "exit status:$bad_exits"
ktap_end
