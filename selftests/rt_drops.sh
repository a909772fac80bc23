#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every drop reason of the real-time path, provoked, and its counter checked
# on the port and on the connection. Two hosts on different ports using the
# same ID do not collide. The bridge's isolation and VLAN rules hold for
# real-time frames too.
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

# delta OLD NEW EXPECTED: ok when NEW - OLD == EXPECTED
delta() { [ "$(($2 - $1))" -eq "$3" ]; }

# wait_state SW PORT STATE: until etherealctl shows the port's STP state
wait_state() {
	local i
	for i in $(seq 100); do
		[ "$(ctl "$1" -j port show dev "$2" | jq -r '.[0].stp_state')" = "$3" ] &&
			return 0
		sleep 0.05
	done
	return 1
}

ktap_begin 21
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2,h3,h4" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"

ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate 50mbit
ctl sw1 conn add dev swp1 id 03:0a out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate 10mbit maxpkt 200
host_proxy h1 03:09
host_proxy h1 03:0a

# Same ID 03:09 on another port, to another receiver.
ctl sw1 conn add dev swp3 id 03:09 out swp4 lladdr "$(host_mac h4)" \
	daddr "$(host_ip h4)" swap rate 50mbit
host_proxy h3 03:09
on_bg h1 udpprobe send "$(proxy_ip 03:09)" 5000 400 100 2000 >/dev/null
a=$!
res=$(udp_flow h3 h4 "$(proxy_ip 03:09)" 400 100 2000)
rc=$?
wait $a
ktap_info "h4: $res"
ktap_result "same ID on two ports: h3's stream reaches h4 only, from h3" \
	"$([ $rc = 0 ] && [[ "$res" == *" src=10.0.0.3"$'\n'"sent="* ]]; echo $?)"
ktap_result "same ID on two ports: each connection counted its own 400" \
	"$([ "$(conn_stat sw1 swp1 03:09 tx_packets)" = 400 ] &&
	   [ "$(conn_stat sw1 swp3 03:09 tx_packets)" = 400 ]; echo $?)"

# unknown ID on that port
old=$(port_stat sw1 swp1 drop_unknown_id)
on h1 ethsend eth0 ff:ff:ff:ff:04:00 0x0800 100 10
ktap_result "unknown ID: counted on the input port" \
	"$(delta "$old" "$(port_stat sw1 swp1 drop_unknown_id)" 10; echo $?)"
old=$(port_stat sw1 swp2 drop_unknown_id)
on h2 ethsend eth0 ff:ff:ff:ff:03:09 0x0800 100 10
ktap_result "unknown ID: 03:09 is not a connection on swp2" \
	"$(delta "$old" "$(port_stat sw1 swp2 drop_unknown_id)" 10; echo $?)"

# output port not forwarding. STP is off, so the bridge would put a port
# set to blocking straight back to forwarding; disabled stays.
old=$(port_stat sw1 swp1 drop_port_state)
oldc=$(conn_stat sw1 swp1 03:09 drop_port_state)
on sw1 bridge link set dev swp2 state 0
wait_state sw1 swp2 disabled
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 10 100 >/dev/null
ktap_result "output port disabled: counted on port and connection" \
	"$(delta "$old" "$(port_stat sw1 swp1 drop_port_state)" 10 &&
	   delta "$oldc" "$(conn_stat sw1 swp1 03:09 drop_port_state)" 10; echo $?)"
on sw1 bridge link set dev swp2 state 3
wait_state sw1 swp2 forwarding
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" 10 100)
ktap_result "output port forwarding again: traffic flows" $?

# larger than the connection's max packet size, or than the output MTU
old=$(conn_stat sw1 swp1 03:0a drop_oversize)
on h1 udpprobe send "$(proxy_ip 03:0a)" 5000 10 500 >/dev/null
res=$(udp_flow h1 h2 "$(proxy_ip 03:0a)" 10 100)
rc=$?
ktap_result "over max packet size (200): dropped, smaller frames pass" \
	"$(delta "$old" "$(conn_stat sw1 swp1 03:0a drop_oversize)" 10 && [ $rc = 0 ]
	   echo $?)"
on sw1 ip link set dev swp2 mtu 1000
old=$(port_stat sw1 swp1 drop_oversize)
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 10 1400 >/dev/null
ktap_result "over the output port's MTU: dropped and counted" \
	"$(delta "$old" "$(port_stat sw1 swp1 drop_oversize)" 10; echo $?)"
on sw1 ip link set dev swp2 mtu 1500

# malformed: Swap needs an IPv4 header
old=$(conn_stat sw1 swp1 03:09 drop_malformed)
on h1 ethsend eth0 ff:ff:ff:ff:03:09 0x88b5 100 10
on h1 ethsend eth0 ff:ff:ff:ff:03:09 0x0800 10 10
ktap_result "malformed: not IPv4, or truncated IPv4, with Swap" \
	"$(delta "$old" "$(conn_stat sw1 swp1 03:09 drop_malformed)" 20; echo $?)"

# the control range, before signaling handles it
old=$(port_stat sw1 swp1 drop_control)
on h1 ethsend eth0 ff:ff:ff:ff:00:00 0x0800 100 5
on h1 ethsend eth0 ff:ff:ff:ff:00:0a 0x0800 100 5
ktap_result "control range 00:00-00:0a: counted" \
	"$(delta "$old" "$(port_stat sw1 swp1 drop_control)" 10; echo $?)"

# addressed to the switch: ARP goes up, the rest is dropped
old=$(port_stat sw1 swp1 drop_to_switch)
on h1 ethsend eth0 "$(bridge_mac sw1)" 0x0800 100 10
on h1 ethsend eth0 "$(port_mac sw1 h1)" 0x0800 100 10
on h1 ethsend eth0 "$(bridge_mac sw1)" 0x0806 28 10
ktap_result "to the switch: IP dropped and counted, ARP not" \
	"$(delta "$old" "$(port_stat sw1 swp1 drop_to_switch)" 20; echo $?)"
on sw1 ip addr add 10.0.0.254/24 dev br0
on h1 ip neigh flush dev eth0
on h1 ping -c 1 -W 1 10.0.0.254 >/dev/null
ktap_result "to the switch: the switch still answers ARP" \
	"$(on h1 ip neigh show 10.0.0.254 | grep -q "lladdr $(bridge_mac sw1)"; echo $?)"

# refused by the output queue: a slow queue on swp2
on sw1 tc qdisc add dev swp2 root tbf rate 1mbit burst 2k limit 3k
old=$(conn_stat sw1 swp1 03:09 drop_queue)
oldtx=$(conn_stat sw1 swp1 03:09 tx_packets)
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 200 1000 >/dev/null
q=$(( $(conn_stat sw1 swp1 03:09 drop_queue) - old ))
tx=$(( $(conn_stat sw1 swp1 03:09 tx_packets) - oldtx ))
ktap_info "queue drops $q, sent $tx"
ktap_result "output queue full: every frame either sent or counted" \
	"$([ "$q" -gt 0 ] && [ $((q + tx)) = 200 ]; echo $?)"
on sw1 tc qdisc del dev swp2 root

# The bridge's rules: isolated ports do not talk to each other.
old=$(conn_stat sw1 swp1 03:09 drop_filtered)
on sw1 bridge link set dev swp1 isolated on
on sw1 bridge link set dev swp2 isolated on
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 10 100 >/dev/null
ktap_result "isolated ports: frames dropped, counted as filtered" \
	"$(delta "$old" "$(conn_stat sw1 swp1 03:09 drop_filtered)" 10; echo $?)"
out=$(ctl sw1 conn add dev swp1 id 03:0b out swp2 lladdr "$(host_mac h2)" rate 1mbit 2>&1)
rc=$?
ktap_info "$out"
ktap_result "isolated ports: a connection between them is refused" \
	"$([ $rc != 0 ] && [[ "$out" == *"VLAN or isolation"* ]]; echo $?)"
on sw1 bridge link set dev swp1 isolated off
on sw1 bridge link set dev swp2 isolated off
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" 10 100)
ktap_result "isolation off: traffic flows" $?

# VLAN filtering: every port untagged in VLAN 1 (the default PVID).
on sw1 ip link set br0 type bridge vlan_filtering 1
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" 10 100)
ktap_result "VLAN filtering on: the connection, in both ports' VLAN, forwards" $?
old=$(conn_stat sw1 swp1 03:09 drop_filtered)
on sw1 bridge vlan del dev swp2 vid 1
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 10 100 >/dev/null
ktap_result "VLAN filtering: output port out of the VLAN, frames counted as filtered" \
	"$(delta "$old" "$(conn_stat sw1 swp1 03:09 drop_filtered)" 10; echo $?)"
# Back in VLAN 1, tagged: the frames leave with a tag, as the bridge's would.
on sw1 bridge vlan add dev swp2 vid 1
capture_start h2 eth0 "ether dst $(host_mac h2)"
on h1 udpprobe send "$(proxy_ip 03:09)" 5000 10 100 >/dev/null
seen=$(capture_stop 0)
ktap_info "$(head -n 1 <<<"$seen")"
ktap_result "VLAN filtering: a tagged member port gets the frames tagged" \
	"$([ "$(grep -c "vlan 1," <<<"$seen")" = 10 ]; echo $?)"
on sw1 bridge vlan add dev swp3 vid 20 pvid untagged
out=$(ctl sw1 conn add dev swp3 id 03:0b out swp4 lladdr "$(host_mac h4)" rate 1mbit 2>&1)
rc=$?
ktap_info "$out"
ktap_result "VLAN filtering: a connection out of the input port's VLAN is refused" \
	"$([ $rc != 0 ] && [[ "$out" == *"VLAN or isolation"* ]]; echo $?)"

ktap_result "every frame of the connection accounted: rx = tx + drops" \
	"$(ctl sw1 -j -s conn show dev swp1 id 03:09 | holds '.[0].stats | .rx_packets > 0 and
	   .rx_packets == .tx_packets + ([to_entries[] |
	   select(.key | startswith("drop_")) | .value] | add)'; echo $?)"
ktap_end
