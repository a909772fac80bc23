#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtcd natively against a fake first switch (fake_switch.py on its link's
# veth peer): PROCEEDING, a wait for ARP on the path, makes rtcd wait for
# the answer one ARP wait longer each, at most ETHEREAL_SIG_PROCEED_MAX per
# setup, and only for the setup it names. The opens run side by side, each
# DPORT a scenario of the fake switch, so that the test takes the longest
# wait alone (about 12 s). An ACCEPT's numbers past the protocol's bounds
# are not taken (a lifetime of 0: a refresh every 10 ms). An open's MAXPKT
# at either end of its range goes into the SETUP; one past them, or not a
# number, is refused on the command line and on the socket. Needs root
# (namespaces, a packet socket).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/rtcd_ns.sh"

# The constants, as rtcd is built with them.
sig_h=$top/kmod/include/uapi/linux/ethereal_sig.h
arp_wait=$(define ETHEREAL_SIG_ARP_WAIT_MS "$sig_h")
proceed_max=$(define ETHEREAL_SIG_PROCEED_MAX "$sig_h")
give_up=$(define RTCD_GIVE_UP_MS "$top/lib/rtcd_sock.h")
eth_h=$top/kmod/include/uapi/linux/ethereal.h
pkt_min=$(define ETHEREAL_MAX_PKT_MIN "$eth_h")
pkt_max=$(define ETHEREAL_MAX_PKT_MAX "$eth_h")
[ -n "$arp_wait" ] && [ -n "$proceed_max" ] && [ -n "$give_up" ] &&
	[ -n "$pkt_min" ] && [ -n "$pkt_max" ] ||
	ktap_skip_all "constants not found in the headers"

# How far the moment rtcd gave up (its TEARDOWN) may be from the deadline,
# in ms after the first SETUP, both as the kernel timestamped them reaching
# the fake switch. Early: never, but for the time rtcd takes from its
# start time to sending that SETUP (logging it first, with -v: 0.3 ms
# seen), longer if it is preempted there. Late: a loaded machine's delay
# in waking rtcd (10 ms seen with three busy loops on two cores); well
# short of one ARP wait, the step being tested.
early=100
late=700

printf 'socket-group nogroup\n' >"$conf"
start -v || { cat "$log"; ktap_fail "rtcd starts"; ktap_end; }

ktap_begin 10

# DPORT=ACTION[*COUNT]@MS,...: what the fake switch does, MS after the SETUP.
# 5001: two switches wait for ARP, the ACCEPT comes one ARP wait past rtcd's
#       own deadline (it gave up there before PROCEEDING) and as long
#       before the stretched one; then a PROCEEDING for it, up by then.
# 5002: two PROCEEDINGs past the most, some of them late.
# 5003: PROCEEDINGs with the setup's ID and another cookie, and with the
#       cookie on an ID not rtcd's.
# 5004: one PROCEEDING, and no answer.
# 5005: an ACCEPT at once, of a lifetime of 0 ms.
# 5006, 5007: an ACCEPT at once, of an open of the least and the largest
#       MAXPKT.
# 5008: opens refused before rtcd sends a SETUP.
accept_at=$((give_up + arp_wait))
fake_switch \
	"5001=proceeding@0,proceeding@200,accept@$accept_at,proceeding@$((accept_at + 300))" \
	"5002=proceeding*$proceed_max@0,proceeding*2@$((give_up + (proceed_max - 1) * arp_wait))" \
	"5003=stray-cookie@0,stray-id@0,stray-cookie@$((give_up - 500)),stray-id@$((give_up - 500))" \
	"5004=proceeding@0" "5005=accept:0@0" "5006=accept@0" "5007=accept@0"
open_held 30 5001 5002 5003 5004 5005 "5006,3000,$pkt_min" "5007,$pkt_max,$pkt_max"
# MAXPKT out of its range, or not a size: the command line refuses it, and
# rtcd what another client sends it, each saying why.
cli_bad=
for v in 0 $((pkt_min - 1)) $((pkt_max + 1)) abc 1500x 99999999999999999999; do
	o=$(cli open 10.0.0.2 5008 1mbit 100000 "$v" 2>&1)
	rc=$?
	[ $rc = 2 ] && grep -q "MAXPKT '$v' is not a frame size from $pkt_min to $pkt_max bytes" <<<"$o" ||
		cli_bad="$cli_bad [$v: $rc: $o]"
done
range="\"max_pkt\" must be an integer from $pkt_min to $pkt_max"
sock_bad=
for v in "0|$range" "$((pkt_min - 1))|$range" "$((pkt_max + 1))|$range" \
	 '"1514"|"max_pkt" must be an integer' \
	 '99999999999999999999|a number out of range: too big integer'; do
	o=$(ask "{\"op\":\"open\",\"daddr\":\"10.0.0.2\",\"dport\":5008,\"rate\":1000000,\"max_pkt\":${v%%|*}}" 2>&1)
	holds '.ok == false and .error == "invalid" and (.message | startswith($m))' \
		--arg m "${v#*|}" <<<"$o" || sock_bad="$sock_bad [${v%%|*}: $o]"
done
# The three that time out answer within the longest wait, 5002's.
for p in 5002 5003 5004; do wait "${opener[$p]}"; done
# 5001's PROCEEDING after its ACCEPT is long past: still up?
st=$(cli status)
up=$(jq -c '.connections[] | select(.dport == 5001) | .state' <<<"$st")
for p in 5001 5005 5006 5007; do
	kill "${opener[$p]}" 2>/dev/null
	wait "${opener[$p]}" 2>/dev/null
done
# Their close is the last TEARDOWN: every connection's line is there.
for _ in $(seq 40); do
	[ "$(grep -c '"dport"' "$sw_out")" = 7 ] && break
	sleep 0.05
done
kill "$sw"
wait "$sw" 2>/dev/null
stop

# Each connection as the switch saw it, first to end first.
grep dport "$sw_out" | jq -r '"\(.dport): \(.id) torn down \(.teardown_ms) ms after its " +
	"first SETUP, \(.setups) SETUPs, sent \(.sent | map_values(length))"' |
	while read -r line; do ktap_info "$line"; done

# The fake switch's line for DPORT.
conn() { grep "\"dport\": $1," "$sw_out"; }
why() { # DPORT: what the client, the switch and rtcd saw
	echo "client: $(cat "${out[$1]}"); switch: $(conn "$1" || cat "$sw_out")"
	grep -v "refresh\|ignored" "$log" | tail -25
}
timed_out() { grep -q "rtcd: timeout: no answer from the switch" "${out[$1]}"; }
# DPORT MS: rtcd gave up (a TEARDOWN, reason requested: 11) MS after the
# first SETUP, give or take.
gave_up_at() {
	conn "$1" | holds '.teardown_ms >= $at - $e and .teardown_ms <= $at + $l and .reason == 11' \
		--argjson at "$2" --argjson e "$early" --argjson l "$late"
}

ok=$(grep -q '"ok":true' "${out[5001]}" &&
     conn 5001 | holds '.sent.accept[0] >= $g' --argjson g "$give_up"; echo $?)
ktap_result "PROCEEDINGs: an ACCEPT past rtcd's usual $give_up ms opens the connection" \
	"$ok" "$(why 5001)"
ok=$([ "$up" = '"up"' ] && conn 5001 | holds '.sent.proceeding | length == 3'
     echo $?)
ktap_result "a PROCEEDING for a connection already up changes nothing" "$ok" \
	"state: $up; $(why 5001)"
at=$((give_up + arp_wait))
ktap_result "one PROCEEDING, no answer: timeout one ARP wait late, at $at ms" \
	"$(timed_out 5004 && gave_up_at 5004 $at; echo $?)" "$(why 5004)"
at=$((give_up + proceed_max * arp_wait))
ktap_result "$((proceed_max + 2)) PROCEEDINGs: timeout at the most, $at ms" \
	"$(timed_out 5002 && gave_up_at 5002 $at; echo $?)" "$(why 5002)"
ok=$(timed_out 5003 && gave_up_at 5003 "$give_up" &&
     conn 5003 | holds '.sent | has("stray-cookie") and has("stray-id")'; echo $?)
ktap_result "PROCEEDINGs with another cookie or ID: ignored, timeout at $give_up ms" \
	"$ok" "$(why 5003)"
ok=$(holds '.connections[] | select(.dport == 5005) | .state == "up" and .lifetime_ms == 30000' \
	<<<"$st"; echo $?)
ktap_result "an ACCEPT's lifetime of 0 ms is not taken: the default, 30 s" "$ok" \
	"status: $(jq -c '.connections[] | select(.dport == 5005)' <<<"$st"); $(conn 5005)"
# DPORT MAXPKT: taken, in rtcd's answer and in the SETUP the switch saw.
max_pkt_kept() {
	grep '"ok":true' "${out[$1]}" | holds '.max_pkt == $m' --argjson m "$2" &&
		conn "$1" | holds '.max_pkt == $m' --argjson m "$2"
}
ok=$(max_pkt_kept 5006 "$pkt_min" && max_pkt_kept 5007 "$pkt_max"; echo $?)
ktap_result "MAXPKT $pkt_min and $pkt_max: taken, and carried into the SETUP" "$ok" \
	"$(why 5006; why 5007)"
ktap_result "MAXPKT out of range or not a size: refused by the command line" \
	"$([ -z "$cli_bad" ]; echo $?)" "$cli_bad"
ktap_result "max_pkt out of range, of another type or past any number: refused by rtcd" \
	"$([ -z "$sock_bad" ] && ! conn 5008 >/dev/null; echo $?)" "${sock_bad:-a SETUP: $(conn 5008)}"
ktap_result "rtcd exited 0" "$([ -z "$bad_exits" ]; echo $?)" "exit status:$bad_exits"
ktap_end
