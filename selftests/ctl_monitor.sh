#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# etherealctl monitor (the family's "monitor" group, Documentation/netlink.md):
# through two switches, driven by tools/sigclient, each switch's monitor
# (-j, one JSON object a line) sees a setup added, accepted and torn down;
# a setup rejected downstream (at the first switch as a connection, at the
# second as a refused request, with reason and hop); an expiry; a
# connection the operator deletes; each namespace only its own switch's
# events; the text form; and every monitor ends cleanly on SIGINT.
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

CFG="$(dirname "$0")/../tc-configs"
TMPD=$(mktemp -d)
defer rm -rf "$TMPD"

sig() { local n=$1; shift; on "$n" sigclient "$@"; }
# ev FILE JQ: JQ holds of the events in FILE, as one array (none: false)
ev() { holds -s "$2" "$1" 2>/dev/null; }
# ev_get FILE JQ: what JQ says of them
ev_get() { jq -s -r "$2" "$1" 2>/dev/null; }
# ev_wait FILE JQ: until JQ holds, 5 s at most
ev_wait() {
	local i
	for i in $(seq 50); do
		ev "$1" "$2" && return 0
		sleep 0.1
	done
	return 1
}
# joined FILE HOST: until the monitor writing FILE has seen an event: HOST
# asks its switch for a setup of rate 0, refused as invalid, every 0.2 s.
joined() {
	local i
	for i in $(seq 50); do
		sig "$2" -t 200 setup 0f:0f 10.0.0.250 5000 0 1514 1514 >/dev/null
		[ -s "$1" ] && return 0
	done
	return 1
}

ktap_begin 11
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2 sw2:h3 sw1-sw2" || ktap_skip_all "cannot build topology"
"$CFG/ethereal-switch" -n "$(ns_of sw1)" -r 10mbit -t trk2 br0 &&
"$CFG/ethereal-switch" -n "$(ns_of sw2)" -r 10mbit -t trk1 br0 ||
	ktap_skip_all "cannot make the switches"
for h in h1 h2 h3; do
	on $h ip route replace 198.18.0.0/15 dev eth0
	on $h ip neigh replace 198.18.0.1 lladdr ff:ff:ff:ff:00:01 dev eth0 nud permanent
done
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
on h1 ping -c 1 -W 2 "$(host_ip h3)" >/dev/null
H2=$(host_ip h2)
H3=$(host_ip h3)

# Started directly, not through on(): $! is the monitor itself.
etherealctl -n "$(ns_of sw1)" -j monitor >"$TMPD/sw1" 2>"$TMPD/sw1.err" &
mon1=$!
etherealctl -n "$(ns_of sw2)" -j monitor >"$TMPD/sw2" 2>"$TMPD/sw2.err" &
mon2=$!
etherealctl -n "$(ns_of sw1)" monitor br0 >"$TMPD/sw1.txt" 2>"$TMPD/sw1.txt.err" &
mon3=$!
defer kill $mon1 $mon2 $mon3
joined "$TMPD/sw1" h1 && joined "$TMPD/sw1.txt" h1 && joined "$TMPD/sw2" h3
ktap_result "the monitors joined: a refused setup shows as rejected, invalid, hop 1" \
	"$(ev "$TMPD/sw1" 'any(.[]; .event == "rejected" and .id == 3855 and
			 .reason == "invalid" and .hop == 1 and .dev == "swp1" and
			 (has("out") | not))'; echo $?)"

# --- a setup through both switches, then the source's teardown ---
res=$(sig h1 setup 03:09 "$H3" 5000 2mbit 6056 1514)
ktap_info "$res"
sig h1 teardown 03:09 >/dev/null
ev_wait "$TMPD/sw1" 'any(.[]; .id == 777 and .event == "teardown")'
ev_wait "$TMPD/sw2" 'any(.[]; .dev == "trk1" and .event == "teardown")'
ktap_info "sw1: $(grep -h '"id":777,' "$TMPD/sw1" | tr '\n' ' ')"
ktap_result "sw1: added (pending, toward sw2), accepted, torn down: requested" \
	"$(ev "$TMPD/sw1" \
	   '[.[] | select(.id == 777)] as $e | ($e | map(.event)) ==
		["added", "accepted", "teardown"] and
	    ($e[0] | .bridge == "br0" and .dev == "swp1" and .out == "trk2" and
		     .state == "pending" and .daddr == "'"$H3"'" and .dport == 5000 and
		     .rate == 250000 and .burst == 6056 and .maxpkt == 1514 and .swap and
		     (.outid > 0)) and
	    $e[1].state == "up" and $e[2].reason == "requested"'; echo $?)"
out1=$(ev_get "$TMPD/sw1" '[.[] | select(.id == 777 and .event == "added")][0].outid')
ktap_info "sw2: $(grep -h '"dev":"trk1"' "$TMPD/sw2" | tr '\n' ' ')"
ktap_result "sw2: the same connection (sw1's output ID) added up to h3's MAC, accepted, torn down" \
	"$(ev "$TMPD/sw2" \
	   '[.[] | select(.dev == "trk1" and .id == '"${out1:-0}"')] as $e |
	    ($e | map(.event)) == ["added", "accepted", "teardown"] and
	    ($e[0] | .out == "swp3" and .lladdr == "'"$(host_mac h3)"'" and .state == "up" and
		     .daddr == "'"$H3"'" and .dport == 5000 and .rate == 250000) and
	    $e[2].reason == "requested"'; echo $?)"

# --- rejected by sw2: its link to h3 allows 1 Mbit/s ---
on sw2 tc qdisc change dev swp3 root ethereal rt-limit 10%
res=$(sig h1 setup 03:0a "$H3" 5000 2mbit 6056 1514)
ktap_info "$res"
on sw2 tc qdisc change dev swp3 root ethereal rt-limit 60%
ev_wait "$TMPD/sw1" 'any(.[]; .id == 778 and .event == "rejected")'
ktap_info "sw1: $(grep -h '"id":778,' "$TMPD/sw1" | tr '\n' ' ')"
ktap_result "sw1: added, then rejected downstream: bandwidth, hop 2" \
	"$(ev "$TMPD/sw1" '[.[] | select(.id == 778)] as $e |
	    ($e | map(.event)) == ["added", "rejected"] and
	    ($e[1] | .reason == "bandwidth" and .hop == 2 and .out == "trk2")'; echo $?)"
out1=$(ev_get "$TMPD/sw1" '[.[] | select(.id == 778 and .event == "added")][0].outid')
ev_wait "$TMPD/sw2" 'any(.[]; .dev == "trk1" and .event == "rejected")'
ktap_result "sw2: the request refused, nothing installed: bandwidth, hop 2, what it asked" \
	"$(ev "$TMPD/sw2" \
	   '[.[] | select(.dev == "trk1" and .id == '"${out1:-0}"')] as $e |
	    ($e | map(.event)) == ["rejected"] and
	    ($e[0] | .reason == "bandwidth" and .hop == 2 and (has("out") | not) and
		     .daddr == "'"$H3"'" and .dport == 5000 and .rate == 250000)'; echo $?)"

# --- expiry: sw1 alone (h1 -> h2), not refreshed ---
ctl sw1 set br0 lifetime 1s
res=$(sig h1 setup 03:0b "$H2" 5001 1mbit 6056 1514)
ktap_info "$res"
ev_wait "$TMPD/sw1" 'any(.[]; .id == 779 and .event == "expired")' ||
	ev_wait "$TMPD/sw1" 'any(.[]; .id == 779 and .event == "expired")'
ctl sw1 set br0 lifetime 30s
ktap_info "sw1: $(grep -h '"id":779,' "$TMPD/sw1" | tr '\n' ' ')"
ktap_result "expiry: added (up, to h2), accepted, expired" \
	"$(ev "$TMPD/sw1" '[.[] | select(.id == 779)] as $e |
	    ($e | map(.event)) == ["added", "accepted", "expired"] and
	    ($e[0] | .state == "up" and .lladdr == "'"$(host_mac h2)"'" and .dport == 5001 and
		     .rate == 125000) and $e[2].reason == "expired"'; echo $?)"

# --- the operator deletes a connection ---
res=$(sig h1 setup 03:0c "$H3" 5000 1mbit 6056 1514)
ktap_info "$res"
ctl sw1 conn del dev swp1 id 03:0c
ev_wait "$TMPD/sw1" 'any(.[]; .id == 780 and .event == "teardown")'
out1=$(ev_get "$TMPD/sw1" '[.[] | select(.id == 780 and .event == "added")][0].outid')
ev_wait "$TMPD/sw2" 'any(.[]; .dev == "trk1" and .id == '"${out1:-0}"' and .event == "teardown")'
ktap_result "conn del: torn down, removed, on sw1 and (told) on sw2" \
	"$(ev "$TMPD/sw1" '[.[] | select(.id == 780)] | map([.event, .reason]) ==
		[["added", null], ["accepted", null], ["teardown", "removed"]]' &&
	   ev "$TMPD/sw2" '[.[] | select(.dev == "trk1" and .id == '"${out1:-0}"')] |
		map([.event, .reason]) ==
		[["added", null], ["accepted", null], ["teardown", "removed"]]'; echo $?)"

ktap_result "each namespace's monitor sees its own switch only" \
	"$(ev "$TMPD/sw1" 'length > 0 and all(.[]; .dev == "swp1" or .dev == "swp2" or .dev == "trk2")' &&
	   ev "$TMPD/sw2" 'length > 0 and all(.[]; .dev == "swp3" or .dev == "trk1")'; echo $?)"

grep -E '^(accepted|rejected) br0 dev swp1 id 03:0(9|a) ' "$TMPD/sw1.txt" | sed 's/^/# /'
# Each line ends with the connection's delay bounds (delay-bounds.md).
DL='( delay [0-9.]+[mun]?s( path [0-9.]+[mun]?s)?)?'
ktap_result "text form: one line an event" \
	"$(grep -qE '^added br0 dev swp1 id 03:09 -> trk2 id [0-9a-f:]+ rate 2Mbit daddr '"$H3"' dport 5000 pending'"$DL"'$' "$TMPD/sw1.txt" &&
	   grep -qE '^rejected br0 dev swp1 id 03:0a -> trk2 id [0-9a-f:]+ rate 2Mbit daddr '"$H3"' dport 5000 reason bandwidth hop 2'"$DL"'$' "$TMPD/sw1.txt" &&
	   grep -qE '^expired br0 dev swp1 id 03:0b -> swp2 lladdr '"$(host_mac h2)"' rate 1Mbit .* reason expired'"$DL"'$' "$TMPD/sw1.txt"
	   echo $?)"

# Both forms, the same events of connections 03:09 to 03:0c.
n_json=$(ev_get "$TMPD/sw1" '[.[] | select(.id >= 777 and .id <= 780)] | length')
n_txt=$(grep -cE ' dev swp1 id 03:0[9abc] ' "$TMPD/sw1.txt")
ktap_info "events of 03:09-03:0c: $n_json (JSON), $n_txt (text)"
ktap_result "no event lost (event_drops 0 on both), JSON and text alike" \
	"$([ "$(sig_stat sw1 event_drops)" = 0 ] && [ "$(sig_stat sw2 event_drops)" = 0 ] &&
	   [ "$n_json" = 11 ] && [ "$n_txt" = 11 ]; echo $?)"

kill -INT $mon1 $mon2 $mon3
rc=0
for p in $mon1 $mon2 $mon3; do
	wait $p || rc=$?
done
cat "$TMPD"/*.err | sed 's/^/# stderr: /'
ktap_result "SIGINT: every monitor exits 0, with nothing on stderr" \
	"$([ $rc = 0 ] && ! grep -q . "$TMPD"/*.err; echo $?)"
ktap_end
