# SPDX-License-Identifier: GPL-2.0
# What bench/nto1, bench/alloc, bench/isolation, bench/burst and
# bench/path need beyond bench/lib.sh (sourced after bench_vm): peers on the
# egress port alone, prio in three bands, addresses pinned, reservations'
# bursts.
# shellcheck shell=bash

# pct BPS PERCENT: PERCENT (may be fractional) of BPS, whole bit/s
pct() { awk -v b="$1" -v p="$2" 'BEGIN { printf "%d", b * p / 100 }'; }

# conn_burst RATE_BPS FRAME: rtcd's default burst (10 ms of the rate, at
# least two frames) for frames of FRAME bytes
conn_burst() { awk -v r="$1" -v m="$2" 'BEGIN { b = int(r / 800); print (b < 2 * m ? 2 * m : b) }'; }

# lp_pin SW DST SRC...: DST's address pinned where a saturated port could
# starve its refresh (ARP to DST crosses the congested port, and strict
# priority starves it): a permanent neighbour entry on each SRC, a static
# FDB entry on SW. Runs outlast the FDB's ageing time.
lp_pin() {
	local sw=$1 dst=$2 h
	shift 2
	for h in "$@"; do
		on "$h" ip neigh replace "$(host_ip "$dst")" lladdr "$(host_mac "$dst")" \
			dev eth0 nud permanent || return 1
	done
	on "$sw" bridge fdb replace "$(host_mac "$dst")" dev "$(port_of "$sw" "$dst")" \
		master static
}

# lp_peer KIND SW PORT [DADDR:DPORT:RATE...]: tc-configs/peer KIND on SW's
# egress PORT alone, at BENCH_LINK (the other ports carry nothing measured,
# and a tc costs about a second under a busy emulated CPU)
lp_peer() {
	"$BENCH_TOP/tc-configs/peer" -n "$(ns_of "$2")" -r "$BENCH_LINK" -p "$3" "$1" br0 "${@:4}"
}

# lp_prio3 SW PORT HI "MID..." : strict priority in three bands on SW's
# PORT, as an 802.1p switch with priorities 7, 6 and 0 (Jacobs et al.):
# the flow HI (DADDR:DPORT) in band 1, the MID flows in band 2, the rest in
# band 3; the link as tc-configs/peer makes it (a tbf at BENCH_LINK, bfifos
# of 2 x rate x 10 ms).
lp_prio3() {
	local sw=$1 p=$2 hi=$3 mid=$4 f band link buf
	link=$(bench_bps "$BENCH_LINK")
	buf=$((link / 8 / 50))
	lp_peer clear "$sw" "$p"
	on "$sw" tc qdisc add dev "$p" root handle 1: tbf rate "${link}bit" \
		burst 3028 limit $buf || return 1
	on "$sw" tc qdisc add dev "$p" parent 1:1 handle 10: prio bands 3 \
		priomap 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 || return 1
	for band in 1 2 3; do
		on "$sw" tc qdisc add dev "$p" parent 10:$band bfifo limit $buf || return 1
	done
	for f in "$hi" $mid; do
		band=2
		[ "$f" = "$hi" ] && band=1
		on "$sw" tc filter add dev "$p" parent 10: protocol ip prio 1 u32 \
			match ip dst "${f%%:*}/32" match ip protocol 17 0xff \
			match ip dport "${f##*:}" 0xffff flowid 10:$band || return 1
	done
}
