# SPDX-License-Identifier: GPL-2.0
# What bench/fig5, fig6 and fig7 (the paper's Figs. 5 to 8) add to
# bench/lib.sh: the cyclic scheduler's cycle, a host's NIC, captures,
# greedy TCP. Sourced after bench_vm. Few forks: each netns exec costs
# about a second under TCG.

# fig_config CONFIG "SW..." [FLOW...]: bench_config, where CONFIG may also
# be ethereal-MODE-CYCLE (ethereal-cyclic-20ms): the ethereal qdisc of
# every port then runs that cycle (default 10ms, the paper's)
fig_config() {
	local cfg=$1 sws=$2 mode cycle sw
	shift 2
	case $cfg in
	ethereal-*-*)
		mode=${cfg#ethereal-}
		cycle=${mode#*-}
		mode=${mode%%-*}
		bench_config "ethereal-$mode" "$sws" "$@" || return 1
		for sw in $sws; do
			on "$sw" sh -c "for p in /sys/class/net/br0/brif/*; do
				tc qdisc replace dev \${p##*/} root handle 1: ethereal rate $BENCH_LINK \
					mode $mode cycle $cycle rt-limit ${BENCH_RT_LIMIT:-60%} || exit 1
			done" || { echo "fig_config: no cycle $cycle on $sw" >&2; return 1; }
		done
		;;
	*)
		bench_config "$cfg" "$sws" "$@"
		;;
	esac
}

# host_nic HOST: HOST's NIC as a wire at the link rate out of a 64-frame
# FIFO (a veth sends as fast as the CPU does), which all of the host's
# traffic shares on its way to the switch, as in selftests/sched_tcp.sh
host_nic() {
	on "$1" tc qdisc replace dev eth0 root tbf rate "$BENCH_LINK" burst 3028 limit 96896
}

# cap_start NAME NODE IFACE FILTER...: tcpdump in NODE of the frames IFACE
# receives (headers, nanosecond kernel stamps) to $BENCH_TMP/NAME.pcap;
# returns once it listens. cap_stop NAME: ends it, leaving the file.
declare -A _cap_pid
cap_start() {
	local name=$1 node=$2 dev=$3
	shift 3
	on_bg "$node" tcpdump -i "$dev" -Q in -n -s 96 --time-stamp-precision nano \
		-w "$BENCH_TMP/$name.pcap" "$@" 2>"$BENCH_TMP/$name.caperr"
	_cap_pid[$name]=$!
	defer kill "$!"
	_bench_wait_for "$BENCH_TMP/$name.caperr" "listening on" 10 ||
		{ echo "cap_start: $name: $(cat "$BENCH_TMP/$name.caperr")" >&2; return 1; }
}
cap_stop() {
	sleep 0.2	# what is still on its way
	kill "${_cap_pid[$1]}" 2>/dev/null	# SIGTERM: tcpdump flushes the file
	wait "${_cap_pid[$1]}" 2>/dev/null
}

# pcapstat iat|window|around ...: bench/pcapstat.py (JSON)
# -S: no site (standard library only), which takes seconds to import under TCG
pcapstat() { /usr/bin/python3 -S "$BENCH_TOP/bench/pcapstat.py" "$@"; }

# tcp_start NAME FROM TO: a greedy TCP flow (iperf3, port 5201) from FROM
# to TO in the background, until tcp_stop NAME (at most 10 minutes), which
# leaves iperf3's JSON in $BENCH_TMP/NAME.tcp. Stopped rather than timed:
# under TCG what runs next to it starts seconds late.
declare -A _tcp_pid
tcp_start() {
	local name=$1 from=$2 to=$3
	# one client, and never for long: no server left behind
	on_bg "$to" timeout 700 iperf3 -s -1 -p 5201 >/dev/null 2>&1
	on "$to" sh -c 'for i in $(seq 100); do
		ss -Htln "sport = :5201" | grep -q . && exit 0; sleep 0.05; done; exit 1' ||
		echo "tcp_start: no iperf3 server on $to" >&2
	# timeout passes SIGTERM on
	on_bg "$from" timeout 600 iperf3 -c "$(host_ip "$to")" -p 5201 -t 600 -J \
		>"$BENCH_TMP/$name.tcp" 2>&1
	_tcp_pid[$name]=$!
	defer kill "$!"
}
tcp_stop() {
	kill "${_tcp_pid[$1]}" 2>/dev/null	# iperf3 ends the test and reports
	wait "${_tcp_pid[$1]}"
}
