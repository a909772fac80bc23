#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# 10,000 connections on one port: installing, dumping and forwarding stay
# correct, and removing the port frees them all.
# timeout=400
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

N=10000
FIRST=$((0x1000))
id_of() { printf '%02x:%02x' $(($1 >> 8)) $(($1 & 255)); }

ktap_begin 7
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"

batch=$(mktemp)
awk -v first=$FIRST -v n=$N -v mac="$(host_mac h2)" -v ip="$(host_ip h2)" 'BEGIN {
	for (i = first; i < first + n; i++)
		printf "conn add dev swp1 id %02x:%02x out swp2 lladdr %s daddr %s swap rate 100kbit\n",
			int(i / 256), i % 256, mac, ip
}' >"$batch"
start=$(date +%s.%N)
ctl sw1 -b "$batch"
rc=$?
ktap_info "$N connections installed in $(echo "$(date +%s.%N) - $start" | bc) s"
ktap_result "$N connections installed" \
	"$([ $rc = 0 ] && [ "$(ctl sw1 -j show | jq '.[0].connections')" = $N ]; echo $?)"
ktap_result "a dump lists all $N, each once" \
	"$([ "$(ctl sw1 -j conn show br0 | jq '[.[].id] | unique | length')" = $N ]; echo $?)"
ktap_result "port accounts $N connections and their reservations" \
	"$(ctl sw1 -j port show dev swp2 |
	   holds ".[0].conns_out == $N and .[0].reserved == $N * 100000 / 8"; echo $?)"

bad=
for i in $FIRST $((FIRST + N / 2)) $((FIRST + N - 1)); do
	id=$(id_of $i)
	host_proxy h1 "$id"
	udp_flow h1 h2 "$(proxy_ip "$id")" 200 100 >/dev/null || bad="$bad $id"
	[ "$(conn_stat sw1 swp1 "$id" tx_packets)" = 200 ] || bad="$bad $id(count)"
done
ktap_result "first, middle and last connection forward exactly" \
	"$([ -z "$bad" ]; echo $?)" "failed:$bad"
ktap_result "unknown IDs between them are still dropped" \
	"$(on h1 ethsend eth0 ff:ff:ff:ff:ff:fe 0x0800 100 10;
	   [ "$(port_stat sw1 swp1 drop_unknown_id)" = 10 ]; echo $?)"

sed 's/^conn add \(dev swp1 id [^ ]*\).*/conn del \1/' "$batch" | head -n $((N / 2)) >"$batch.del"
ctl sw1 -b "$batch.del"
ktap_result "half deleted in a batch: $((N / 2)) remain" \
	"$([ "$(ctl sw1 -j show | jq '.[0].connections')" = $((N / 2)) ]; echo $?)"
on sw1 ip link del swp2
ktap_result "output port deleted: its connections are gone" \
	"$([ "$(ctl sw1 -j show | jq '.[0].connections')" = 0 ]; echo $?)"
rm -f "$batch" "$batch.del"
ktap_end
