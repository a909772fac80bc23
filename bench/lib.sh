# SPDX-License-Identifier: GPL-2.0
# Shared by the bench/ scenarios: boot the VM when needed, results, pktgen.
#
# A scenario script calls bench_vm "$@" first: outside the VM it re-runs
# itself inside (selftests/vm-run) with the results directory writable.

BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

bench_vm() {
	local name=$1
	shift
	if [ "${1:-}" != --in-vm ]; then
		BENCH_OUT=${1:-$BENCH_TOP/bench/results/$name}
		mkdir -p "$BENCH_OUT"
		echo "$name: results go to $BENCH_OUT" >&2
		exec "$BENCH_TOP/selftests/vm-run" --rwdir "$BENCH_OUT" -- \
			"$BENCH_TOP/bench/$name" --in-vm "$BENCH_OUT"
	fi
	BENCH_OUT=$2
	export PATH="$BENCH_TOP/ctl:$BENCH_TOP/selftests/tools:$PATH"
	export ETHEREAL_KO="$BENCH_TOP/kmod/ethereal.ko"
	. "$BENCH_TOP/selftests/lib/ktap.sh"
	. "$BENCH_TOP/selftests/lib/topo.sh"
	. "$BENCH_TOP/selftests/lib/rt.sh"
	. "$BENCH_TOP/selftests/lib/ethereal.sh"
}

# rx_packets NODE IFACE
rx_packets() { on "$1" cat "/sys/class/net/$2/statistics/rx_packets"; }

# pktgen_run NODE IFACE COUNT SIZE DST_MAC DST_IP [DST_MAC_COUNT]: blast
# COUNT frames out of IFACE from NODE's kernel (no socket, no qdisc); prints
# the microseconds pktgen took.
pktgen_run() {
	local node=$1 dev=$2 count=$3 size=$4 mac=$5 ip=$6 nmac=${7:-0}
	local pg=/proc/net/pktgen
	on "$node" sh -c "
		echo rem_device_all > $pg/kpktgend_0
		echo 'add_device $dev' > $pg/kpktgend_0
		for c in 'count $count' 'clone_skb 0' 'pkt_size $size' 'delay 0' \
			 'dst_mac $mac' 'dst_mac_count $nmac' 'dst $ip' \
			 'udp_src_min 9' 'udp_src_max 9' 'udp_dst_min 5000' 'udp_dst_max 5000'; do
			echo \"\$c\" > $pg/$dev
		done
		echo start > $pg/pgctrl
		sed -n 's/.*OK: \([0-9]*\)(.*/\1/p' $pg/$dev
	"
}
