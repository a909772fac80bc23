#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static real-time connections through one switch and through a chain of
# three deliver UDP to an ordinary socket on the receiver. Captures on every
# link show the ID swapped hop by hop and the receiver's own MAC on the
# last link; the receiver sees its own IP, and with checksum offload off on
# every veth its stack verifies the checksums the first switch rewrote.
# timeout=400
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/wait.sh"
. "$(dirname "$0")/lib/ethereal.sh"

N=50

# frames CAPTURE DST_MAC DST_IP: how many frames of the capture match
frames() { grep -c -- "> $2, ethertype IPv4.*> $3\.5000: UDP" <<<"$1"; }

ktap_begin 17
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
TOPO_OFFLOAD=off topo_create "sw1:h1,h2,h3 sw2 sw3:h4,h5 sw1-sw2 sw2-sw3" ||
	ktap_skip_all "cannot build topology"
for s in sw1 sw2 sw3; do
	ctl $s attach br0 || ktap_skip_all "cannot attach $s"
done
ctl sw1 port set dev trk2 role trunk
ctl sw2 port set dev trk1 role trunk
ctl sw2 port set dev trk3 role trunk
ctl sw3 port set dev trk2 role trunk

# Control: the receivers' stacks really verify UDP checksums (rx offload is
# off): a datagram with a wrong checksum is counted as a checksum error.
before=$(snmp h2 Udp InCsumErrors)
on h1 python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
s.sendto(bytes([0x13, 0x88, 0x13, 0x88, 0, 12, 0xde, 0xad, 1, 2, 3, 4]), ("10.0.0.2", 0))'
csum_counted() { [ "$(snmp h2 Udp InCsumErrors)" -gt "$before" ]; }
ktap_result "control: h2 detects a bad UDP checksum" "$(eventually 40 csum_counted; echo $?)"

# --- one switch: h1 -> h2, ID 03:09, Swap at sw1 ---
ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate 50mbit
host_proxy h1 03:09
capture_start sw1 swp1 "udp port 5000"
capture_start sw1 swp2 "udp port 5000"
csum0=$(snmp h2 Udp InCsumErrors)
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" $N 200)
rc=$?
in=$(capture_stop 0)
out=$(capture_stop 1)
ktap_info "$res"
ktap_result "1 switch: all $N datagrams reach a plain socket on h2" $rc
ktap_result "1 switch: h2 saw its own address as destination, h1's as source" \
	"$([[ "$res" == *"dst=10.0.0.2 src=10.0.0.1"$'\n'* ]]; echo $?)"
ktap_result "1 switch: h1's link carries ff:ff:ff:ff:03:09 to the proxy IP" \
	"$([ "$(frames "$in" ff:ff:ff:ff:03:09 198.18.3.9)" = $N ]; echo $?)"
ktap_result "1 switch: h2's link carries h2's MAC and IP" \
	"$([ "$(frames "$out" "$(host_mac h2)" 10.0.0.2)" = $N ]; echo $?)"
ktap_result "1 switch: no checksum error at h2 (full checksums)" \
	"$([ "$(snmp h2 Udp InCsumErrors)" = "$csum0" ]; echo $?)"
ktap_result "1 switch: connection counted $N frames" \
	"$([ "$(conn_stat sw1 swp1 03:09 tx_packets)" = $N ]; echo $?)"

# The same with CHECKSUM_PARTIAL from the sender (tx offload on at h1): the
# switch fixes the pseudo-header sum, swp2 (tx offload off) completes it.
on h1 ethtool -K eth0 tx on >/dev/null
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" $N 200)
rc=$?
on h1 ethtool -K eth0 tx off >/dev/null
ktap_info "$res"
ktap_result "1 switch, partial checksums: all $N delivered, no checksum error" \
	"$([ $rc = 0 ] && [ "$(snmp h2 Udp InCsumErrors)" = "$csum0" ]; echo $?)"

# --- chain of three: h1 -> h4, IDs 03:0a, 07:78, 0a:bc, then h4's MAC ---
ctl sw1 conn add dev swp1 id 03:0a out trk2 outid 07:78 \
	daddr "$(host_ip h4)" swap rate 20mbit
ctl sw2 conn add dev trk1 id 07:78 out trk3 outid 0a:bc \
	daddr "$(host_ip h4)" rate 20mbit
ctl sw3 conn add dev trk2 id 0a:bc out swp4 lladdr "$(host_mac h4)" \
	daddr "$(host_ip h4)" rate 20mbit
host_proxy h1 03:0a
capture_start sw1 swp1 "udp port 5000"
capture_start sw1 trk2 "udp port 5000"
capture_start sw2 trk3 "udp port 5000"
capture_start sw3 swp4 "udp port 5000"
csum0=$(snmp h4 Udp InCsumErrors)
res=$(udp_flow h1 h4 "$(proxy_ip 03:0a)" $N 1000)
rc=$?
l1=$(capture_stop 2)
l2=$(capture_stop 3)
l3=$(capture_stop 4)
l4=$(capture_stop 5)
ktap_info "$res"
ktap_result "3 switches: all $N datagrams reach a plain socket on h4" $rc
ktap_result "3 switches: h4 saw its own address as destination" \
	"$([[ "$res" == *"dst=10.0.0.4 src=10.0.0.1"$'\n'* ]]; echo $?)"
ktap_result "3 switches: h1-sw1 carries ID 03:0a to the proxy IP" \
	"$([ "$(frames "$l1" ff:ff:ff:ff:03:0a 198.18.3.10)" = $N ]; echo $?)"
ktap_result "3 switches: sw1-sw2 carries ID 07:78, IP already rewritten" \
	"$([ "$(frames "$l2" ff:ff:ff:ff:07:78 10.0.0.4)" = $N ]; echo $?)"
ktap_result "3 switches: sw2-sw3 carries ID 0a:bc" \
	"$([ "$(frames "$l3" ff:ff:ff:ff:0a:bc 10.0.0.4)" = $N ]; echo $?)"
ktap_result "3 switches: sw3-h4 carries h4's MAC" \
	"$([ "$(frames "$l4" "$(host_mac h4)" 10.0.0.4)" = $N ]; echo $?)"
ktap_result "3 switches: no checksum error at h4" \
	"$([ "$(snmp h4 Udp InCsumErrors)" = "$csum0" ]; echo $?)"

# --- non-real-time traffic between other hosts, while real time flows ---
on_bg h1 udpprobe send "$(proxy_ip 03:0a)" 5000 3000 200 1000 >/dev/null
rt=$!
bad=
# pkts: every switch's and host's link statistics, as ip -j gives them;
# pkts_show: one line of packets and drops per port (jq: on failure only)
pkts() {
	local n
	for n in sw1 sw2 sw3 h1 h2 h3 h4 h5; do
		echo "$n $(ip -n "$TOPO_NS_PREFIX$n" -s -j link show)"
	done
}
pkts_show() {
	local n j
	while read -r n j; do
		jq -r --arg n "$n" '.[] | select(.ifname != "lo") |
			"\($n):\(.ifname) rx \(.stats64.rx.packets) drop \(.stats64.rx.dropped)" +
			" tx \(.stats64.tx.packets) drop \(.stats64.tx.dropped)"' <<<"$j"
	done
}
# be FROM TO: a best-effort flow; on a loss, where it went: the flow's own
# figures, the sender's neighbour entry, both hosts' counters, every
# port's packets during the flow and where each switch's FDB puts TO.
be() {
	local out before s
	before=$(pkts)
	out=$(UDP_PORT=4001 udp_flow "$1" "$2" "$(host_ip "$2")" 20) && return 0
	bad="$bad udp-$1-$2 [$(echo "$out" | tr '\n' ' ')neigh: $(on "$1" ip neigh show "$(host_ip "$2")")"
	bad="$bad; $1: $(on "$1" nstat -az IpOutNoRoutes IpExtOutOctets UdpSndbufErrors 2>/dev/null | tail -n +2 | tr -s ' \n' ' ')"
	bad="$bad; $2: $(on "$2" nstat -az IpInReceives IpInDiscards IpInHdrErrors IpInAddrErrors IpExtInNoRoutes IpInDelivers UdpInDatagrams UdpNoPorts UdpInErrors 2>/dev/null | tail -n +2 | tr -s ' \n' ' ')]"
	ktap_info "udp-$1-$2 lost: packets before (<) and after (>) the flow:"
	diff <(pkts_show <<<"$before") <(pkts | pkts_show) | sed -n 's/^\([<>]\) /#   \1 /p'
	for s in sw1 sw2 sw3; do
		ktap_info "$s fdb: $(bridge -n "$TOPO_NS_PREFIX$s" fdb show br br0 | grep "$(host_mac "$2")" | tr '\n' ' ')"
	done
}
be h3 h5
be h5 h2
on h3 ping -q -c 5 -i 0.2 "$(host_ip h5)" >/dev/null || bad="$bad ping-h3-h5"
on h2 ping -q -c 5 -i 0.2 "$(host_ip h3)" >/dev/null || bad="$bad ping-h2-h3"
wait $rt
ktap_result "non-real-time traffic between other hosts flows beside real time" \
	"$([ -z "$bad" ]; echo $?)" "failed:$bad"

# Each switch's own: its stats there (a switch that printed none fails), and
# every drop counter 0.
bad=
for s in sw1 sw2 sw3; do
	ctl $s -j stats | holds 'length > 0 and all(.[]; [.stats | to_entries[] |
		select(.key | startswith("drop_")) | .value] | length > 0 and add == 0)' || bad="$bad $s"
done
ktap_result "nothing dropped anywhere" "$([ -z "$bad" ]; echo $?)" "drops, or no stats, on:$bad"
ktap_end
