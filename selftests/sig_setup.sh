#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Signaling (Documentation/signaling.md), driven by a small test client
# (tools/sigclient), not rtcd: setup and teardown through 1 and 3 switches
# with traffic on the result; a reject on the middle link leaves nothing
# reserved anywhere; the ARP miss path; soft-state expiry and refresh, and
# the first switch's ack of each refresh; link down; malformed, truncated,
# oversized and spoofed messages dropped and counted; a VLAN-filtering
# bridge; a hostile host's setups, ARP probes and addresses held to its
# port's budgets, and its claims of another host's address or MAC refused;
# static bindings; a host's quota; a refresh while the setup waits
# downstream; trunks that know the switch at their other end (hello) and
# take signaling from it only, with the setup's cookie; PROCEEDING from a
# switch waiting for ARP stretching the answer timeouts; a link key that
# authenticates what two switches say, replays refused, also right after
# a key is set (a challenge each end answers); 1,000 connections
# set up and torn down.
# timeout=600
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"
. "$(dirname "$0")/lib/wait.sh"
. "$(dirname "$0")/lib/sched.sh"

CFG="$(dirname "$0")/../tc-configs"
TMPD=$(mktemp -d)
defer rm -rf "$TMPD"
SW="sw1 sw2 sw3"

# sig NODE ARGS...: the test client on NODE
sig() { local n=$1; shift; on "$n" sigclient "$@"; }
sigstat() { sig_stat "$@"; }
# counted DELTA STAT SW BEFORE: SW's signaling counter STAT is BEFORE + DELTA
# (for eventually: a drop is counted when the switch has read the message)
counted() { [ $(( $(sigstat "$3" "$2") - $4 )) = "$1" ]; }
# conns SW: connections on the switch
conns() { json_first "$(ctl "$1" -j show br0)" connections; }
# reserved SW PORT: bytes/s reserved out of PORT (etherealctl -j, as tc -j)
reserved() { json_first "$(ctl "$1" -j port show dev "$2")" reserved; }
# expired_sum: connections expired, all switches together
expired_sum() { local s n=0; for s in $SW; do n=$((n + $(sigstat $s expired))); done; echo $n; }
# forwarding SW PORT: SW's bridge forwards on PORT (its STP state)
forwarding() { [ "$(port_state "$1" "$2")" = forwarding ]; }
# pending SW N: SW has N setups in progress
pending() { [ "$(sigstat "$1" pending)" = "$2" ]; }
# all_conns N: every switch has N connections
all_conns() { local s; for s in $SW; do [ "$(conns $s)" = "$1" ] || return 1; done; }
# wait_conns_on SW N SECONDS: until SW has N connections (SECONDS slow)
wait_conns_on() {
	local i
	for i in $(seq $(($(slow $3) * 10))); do
		[ "$(conns "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_conns N SECONDS: until every switch has N connections (SECONDS slow)
wait_conns() {
	local i
	for i in $(seq $(($(slow $2) * 10))); do
		all_conns "$1" && return 0
		sleep 0.1
	done
	return 1
}

ktap_begin 58
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2 sw2:h3 sw3:h4 sw1-sw2 sw2-sw3" ||
	ktap_skip_all "cannot build topology"
"$CFG/ethereal-switch" -n "$(ns_of sw1)" -r 10mbit -t trk2 br0 &&
"$CFG/ethereal-switch" -n "$(ns_of sw2)" -r 10mbit -t trk1 -t trk3 br0 &&
"$CFG/ethereal-switch" -n "$(ns_of sw3)" -r 10mbit -t trk2 br0 ||
	ktap_skip_all "cannot make the switches"
# What rtcd does: the control IP resolves to the signaling MAC.
for h in h1 h2 h3 h4; do
	on $h ip route replace 198.18.0.0/15 dev eth0
	on $h ip neigh replace 198.18.0.1 lladdr ff:ff:ff:ff:00:01 dev eth0 nud permanent
done
# The switches learn h1, h2 and h4 from their ARP; h3 stays unknown to sw1.
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
on h1 ping -c 1 -W 2 "$(host_ip h4)" >/dev/null
on h2 ping -c 1 -W 2 "$(host_ip h4)" >/dev/null

# --- trunks: each knows the switch at its other end from its hellos ---
# trunk_switch SW PORT: the identity of the switch PORT's hellos come from
trunk_switch() { ctl "$1" -j port show dev "$2" | jq -r '.[0].switch // empty'; }
for i in $(seq 30); do
	[ "$(trunk_switch sw2 trk1)" = "$(bridge_mac sw1)" ] &&
	[ "$(trunk_switch sw2 trk3)" = "$(bridge_mac sw3)" ] &&
	[ "$(trunk_switch sw1 trk2)" = "$(bridge_mac sw2)" ] && break
	sleep 0.1
done
ktap_info "$(ctl sw2 port show dev trk1); $(ctl sw2 port show dev trk3)"
ktap_result "hello: every trunk knows the switch at its other end" \
	"$([ "$(trunk_switch sw2 trk1)" = "$(bridge_mac sw1)" ] &&
	   [ "$(trunk_switch sw2 trk3)" = "$(bridge_mac sw3)" ] &&
	   [ "$(trunk_switch sw1 trk2)" = "$(bridge_mac sw2)" ] &&
	   [ "$(trunk_switch sw3 trk2)" = "$(bridge_mac sw2)" ]; echo $?)"

# --- one switch ---
res=$(sig h1 setup 03:09 "$(host_ip h2)" 5000 2mbit 6056 1514)
ktap_info "$res"
ktap_result "1 switch: h1 -> h2 accepted, 1 hop" \
	"$([[ "$res" == "accept id=03:09 "*"hops=1 "* ]]; echo $?)"
ctlq=$(on sw1 tc -s -j qdisc show dev swp1 | jq '[.. | objects | select(has("control")) | .control.packets][0]')
ktap_result "the answer left through the port's control queue (sent $ctlq)" \
	"$([ "${ctlq:-0}" -ge 1 ] 2>/dev/null; echo $?)"
c=$(ctl sw1 -j conn show dev swp1 id 03:09)
ktap_result "1 switch: installed as signaled, up, swapped, to h2's MAC" \
	"$(holds '.[0] | .origin == "signaled" and .state == "up" and .swap and .lladdr == $m' \
	  --arg m "$(host_mac h2)" <<<"$c"; echo $?)"
host_proxy h1 03:09
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" 50 200 100)
ktap_result "1 switch: datagrams to the proxy IP reach h2's plain socket" $?
sig h1 teardown 03:09
ktap_result "1 switch: teardown removes it" "$(wait_conns 0 2; echo $?)"

# --- three switches ---
res=$(sig h1 setup 03:0a "$(host_ip h4)" 5000 2mbit 6056 1514)
ktap_info "$res"
ktap_result "3 switches: h1 -> h4 accepted, 3 hops" \
	"$([[ "$res" == "accept id=03:0a "*"hops=3 "* ]]; echo $?)"
ktap_result "3 switches: one signaled connection on each switch" "$(all_conns 1; echo $?)"
# The second switch's queue takes in what the first may delay the frames
# by, its bound (the SETUP's DELAY there): its burst, a frame and that
# much of its rate at least.
d1=$(ctl sw1 -j conn show br0 | jq '.[0].delay_ns // 0')
b2=$(ctl sw2 -j conn show br0 | jq '.[0].buffer // 0')
ktap_result "3 switches: the second switch's queue takes in what the first may delay" \
	"$(awk -v b="$b2" -v d="$d1" 'BEGIN {
		if (d > 1e9) d = 1e9
		exit !(d > 0 && b >= 6056 + 1514 + int(2e6 * d / 8e9)) }'; echo $?)" \
	"a queue of $b2 bytes at sw2, $d1 ns bound at sw1"
host_proxy h1 03:0a
res=$(udp_flow h1 h4 "$(proxy_ip 03:0a)" 50 1000 100)
ktap_result "3 switches: datagrams reach h4's plain socket" $?
sig h1 teardown 03:0a
ktap_result "3 switches: teardown removes it everywhere" "$(wait_conns 0 2; echo $?)"

# --- reject on the middle link: sw2 -> sw3 allows 1 Mbit/s ---
on sw2 tc qdisc change dev trk3 root ethereal rt-limit 10%
res=$(sig h1 setup 03:0b "$(host_ip h4)" 5000 2mbit 6056 1514)
ktap_info "$res"
ktap_result "middle link over its limit: rejected by switch 2 for bandwidth" \
	"$([[ "$res" == "reject id=03:0b reason=bandwidth hop=2"* ]]; echo $?)"
ktap_result "after the reject nothing is reserved on any switch" \
	"$(all_conns 0 && [ "$(reserved sw1 trk2)" = 0 ] &&
	   [ "$(reserved sw2 trk3)" = 0 ] && [ "$(sigstat sw1 pending)" = 0 ] &&
	   [ "$(sigstat sw2 pending)" = 0 ]; echo $?)"
on sw2 tc qdisc change dev trk3 root ethereal rt-limit 60%

# --- the port's buffer pool and connection bound (sw1 -> h2) ---
on sw1 tc qdisc change dev swp2 root ethereal max-conns 1
sig h1 setup 03:20 "$(host_ip h2)" 5000 1mbit 6056 1514 >/dev/null
res=$(sig h1 setup 03:21 "$(host_ip h2)" 5000 1mbit 6056 1514)
ktap_result "max-conns 1 on the output port: the second is rejected for connections" \
	"$([[ "$res" == "reject id=03:21 reason=connections hop=1"* ]]; echo $?)"
# The first one's queue (its bound's worth, at least twice its burst) and
# less than twice a burst more: no room for another.
buf=$(json_first "$(ctl sw1 -j conn show dev swp1 id 03:20)" buffer)
on sw1 tc qdisc change dev swp2 root ethereal max-conns 4096 rt-buffer $((buf + 2 * 6056 - 1))
res=$(sig h1 setup 03:21 "$(host_ip h2)" 5000 1mbit 6056 1514)
ktap_info "a queue of $buf bytes; $res"
ktap_result "rt-buffer full but for less than twice a burst: the next is rejected for buffer" \
	"$([ "$buf" -ge $((2 * 6056)) ] &&
	   [[ "$res" == "reject id=03:21 reason=buffer hop=1"* ]]; echo $?)"
sig h1 teardown 03:20 >/dev/null
wait_conns 0 2
on sw1 tc qdisc change dev swp2 root ethereal rt-buffer 1250000

# --- ARP miss: sw1 has never seen h3 ---
miss=$(sigstat sw1 arp_misses)
res=$(sig h1 setup 03:0c "$(host_ip h3)" 5000 1mbit 6056 1514)
ktap_info "$res"
ktap_result "ARP miss: sw1 asks, h3 answers, accepted over 2 hops" \
	"$([[ "$res" == "accept id=03:0c "*"hops=2 "* ]] &&
	   [ "$(sigstat sw1 arp_misses)" -gt "$miss" ]; echo $?)"
sig h1 teardown 03:0c
res=$(sig h1 setup 03:0d 10.0.0.99 5000 1mbit 6056 1514)
ktap_result "nobody answers ARP: rejected, no route" \
	"$([[ "$res" == "reject id=03:0d reason=no-route hop=1"* ]] && wait_conns 0 2; echo $?)"

# --- soft state, and the first switch's ack of each refresh ---
# A lifetime of 1 s, refreshed every 250 ms: machine time (slow), as a
# debug kernel takes longer than that to start the refresher.
LIFE=$(slow 1000)
PERIOD=$(slow 250)
for s in $SW; do ctl $s set br0 lifetime "${LIFE}ms"; done
un2=$(sigstat sw2 drop_unexpected)
un3=$(sigstat sw3 drop_unexpected)
# The refreshes start at once: with a lifetime of 1 s, the checks between
# the setup and them outlasted it on 6.12-rt.
res=$(sig h1 -k 0x5eed setup 03:0e "$(host_ip h4)" 5000 1mbit 6056 1514)
sig h1 -p 0 -k 0x5eed -w "$LIFE" refresh 03:0e "$PERIOD" 24 >"$TMPD/refresh" &
rtnl0=$(for s in $SW; do sigstat $s rtnl_runs; done)
ktap_info "$res"
feat=$(sed -n 's/.* features=\([0-9]*\) .*/\1/p' <<<"$res")
ktap_result "the first switch's ACCEPT offers the refresh ack (features bit 0)" \
	"$([[ "$res" == "accept id=03:0e "* ]] && (( ${feat:-0} & 1 )); echo $?)"
sleep "$(slow 3)"
ktap_result "refreshed every $PERIOD ms: still up after $(slow 3) s (lifetime $LIFE ms)" "$(all_conns 1; echo $?)"
# Refreshes are handled under the switch's own lock: RTNL, which all of
# the machine's network configuration waits for, is never taken for them.
rtnl1=$(for s in $SW; do sigstat $s rtnl_runs; done)
ktap_info "rtnl_runs per switch before the refreshes: $(echo $rtnl0), after $(slow 3) s of them: $(echo $rtnl1)"
ktap_result "refreshes, acks and hellos take no RTNL (rtnl_runs unchanged on every switch)" \
	"$([ "$rtnl0" = "$rtnl1" ]; echo $?)"
ktap_result "no ack travels between switches (nothing unexpected at sw2, sw3)" \
	"$([ "$(sigstat sw2 drop_unexpected)" = "$un2" ] &&
	   [ "$(sigstat sw3 drop_unexpected)" = "$un3" ]; echo $?)"
exp=$(expired_sum)
wait
res=$(cat "$TMPD/refresh")
ktap_info "$res"
ktap_result "each refresh of h1's acknowledged by sw1, with the path's lifetime" \
	"$([[ "$res" == "refresh id=03:0e sent=24 acks=24 lifetime_ms=$LIFE"* ]]; echo $?)"
# The first switch to expire it tells the others, which may not wait.
ktap_result "not refreshed: expired, and gone from every switch" \
	"$(wait_conns 0 3 && [ "$(expired_sum)" -gt "$exp" ]; echo $?)"
for s in $SW; do ctl $s set br0 lifetime 30s; done

# --- link down between sw2 and sw3: both ends tear down, h1 is told ---
# Down once h1 has the ACCEPT (every switch has it up); the client listens
# 3 s after it, but its last line needed is the teardown's.
on_bg h1 sigclient -w 3000 setup 03:0f "$(host_ip h4)" 5000 1mbit 6056 1514 >"$TMPD/linkdown"
lp=$!
wait_line "$TMPD/linkdown" '^accept' $lp
on sw3 ip link set dev trk2 down
wait_line "$TMPD/linkdown" 'type=teardown id=03:0f .*reason=link-down' $lp
kill $lp 2>/dev/null
wait $lp
res=$(cat "$TMPD/linkdown")
ktap_info "$res"
ktap_result "link down: the connection is gone from every switch" "$(wait_conns 0 2; echo $?)"
ktap_result "link down: the source is told why" \
	"$([[ "$res" == *"type=teardown id=03:0f "*"reason=link-down"* ]]; echo $?)"
on sw3 ip link set dev trk2 up
# Until both ends forward again (the carrier reaches the bridges late).
eventually 40 forwarding sw3 trk2
eventually 40 forwarding sw2 trk3

# --- bad messages, all counted and dropped ---
bad=$(sigstat sw1 drop_malformed)
sig h1 raw 0101                                   # shorter than the header
sig h1 raw 02010010000b00000000000100000000       # version 2
sig h1 raw 0101002800200000000000010000000000     # length beyond the datagram
sig h1 raw "01010100$(printf '00%.0s' $(seq 296))" # oversized: 300 bytes
ktap_result "malformed, truncated and oversized: 4 dropped, counted" \
	"$(eventually 40 counted 4 drop_malformed sw1 "$bad"; echo $?)"
sp=$(sigstat sw1 drop_spoofed)
sig h1 raw 0102000c03090000000000aa           # an ACCEPT, from a host
sig h1 raw 0105000c03090001000000aa           # a refresh ack, from a host
on h2 ip addr add 10.0.0.1/32 dev eth0 noprefixroute
sig h2 -s 10.0.0.1 -t 500 setup 03:10 "$(host_ip h4)" 5000 1mbit 6056 1514 >/dev/null
on h2 ip addr del 10.0.0.1/32 dev eth0
ktap_result "spoofed: answers from a host (ACCEPT, REFRESH ack), h2 asking as h1: dropped, counted" \
	"$(eventually 40 counted 3 drop_spoofed sw1 "$sp" && all_conns 0; echo $?)"
res=$(sig h1 setup 03:11 "$(host_ip h2)" 5000 1mbit 1000 1514)
ktap_result "burst below the packet size: rejected as invalid" \
	"$([[ "$res" == "reject id=03:11 reason=invalid hop=1"* ]]; echo $?)"
sig h1 setup 03:12 "$(host_ip h2)" 5000 1mbit 6056 1514 >/dev/null
res=$(sig h1 setup 03:12 "$(host_ip h4)" 5000 1mbit 6056 1514)
ktap_result "an ID already in use on the link: rejected" \
	"$([[ "$res" == "reject id=03:12 reason=id-in-use hop=1"* ]]; echo $?)"
sig h1 teardown 03:12

# --- a VLAN-filtering bridge: hosts learned on their ports' PVID ---
on sw1 ip link set br0 type bridge vlan_filtering 1
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
res=$(sig h1 setup 03:13 "$(host_ip h2)" 5000 1mbit 6056 1514)
ktap_info "$res"
ktap_result "VLAN-filtering bridge: h1 -> h2 accepted (the FDB looked up on the PVID)" \
	"$([[ "$res" == "accept id=03:13 "* ]]; echo $?)"
sig h1 teardown 03:13
on sw1 ip link set br0 type bridge vlan_filtering 0
wait_conns 0 2

# --- a hostile host: its budgets, not the switch's ---
# h2 holds 40 setups to an address nobody has; each waits a second for ARP.
# The capture from before the first probe until no setup waits any more
# (only those probe).
capture_start h1 eth0 "arp and host 10.0.0.99"
sig h2 -p 20001 -t 3000 flood 40 04:00 10.0.0.99 5000 1kbit 1514 1514 >"$TMPD/flood" &
flood=$!
# h1's setup while h2 holds its 32
eventually 40 pending sw1 32
res=$(sig h1 setup 03:14 "$(host_ip h2)" 5000 1mbit 6056 1514)
wait $flood
eventually 40 pending sw1 0
capture_stop 0 >"$TMPD/probes"
ktap_info "$(cat "$TMPD/flood"); ARP probes for it seen at h1: $(grep -c . "$TMPD/probes")"
ktap_result "setups in progress: a host has 32 at most, the rest refused busy" \
	"$(f=$(cat "$TMPD/flood"); [ "$(field reject_busy "$f")" -ge 1 ] 2>/dev/null &&
	   [ "$(field reject_no-route "$f")" -le 32 ]; echo $?)"
ktap_result "... while another host's setup is accepted" \
	"$([[ "$res" == "accept id=03:14 "* ]]; echo $?)"
ktap_result "... and ARP asks for the dead address once per retry, not once per setup" \
	"$([ "$(grep -c . "$TMPD/probes")" -le 12 ]; echo $?)"
sig h1 teardown 03:14
# h2 claims 40 more addresses: the switch learns 16 of a host's port.
n0=$(sigstat sw1 neighbours)
r0=$(sigstat sw1 neigh_refused)
# (one ip -batch each way and one shell for the pings: with three process
# starts a claim, the 40 took 22 to 31 s under emulation)
extra=$(seq 100 139)
on h2 ip -batch - <<<"$(printf 'addr add 10.0.0.%s/32 dev eth0\n' $extra)"
on h2 sh -c 'for i in $1; do ping -c 1 -W 1 -I 10.0.0.$i "$0" >/dev/null; done' \
	"$(host_ip h1)" "$extra"
on h2 ip -batch - <<<"$(printf 'addr del 10.0.0.%s/32 dev eth0\n' $extra)"
n1=$(sigstat sw1 neighbours)
r1=$(sigstat sw1 neigh_refused)
ktap_info "neighbours $n0 -> $n1, refused $r0 -> $r1"
ktap_result "a host's port fills only its share of the neighbour cache, the rest counted" \
	"$([ $((n1 - n0)) -le 16 ] && [ $((r1 - r0)) -ge 24 ]; echo $?)"
wait_conns 0 3

# --- a host's address is bound to its port ---
# h2 claims h1's address in ARP: refused, and sw1 still routes h1 to swp1.
on h3 ping -c 1 -W 2 "$(host_ip h1)" >/dev/null
c0=$(sigstat sw1 neigh_claims)
on h2 ip addr add "$(host_ip h1)/32" dev eth0 noprefixroute
on h2 ip neigh flush dev eth0	# so that it asks ARP, as h1
on h2 ping -c 1 -W 1 -I "$(host_ip h1)" "$(host_ip h4)" >/dev/null
on h2 ip addr del "$(host_ip h1)/32" dev eth0
res=$(sig h3 setup 03:15 "$(host_ip h1)" 5000 1mbit 6056 1514)
ktap_info "$res; claims $c0 -> $(sigstat sw1 neigh_claims)"
ktap_result "h2 claiming h1's address: refused and counted" \
	"$([ "$(sigstat sw1 neigh_claims)" -gt "$c0" ]; echo $?)"
ktap_result "... and a setup toward h1 still leaves sw1 by h1's port" \
	"$([[ "$res" == "accept id=03:15 "* ]] &&
	   [ "$(ctl sw1 -j conn show br0 |
		jq -r --arg m "$(host_mac h1)" '.[] | select(.lladdr == $m) | .out')" = swp1 ]
	   echo $?)"
sig h3 teardown 03:15
# h2 takes h1's MAC (the FDB follows it) and asks as h1: still spoofed.
sp=$(sigstat sw1 drop_spoofed)
# A new MAC flushes every neighbour entry, the control one too: put it back.
ctl_neigh() { on h2 ip neigh replace 198.18.0.1 lladdr ff:ff:ff:ff:00:01 dev eth0 nud permanent; }
on h2 ip link set eth0 address "$(host_mac h1)"
ctl_neigh
on h2 ip addr add "$(host_ip h1)/32" dev eth0 noprefixroute
on h2 ping -c 1 -W 1 -I "$(host_ip h1)" "$(host_ip h4)" >/dev/null
res=$(sig h2 -s "$(host_ip h1)" -p 20002 -t 500 setup 03:16 "$(host_ip h4)" 5000 1mbit 6056 1514)
on h2 ip addr del "$(host_ip h1)/32" dev eth0
on h2 ip link set eth0 address "$(host_mac h2)"
ctl_neigh
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
on h2 ping -c 1 -W 2 "$(host_ip h1)" >/dev/null
ktap_result "h2 with h1's MAC and address, on its own port: dropped as spoofed" \
	"$([[ "$res" != accept* ]] && [ "$(sigstat sw1 drop_spoofed)" -gt "$sp" ]; echo $?)"
wait_conns 0 3

# --- static bindings (etherealctl neigh) ---
p1=$(port_of sw1 h1)
p2=$(port_of sw1 h2)
# neigh1 ADDR FIELD: a field of ADDR's entry on sw1 (etherealctl -j)
neigh1() { ctl sw1 -j neigh show br0 | jq -r --arg a "$1" ".[] | select(.addr == \$a) | .$2"; }
ktap_result "neigh show: h1 learned on its port, bound, not static" \
	"$([ "$(neigh1 "$(host_ip h1)" port)" = "$p1" ] &&
	   [ "$(neigh1 "$(host_ip h1)" bound)" = true ] &&
	   [ "$(neigh1 "$(host_ip h1)" static)" = false ]; echo $?)"
ctl sw1 neigh add "$(host_ip h1)" lladdr "$(host_mac h1)" dev "$p1"
# A learned binding ends when its port goes down; a static one stays.
on sw1 ip link set "$p1" down
on sw1 ip link set "$p1" up
for i in $(seq 50); do
	[ "$(ctl sw1 -j port show dev "$p1" | jq -r '.[0].stp_state')" = forwarding ] && break
	sleep 0.1
done
c0=$(sigstat sw1 neigh_claims)
on h2 ip addr add "$(host_ip h1)/32" dev eth0 noprefixroute
on h2 ip neigh flush dev eth0
on h2 ping -c 1 -W 1 -I "$(host_ip h1)" "$(host_ip h4)" >/dev/null
on h2 ip addr del "$(host_ip h1)/32" dev eth0
ktap_info "$(ctl sw1 neigh show dev "$p1"); claims $c0 -> $(sigstat sw1 neigh_claims)"
ktap_result "static binding: outlives its port's link, refuses another port's claim" \
	"$([ "$(neigh1 "$(host_ip h1)" static)" = true ] &&
	   [ "$(neigh1 "$(host_ip h1)" port)" = "$p1" ] &&
	   [ "$(neigh1 "$(host_ip h1)" lladdr)" = "$(host_mac h1)" ] &&
	   [ "$(sigstat sw1 neigh_claims)" -gt "$c0" ]; echo $?)"
out=$(ctl sw1 neigh add "$(host_ip h1)" lladdr "$(host_mac h2)" dev "$p2" 2>&1)
rc1=$?
out2=$(ctl sw1 neigh add 224.0.0.1 lladdr "$(host_mac h2)" dev "$p2" 2>&1)
rc2=$?
ktap_info "$out / $out2"
ktap_result "neigh add: another port's static address, or a multicast one, refused" \
	"$([ $rc1 = 2 ] && [[ "$out" == *"bound statically to another port"* ]] &&
	   [ $rc2 = 2 ] && [[ "$out2" == *"unicast IPv4"* ]]; echo $?)"
ctl sw1 neigh add 10.0.0.77 lladdr 02:e7:00:00:00:77 dev "$p2"
a=$(neigh1 10.0.0.77 port)
ctl sw1 neigh del 10.0.0.77 dev "$p2"
out=$(ctl sw1 neigh del 10.0.0.77 dev "$p2" 2>&1)
rc=$?
ktap_result "neigh del: the entry goes; once more, the error says so" \
	"$([ "$a" = "$p2" ] && [ -z "$(neigh1 10.0.0.77 port)" ] && [ $rc = 2 ] &&
	   [[ "$out" == *"No entry for this address"* ]]; echo $?)"
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
on h2 ping -c 1 -W 2 "$(host_ip h1)" >/dev/null
wait_conns 0 3

# --- a host's quota on its port ---
ctl sw1 port set dev "$p1" host-conns 1 host-rate 2mbit
r1=$(sig h1 setup 03:19 "$(host_ip h2)" 5000 1mbit 6056 1514)
r2=$(sig h1 setup 03:1a "$(host_ip h2)" 5000 1mbit 6056 1514)
ctl sw1 port set dev "$p1" host-conns 0
r3=$(sig h1 setup 03:1b "$(host_ip h2)" 5000 2mbit 6056 1514)
r4=$(sig h1 setup 03:1c "$(host_ip h2)" 5000 1mbit 6056 1514)
ktap_info "$r1 / $r2 / $r3 / $r4; $(ctl sw1 port show dev "$p1")"
ktap_result "a host's quota: connections and bandwidth beyond it rejected, quota" \
	"$([[ "$r1" == accept* ]] && [[ "$r2" == "reject id=03:1a reason=quota "* ]] &&
	   [[ "$r3" == "reject id=03:1b reason=quota "* ]] && [[ "$r4" == accept* ]] &&
	   [ "$(ctl sw1 -j port show dev "$p1" | jq -c '.[0] | [.host_conns, .host_rate]')" = \
	     "[0,250000]" ]; echo $?)"
ctl sw1 port set dev "$p1" host-rate 0
sig h1 teardown 03:19 >/dev/null
sig h1 teardown 03:1c >/dev/null
wait_conns 0 3

# --- setups that wait for ARP downstream ---
# sw1 and sw2 learn h3 from its ARP; sw2 forgets it again, and h3 answers
# ARP 0.6 s late: a setup toward h3 is pending on sw1 while sw2 asks.
on h3 ip neigh flush dev eth0
on h3 ping -c 1 -W 2 "$(host_ip h1)" >/dev/null
ctl sw2 neigh del "$(host_ip h3)" dev "$(port_of sw2 h3)"
on h3 tc qdisc add dev eth0 root netem delay 600ms
# Refreshes from the start: some reach sw1 while the setup is pending there.
sig h1 -p 20011 -k 0x5151 -t 5000 setup 03:17 "$(host_ip h3)" 5000 1mbit 6056 1514 \
	>"$TMPD/pending" &
sp=$!
on_bg h1 sigclient -p 20012 -k 0x5151 refresh 03:17 100 20 >/dev/null
rp=$!
wait $sp
# once answered, the rest would refresh an accepted one
kill $rp 2>/dev/null
wait $rp
res=$(cat "$TMPD/pending")
ktap_info "$res"
ktap_result "a refresh of a setup still pending is not passed on: the setup completes" \
	"$([[ "$res" == accept* ]]; echo $?)"
sig h1 -k 0x5151 teardown 03:17 >/dev/null
wait_conns 0 3
on h3 tc qdisc del dev eth0 root

# --- a host on a port configured as a trunk is no switch ---
# h3's port on sw2 made a trunk: h3's setup, as a switch would send it, is
# dropped until h3 says hello as a switch (a crafted HELLO) and becomes the
# trunk's other end. Then it tries to tear down and refresh that connection
# with another cookie than its setup's.
p3=$(port_of sw2 h3)
ctl sw2 port set dev "$p3" role trunk
st=$(sigstat sw2 drop_stranger)
sig h3 -k 0xc00c -t 500 setup 05:01 "$(host_ip h4)" 5000 1mbit 6056 1514 >/dev/null
ktap_result "trunk: a host's setup, with no hello, dropped as a stranger's" \
	"$([ $(( $(sigstat sw2 drop_stranger) - st )) = 1 ] && all_conns 0; echo $?)"
# HELLO: header (version 1, type 6, 24 bytes), A_SWITCH 02:e7:00:00:0e:03
H3_HELLO=010600180000000000000000000b000a02e700000e030000
sig h3 raw $H3_HELLO
sig h3 -k 0xc00c -t 1000 setup 05:01 "$(host_ip h4)" 5000 1mbit 6056 1514 >/dev/null
wait_conns_on sw3 1 3
un=$(sigstat sw2 drop_unexpected)
sig h3 -k 0xbad teardown 05:01 >/dev/null
sig h3 -k 0xbad refresh 05:01 >/dev/null
eventually 40 counted 2 drop_unexpected sw2 "$un"
ktap_info "sw2: $(conns sw2), sw3: $(conns sw3) connections; unexpected $un -> $(sigstat sw2 drop_unexpected)"
ktap_result "trunk: a teardown and a refresh with another cookie are dropped, counted" \
	"$([ "$(conns sw2)" = 1 ] && [ "$(conns sw3)" = 1 ] &&
	   [ $(( $(sigstat sw2 drop_unexpected) - un )) = 2 ]; echo $?)"
sig h3 -k 0xc00c teardown 05:01 >/dev/null
ktap_result "trunk: with the setup's cookie, the teardown goes through" \
	"$(wait_conns 0 3; echo $?)"
# --- PROCEEDING: a wait for ARP downstream stretches the answer timeouts ---
# h3, the "switch" behind sw2's trunk, takes the SETUP for it, says it waits
# for ARP (PROCEEDING, 9 times: one past ETHEREAL_SIG_PROCEED_MAX) and
# accepts 2.4 s later, past the 2 s answer timeout sw1 and sw2 started
# with. Each PROCEEDING gives them one ARP wait more; the ninth is dropped.
sig h3 raw $H3_HELLO >/dev/null
un1=$(sigstat sw1 drop_unexpected)
un2=$(sigstat sw2 drop_unexpected)
on h3 timeout 15 python3 - $H3_HELLO >"$TMPD/proceed" 2>&1 <<'EOF_PY' &
import socket, struct, sys, time
rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
rx.bind(("eth0", 0))
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print("listening", flush=True)
while True:
    f = rx.recv(2048)
    ip = f[14:]
    udp = ip[(ip[0] & 15) * 4:]
    if f[:6] != bytes.fromhex("ffffffff0001") or ip[9] != 17 or udp[2:4] != b"\x10\x92":
        continue
    m = udp[8:]
    if m[1] == 1:  # SETUP
        break
t0 = time.monotonic()
ident = m[4:6] + b"\x00\x00" + m[8:12]
proceeding = b"\x01\x07\x00\x14" + ident + bytes.fromhex("0007000503000000")
# Still the switch at sw2's other end, however long the way here took.
tx.sendto(bytes.fromhex(sys.argv[1]), ("198.18.0.1", 4242))
for _ in range(9):
    tx.sendto(proceeding, ("198.18.0.1", 4242))
    time.sleep(0.02)
time.sleep(max(0.0, 2.4 - (time.monotonic() - t0)))
tx.sendto(b"\x01\x02\x00\x0c" + ident, ("198.18.0.1", 4242))
print("accepted after %.2f s" % (time.monotonic() - t0), flush=True)
EOF_PY
pp=$!
wait_line "$TMPD/proceed" listening $pp
res=$(sig h1 -t 6000 setup 03:41 "$(host_ip h3)" 5000 1mbit 6056 1514)
wait $pp
ktap_info "$res; h3: $(tr '\n' ' ' <"$TMPD/proceed"); unexpected sw1 $un1 -> $(sigstat sw1 drop_unexpected), sw2 $un2 -> $(sigstat sw2 drop_unexpected); sw2: $(ctl sw2 -j -s show br0 | jq -c '.[0].signaling | with_entries(select(.key | startswith("drop")))')"
ktap_result "PROCEEDING: a setup answered after the answer timeout, waits for ARP announced, is accepted" \
	"$([[ "$res" == "accept id=03:41 "* ]] && [ "$(conns sw1)" = 1 ] && [ "$(conns sw2)" = 1 ]; echo $?)"
ktap_result "PROCEEDING: past ETHEREAL_SIG_PROCEED_MAX per setup, dropped and counted" \
	"$([ $(( $(sigstat sw2 drop_unexpected) - un2 )) = 1 ] &&
	   [ "$(sigstat sw1 drop_unexpected)" = "$un1" ]; echo $?)"
sig h1 teardown 03:41 >/dev/null
wait_conns 0 3
ctl sw2 port set dev "$p3" role peripheral

# --- a key on the sw1-sw2 link authenticates what the two say ---
# trunks_know: sw1 and sw2 know each other at their link's ends again
trunks_know() {
	local i
	for i in $(seq 50); do
		[ "$(trunk_switch sw1 trk2)" = "$(bridge_mac sw2)" ] &&
		[ "$(trunk_switch sw2 trk1)" = "$(bridge_mac sw1)" ] && return 0
		sleep 0.1
	done
	return 1
}
echo 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >"$TMPD/key1"
echo ffeeddccbbaa99887766554433221100 >"$TMPD/key2"
# key_refuses SW PORT KEY ID WHAT: PORT of SW keyed with KEY, a setup of ID
# from h1 to h4 times out, and SW counts what it refused (drop_auth)
key_refuses() {
	local au res
	au=$(sigstat "$1" drop_auth)
	ctl "$1" port set dev "$2" key "$3"
	res=$(sig h1 -t 4000 setup "$4" "$(host_ip h4)" 5000 1mbit 6056 1514)
	ktap_info "$res; drop_auth at $1 $au -> $(sigstat "$1" drop_auth)"
	ktap_result "$5" \
		"$([[ "$res" == "reject id=$4 reason=timeout"* ]] &&
		   [ "$(sigstat "$1" drop_auth)" -gt "$au" ] && wait_conns 0 3; echo $?)"
}
key_refuses sw1 trk2 "$TMPD/key1" 03:31 \
	"key at one end only: the other's messages dropped (drop_auth), the setup times out"
key_refuses sw2 trk1 "$TMPD/key2" 03:32 "different keys at the two ends: nothing passes, counted"
ctl sw2 port set dev trk1 key "$TMPD/key1"
trunks_know
res=$(sig h1 setup 03:33 "$(host_ip h4)" 5000 1mbit 6056 1514)
ktap_info "$res; $(ctl sw1 port show dev trk2)"
ktap_result "the same key at both ends: the setup goes through, both ports keyed" \
	"$([[ "$res" == "accept id=03:33 "*"hops=3 "* ]] &&
	   [ "$(ctl sw1 -j port show dev trk2 | jq -r '.[0].keyed')" = true ] &&
	   [ "$(ctl sw2 -j port show dev trk1 | jq -r '.[0].keyed')" = true ]; echo $?)"
sig h1 teardown 03:33 >/dev/null
wait_conns 0 3
# replay FILE...: sw1 sends the first frame recorded in each FILE out of
# trk2 again, in that order, past its qdiscs (PACKET_QDISC_BYPASS), so that
# its egress drop spares it. One python for all: a start is slow under TCG.
replay() {
	on sw1 python3 - trk2 "$@" <<'EOF_PY'
import os, socket, struct, sys
# One CPU: a veth queues a frame on its sender's CPU, so back to back
# they would otherwise reach the switch in either order.
os.sched_setaffinity(0, [min(os.sched_getaffinity(0))])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.setsockopt(263, 20, 1)		# SOL_PACKET, PACKET_QDISC_BYPASS
s.bind((sys.argv[1], 0))
for f in sys.argv[2:]:
    d = open(f, 'rb').read()
    n = struct.unpack('<I', d[32:36])[0]	# the first record's captured length
    s.send(d[40:40 + n])
EOF_PY
}
# key_verified SW PORT: the switch at PORT's other end answered its challenge
key_verified() { [ "$(ctl "$1" -j port show dev "$2" | jq -r '.[0].key_verified')" = true ]; }
wait_verified() {
	local i
	for i in $(seq 50); do
		key_verified sw1 trk2 && key_verified sw2 trk1 && return 0
		sleep 0.1
	done
	return 1
}
# One of sw1's authenticated HELLOs, captured on its way and sent again.
on sw1 timeout 5 tcpdump -i trk2 -Q out -c 1 -w "$TMPD/hello.pcap" udp port 4242 2>/dev/null
au2=$(sigstat sw2 drop_auth)
replay "$TMPD/hello.pcap"
ktap_result "a keyed trunk's message sent again is dropped as replayed" \
	"$(eventually 40 counted 1 drop_auth sw2 "$au2" && trunks_know; echo $?)"
ktap_result "both ends keyed alike: each end's challenge answered (key verified)" \
	"$(wait_verified; echo $?)"
# One of sw1's SETUPs, recorded after the HELLO above. sw2 is then given its
# key anew and knows none of sw1's numbers; sw1's answers are held back (a
# drop on its egress). The old HELLO sent again is taken as a hello, but
# nothing else is until sw1 answers sw2's challenge: the old SETUP after it
# is refused, though its number is above the HELLO's.
on_bg sw1 timeout 10 tcpdump -i trk2 -Q out -c 1 -w "$TMPD/setup.pcap" 'udp port 4242 and udp[9] = 1' \
	>/dev/null 2>"$TMPD/tcpdump.err"
tp=$!
wait_line "$TMPD/tcpdump.err" listening $tp
res=$(sig h1 setup 03:34 "$(host_ip h4)" 5000 1mbit 6056 1514)
wait $tp
sig h1 teardown 03:34 >/dev/null
wait_conns 0 3
on sw1 tc qdisc add dev trk2 clsact
on sw1 tc filter add dev trk2 egress matchall action drop
ctl sw2 port set dev trk1 key "$TMPD/key1"
au2=$(sigstat sw2 drop_auth)
replay "$TMPD/hello.pcap" "$TMPD/setup.pcap"
eventually 40 counted 1 drop_auth sw2 "$au2"
ktap_info "$res; sw2 drop_auth $au2 -> $(sigstat sw2 drop_auth), $(conns sw2) connections; $(ctl sw2 port show dev trk1)"
ktap_result "a key set anew: old messages replayed before the other end answers its challenge, refused" \
	"$([ $(( $(sigstat sw2 drop_auth) - au2 )) = 1 ] && [ "$(conns sw2)" = 0 ] &&
	   ! key_verified sw2 trk1; echo $?)"
on sw1 tc qdisc del dev trk2 clsact
res=$(wait_verified && sig h1 setup 03:35 "$(host_ip h4)" 5000 1mbit 6056 1514)
ktap_info "$res"
ktap_result "... and once it has, signaling flows again" \
	"$([[ "$res" == "accept id=03:35 "* ]]; echo $?)"
sig h1 teardown 03:35 >/dev/null
wait_conns 0 3
ctl sw1 port set dev trk2 key off
ctl sw2 port set dev trk1 key off
trunks_know

# --- 1,000 connections through three switches ---
res=$(sig h1 -t 5000 batch 1000 01:00 "$(host_ip h4)" 5000 1kbit 100 100)
ktap_info "$res"
ktap_result "1000 connections through 3 switches set up, all accepted" \
	"$([[ "$res" == "batch n=1000 accepted=1000 "* ]]; echo $?)"
ktap_result "... and torn down: nothing left on any switch" "$(wait_conns 0 5; echo $?)"

for s in $SW; do
	ktap_info "$s: $(ctl $s -s show br0 | grep 'setup per hop')"
done
st=$(ctl sw1 -j -s show br0)
ktap_result "setup time per hop measured, for ARP hits and misses" \
	"$(holds '.[0].signaling | .setup_hit_n > 0 and .setup_miss_n > 0 and .setup_hit_avg_ns > 0' \
	  <<<"$st"; echo $?)"
ktap_end
