# SPDX-License-Identifier: GPL-2.0
# What bench/nto1, bench/alloc, bench/isolation, bench/burst and
# bench/path need beyond bench/lib.sh (sourced after bench_vm): peers on the
# egress port alone, addresses pinned, reservations' bursts.
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
# and a tc costs about a second under a busy emulated CPU); the hosts paced
# under pace alone (bench_hosts_pace)
lp_peer() {
	"$BENCH_TOP/tc-configs/peer" -n "$(ns_of "$2")" -r "$BENCH_LINK" -p "$3" "$1" br0 "${@:4}" &&
		bench_hosts_pace "$([ "$1" = pace ] && echo on || echo off)"
}
