# SPDX-License-Identifier: GPL-2.0
# Shared by the bench/ scenarios: boot the VM, topologies and configurations,
# rtperf flows and rtcd, results (NAME.json, NAME.md, NAME.png).
#
# A scenario script calls bench_vm NAME "$@" first: outside the VM it re-runs
# itself inside (selftests/vm-run) with the results directory writable. Then,
# typically:
#
#   ethereal_load; topo_create "sw1:h1,h2,h3"; topo_switch_cpu sw1
#   rtcd_start h1
#   for cfg in $BENCH_CONFIGS; do
#       bench_config "$cfg" sw1 "$(host_ip h2):5000:5mbit"
#       rtperf_recv rx h2 5000
#       rtperf_send_rt test "$cfg" h1 "$(host_ip h2)" 5000 -r 5mbit -t 8
#       rtperf_send be h3 "$(host_ip h2)" 5000 -f 1 -r 10mbit -t 8
#       rtperf_wait
#       bench_result "$(rtperf_result rx 0 test | jq -c --arg c "$cfg" '{config: $c} + .')"
#   done
#   bench_summary "EtheReal kept the flow within 1%, the plain bridge lost 30%"
#   bench_write NAME '{"link_bps": 10000000}'
#   { bench_table NAME "config|..." '.results[] | [...]'; echo; echo "Setup..."; } |
#       bench_md NAME "Title"
#   bench_plot NAME         (drawn on the host after the VM: plot.py's NAME)
#
# Environment, read by every scenario:
#   BENCH_CONFIGS   configurations to run (default: all of BENCH_ALL_CONFIGS)
#   BENCH_LINK      the emulated link rate, as tc writes it (default 10mbit)
# Variables named BENCH_* or after the scenario (FIG4_SECS for fig4) are
# passed into the VM.

BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_ALL_CONFIGS="ethereal-paced ethereal-cyclic plain prio prio-police htb cbs taprio fq fq_codel pace"
BENCH_CONFIGS=${BENCH_CONFIGS:-$BENCH_ALL_CONFIGS}
BENCH_LINK=${BENCH_LINK:-10mbit}

# bench_vm NAME "$@": outside the VM, boot it and run this script inside
# (bench/NAME --in-vm OUTDIR), OUTDIR being $1 or bench/results/NAME, then
# draw the plots asked for with bench_plot, and exit with the script's
# status; inside, set BENCH_OUT, PATH and the selftests libraries (ktap,
# topo, rt, ethereal, sched) up, and BENCH_TMP, a directory removed at exit.
bench_vm() {
	local name=$1 var envs=() rc
	shift
	if [ "${1:-}" != --in-vm ]; then
		BENCH_OUT=${1:-$BENCH_TOP/bench/results/$name}
		mkdir -p "$BENCH_OUT" || exit 1
		BENCH_OUT=$(cd "$BENCH_OUT" && pwd)
		echo "$name: results go to $BENCH_OUT" >&2
		# vng does not pass the environment: name what the scenario reads
		for var in $(compgen -e); do
			case $var in BENCH_*|"${name^^}"_*) envs+=("$var=${!var}") ;; esac
		done
		rm -f "$BENCH_OUT"/.plot-*
		"$BENCH_TOP/selftests/vm-run" --rwdir "$BENCH_OUT" -- \
			env "${envs[@]}" BENCH_HOST="$(_bench_host)" BENCH_T0="$(date +%s)" \
			"$BENCH_TOP/bench/$name" --in-vm "$BENCH_OUT"
		rc=$?
		_bench_plots "$BENCH_OUT"
		exit $rc
	fi
	BENCH_NAME=$name
	BENCH_OUT=$2
	export PATH="$BENCH_TOP/ctl:$BENCH_TOP/selftests/tools:$BENCH_TOP/bench/rtperf:$BENCH_TOP/rtcd:$BENCH_TOP/rttr:$PATH"
	export LD_LIBRARY_PATH="$BENCH_TOP/rttr${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export TC_LIB_DIR="$BENCH_TOP/ctl"
	export ETHEREAL_KO="$BENCH_TOP/build/kmod/$(uname -r)/ethereal.ko"
	. "$BENCH_TOP/selftests/lib/ktap.sh"
	. "$BENCH_TOP/selftests/lib/topo.sh"
	. "$BENCH_TOP/selftests/lib/rt.sh"
	. "$BENCH_TOP/selftests/lib/ethereal.sh"
	. "$BENCH_TOP/selftests/lib/sched.sh"
	# switch ports with a TX queue per traffic class, for taprio (with a
	# root qdisc, as every other configuration has, one queue or four
	# make no difference)
	export TOPO_TXQ=${TOPO_TXQ:-4}
	BENCH_TMP=$(mktemp -d)
	defer rm -rf "$BENCH_TMP"
	BENCH_RESULTS=()
	BENCH_SUMMARY=
}

# _bench_plots OUTDIR: on the host, the plots bench_plot asked for in the
# VM (matplotlib is slow to start under TCG); printed where they are
_bench_plots() {
	local m n
	for m in "$1"/.plot-*; do
		[ -e "$m" ] || continue
		n=${m##*/.plot-}
		rm -f "$m"
		/usr/bin/python3 "$BENCH_TOP/bench/plot.py" "$n" "$1/$n.json" "$1/$n.png" &&
			echo "$n: plot in $1/$n.png" >&2 ||
			echo "$n: no plot (python3-matplotlib missing?)" >&2
	done
}

# _bench_host: the machine the VM runs on, as JSON (outside the VM: inside,
# /proc/cpuinfo shows the emulated CPU). The accelerator as vm-run picks it.
_bench_host() {
	local accel=${ETHEREAL_VM_ACCEL:-auto}
	if [ "$accel" = auto ]; then
		accel=tcg
		[ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo && accel=kvm
	fi
	jq -cn --arg cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
		--argjson cpus "$(nproc --all)" --arg kernel "$(uname -r)" --arg accel "$accel" \
		--arg host "$(hostname)" \
		'{cpu: $cpu, cpus: $cpus, kernel: $kernel, accel: $accel, hostname: $host}'
}

# bench_log MSG...: a progress line on stderr, with the seconds since the
# scenario started (the VM's boot included)
bench_log() {
	printf '[%3ds] %s\n' $((EPOCHSECONDS - ${BENCH_T0:-$EPOCHSECONDS})) "$*" >&2
}

# bench_bps RATE: bit/s of a tc rate ("10mbit" -> 10000000)
bench_bps() {
	awk -v r="$1" 'BEGIN {
		n = r + 0; u = tolower(substr(r, length(n "") + 1))
		m["bit"] = 1; m[""] = 1; m["kbit"] = 1e3; m["mbit"] = 1e6; m["gbit"] = 1e9
		if (!(u in m)) exit 1
		printf "%d", n * m[u] }'
}

# bench_machine: where and when, as JSON: {date, kernel (the guest's),
# vcpus, host: {cpu, cpus, kernel, accel, hostname}}
bench_machine() {
	jq -cn --arg d "$(date -u +%FT%TZ)" --arg k "$(uname -r)" --argjson n "$(nproc --all)" \
		--argjson h "${BENCH_HOST:-null}" \
		'{date: $d, kernel: $k, vcpus: $n, host: $h}'
}

# bench_env_note: the same as one sentence, for the Markdown
bench_env_note() {
	local accel cpu
	accel=$(jq -r '.accel // "?"' <<<"${BENCH_HOST:-null}")
	cpu=$(jq -r '.cpu // "?"' <<<"${BENCH_HOST:-null}")
	case $accel in tcg) accel="QEMU TCG (emulated: compare configurations, not absolute numbers)" ;;
		       kvm) accel="QEMU KVM" ;; esac
	echo "Linux $(uname -r), $(nproc --all) vCPUs under $accel on $cpu; $(date -u '+%F %H:%M') UTC."
}

# bench_mtu MTU NODE...: every interface of each NODE to MTU (9000: jumbo
# frames, to carry a 100 Mbit/s link in few enough frames for TCG)
bench_mtu() {
	local mtu=$1 n d
	shift
	for n in "$@"; do
		for d in $(on "$n" ls /sys/class/net); do
			[ "$d" = lo ] || on "$n" ip link set dev "$d" mtu "$mtu" || return 1
		done
	done
}

# _bench_alive PID: the process runs (a child that exited stays a zombie
# until waited for, which kill -0 does not tell)
_bench_alive() {
	local st
	{ read -r _ _ st _ </proc/"$1"/stat; } 2>/dev/null && [ "$st" != Z ]
}

# _bench_wait_for FILE TEXT SECONDS: until a line of FILE has TEXT
# (builtins only: a fork costs tens of ms under TCG)
_bench_wait_for() {
	local i l
	for ((i = 0; i < $3 * 20; i++)); do
		if [ -e "$1" ]; then
			while read -r l; do [[ $l == *"$2"* ]] && return 0; done <"$1"
		fi
		sleep 0.05
	done
	return 1
}

# bench_ping FROM TO...: one ping from FROM to each TO, so that ARP and the
# bridges' FDBs are warm before a measurement
bench_ping() {
	local from=$1 to
	shift
	for to in "$@"; do on "$from" ping -c 1 -W 2 "$(host_ip "$to")" >/dev/null; done
}

# --- rtcd ---

declare -A _rtcd_pid
# rtcd_sock HOST: the socket of HOST's rtcd (for rtperf -S, rttr-send -S)
rtcd_sock() { echo "/tmp/rtcd-$1.sock"; }

# rtcd_start HOST [RTCD_OPTIONS...]: rtcd on HOST's eth0, its log in
# $BENCH_OUT/rtcd-HOST.log; waits for its socket; stopped at exit. A
# running one is restarted (it announces its host to the switches again).
rtcd_start() {
	local h=$1 sock i
	shift
	sock=$(rtcd_sock "$h")
	rtcd_stop "$h"
	rm -f "$sock"
	# the daemon's own pid: ip netns exec execs it (on(), a function, in
	# the background would be a subshell)
	ip netns exec "$(ns_of "$h")" rtcd -i eth0 -S "$sock" "$@" 2>>"$BENCH_OUT/rtcd-$h.log" &
	_rtcd_pid[$h]=$!
	for i in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
	[ -S "$sock" ] || { echo "rtcd_start: rtcd on $h did not start" >&2; return 1; }
	defer kill "${_rtcd_pid[$h]}"
}

# rtcd_stop HOST: SIGTERM (rtcd tears its connections down), then waits
rtcd_stop() {
	local pid=${_rtcd_pid[$1]:-} i
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	unset "_rtcd_pid[$1]"
}

# rtcd_restart_all: restart every rtcd started (after the switches were
# re-attached: an attached switch takes setups only from hosts it has seen
# in ARP since, and rtcd announces its host when it starts)
rtcd_restart_all() {
	local h
	for h in "${!_rtcd_pid[@]}"; do rtcd_start "$h" || return 1; done
}

# --- configurations ---

# bench_is_ethereal CONFIG: true for ethereal-paced and ethereal-cyclic
bench_is_ethereal() { [[ "$1" == ethereal-* ]]; }

# What clears the switch, in its namespace: detach (the connections go),
# remove every port's qdiscs (root and clsact: taprio's filters would set
# every frame's skb->priority, EtheReal's tags among them)
_bench_detach_cmd="PATH=$BENCH_TOP/tc-configs:\$PATH; etherealctl detach br0 2>/dev/null"
_bench_clear_cmd="$_bench_detach_cmd; peer clear br0"

# bench_config CONFIG "SW..." [DADDR:DPORT:RATE...]: configure the bridge
# br0 of every switch SW as CONFIG, ports at the link rate BENCH_LINK:
#   ethereal-paced, ethereal-cyclic   tc-configs/ethereal-switch (ports
#       named trk* as trunks, rt-limit BENCH_RT_LIMIT, default 60%); the
#       flows are reserved separately: rtperf_send_rt (through rtcd) or
#       bench_conn_static. Running rtcds are restarted (rtcd_restart_all).
#   plain, prio, prio-police, htb, cbs, taprio, fq, fq_codel, pace
#       tc-configs/peer, the flows DADDR:DPORT:RATE classified as deserving
#       RATE; pace also paces the hosts (bench_hosts_pace), whose senders
#       then pace their flows (rtperf_send_rt)
# Whatever was configured before is replaced.
bench_config() {
	local cfg=$1 sws=$2 sw cmd
	shift 2
	# The peer script deletes the ports' root qdiscs itself; the ethereal
	# one replaces them, which the kernel refuses for another kind under
	# the same handle: clear first.
	case $cfg in
	ethereal-paced|ethereal-cyclic)
		cmd="$_bench_clear_cmd; ethereal-switch -r $BENCH_LINK -m ${cfg#ethereal-} -l ${BENCH_RT_LIMIT:-60%}"
		cmd+=' $(cd /sys/class/net/br0/brif && for p in trk*; do [ -e "$p" ] && echo "-t $p"; done) br0'
		;;
	plain|prio|prio-police|htb|cbs|taprio|fq|fq_codel|pace)
		cmd="$_bench_detach_cmd; peer -r $BENCH_LINK $cfg br0 $*"
		;;
	*) echo "bench_config: unknown configuration '$cfg'" >&2; return 1 ;;
	esac
	# one netns exec a switch: each costs a second under TCG
	for sw in $sws; do
		on "$sw" bash -c "$cmd" || {
			echo "bench_config: $cfg on $sw failed" >&2
			return 1
		}
	done
	if bench_is_ethereal "$cfg"; then rtcd_restart_all || return 1; fi
	bench_hosts_pace "$([ "$cfg" = pace ] && echo on || echo off)"
}

# bench_hosts_pace on|off: fq on every host's interface (tc-configs/peer
# pace-host: the hosts of configuration pace), or nothing, as in every
# other configuration; tc runs only when that changes
_bench_paced=off
bench_hosts_pace() {
	local h
	[ "$1" != "$_bench_paced" ] || return 0
	for h in $(topo_hosts); do
		if [ "$1" = on ]; then
			"$BENCH_TOP/tc-configs/peer" -n "$(ns_of "$h")" -r "$BENCH_LINK" \
				pace-host eth0 || return 1
		else
			"$BENCH_TOP/tc-configs/peer" -n "$(ns_of "$h")" clear eth0
		fi
	done
	_bench_paced=$1
}

# bench_clear "SW...": detach EtheReal (its connections go) and remove
# every port's qdisc: plain, unshaped bridges
bench_clear() {
	local sw
	for sw in $1; do on "$sw" bash -c "$_bench_clear_cmd"; done
	bench_hosts_pace off
}

# bench_conn_static SW FROM TO ID RATE [BURST]: a static connection on one
# switch, FROM's port to TO's, with FROM's proxy neighbour entry (what rtcd
# would install); prints the proxy IP to send to. BURST in bytes (default:
# etherealctl's).
bench_conn_static() {
	local sw=$1 from=$2 to=$3 id=$4 rate burst=()
	rate=$(bench_bps "$5") || return 1
	[ -n "${6:-}" ] && burst=(burst "$6")
	ctl "$sw" conn add dev "$(port_of "$sw" "$from")" id "$id" out "$(port_of "$sw" "$to")" \
		lladdr "$(host_mac "$to")" daddr "$(host_ip "$to")" swap rate "$rate" \
		"${burst[@]}" || return 1
	host_proxy "$from" "$id" || return 1
	proxy_ip "$id"
}

# --- rtperf flows ---

declare -A _rtperf_pid
_rtperf_senders=()
_bench_prefix=()
_rtperf_receivers=()

# rtperf_recv NAME HOST PORT [RECV_OPTIONS...]: an rtperf receiver on HOST,
# its JSON report to $BENCH_TMP/NAME.rx (rtperf_result); waits until it listens.
# It stops 1 s (BENCH_IDLE) after the last datagram, or is stopped by
# rtperf_wait, which then collects its report. rtperf_recv_start: the same
# without waiting (rtperf_listening waits for all at once).
rtperf_recv_start() {
	local name=$1 h=$2 port=$3 f=$BENCH_TMP/$1
	shift 3
	rm -f "$f.rx" "$f.rxerr"
	# not through on(): a function in the background is a subshell, and
	# $! would not be rtperf's pid (ip netns exec execs it)
	ip netns exec "$(ns_of "$h")" rtperf recv -j -w "${BENCH_IDLE:-1}" "$@" "$port" \
		>"$f.rx" 2>"$f.rxerr" &
	_rtperf_pid[$name.rx]=$!
	_rtperf_receivers+=("$name")
}
rtperf_listening() {
	local n
	for n in "$@"; do
		_bench_wait_for "$BENCH_TMP/$n.rxerr" listening 10 ||
			{ echo "rtperf_recv: $n:"; cat "$BENCH_TMP/$n.rxerr"; } >&2
	done
}
rtperf_recv() {
	rtperf_recv_start "$@"
	rtperf_listening "$1"
}

# rtperf_send NAME HOST DADDR DPORT [SEND_OPTIONS...]: an rtperf sender on
# HOST in the background (-r RATE -s SIZE -t SECONDS -p cbr|poisson -f FLOW
# ...: see rtperf(1)), its JSON report to $BENCH_TMP/NAME.tx (rtperf_result)
rtperf_send() {
	local name=$1 h=$2 daddr=$3 dport=$4 f=$BENCH_TMP/$1
	shift 4
	rm -f "$f.tx" "$f.txerr"
	ip netns exec "$(ns_of "$h")" "${_bench_prefix[@]}" rtperf send -j "$@" "$daddr" "$dport" \
		>"$f.tx" 2>"$f.txerr" &
	_rtperf_pid[$name.tx]=$!
	_rtperf_senders+=("$name")
}

# rtperf_send_rt NAME CONFIG HOST DADDR DPORT [SEND_OPTIONS...]: the same
# for a flow that deserves its rate: under EtheReal, reserved through HOST's
# rtcd (rtperf -R: librttr shapes it to the reservation, -r RATE unless -B
# says otherwise); under the peers, the plain flow their classifiers pick,
# paced by its host under pace (rtperf --pace: twice its rate at most).
# Either way at nice BENCH_RT_NICE (-10): on a real network the competing
# senders are other machines, here they share the reserved one's CPU.
rtperf_send_rt() {
	local name=$1 cfg=$2 h=$3 rt=()
	shift 3
	bench_is_ethereal "$cfg" && rt=(-R -S "$(rtcd_sock "$h")")
	[ "$cfg" != pace ] || rt=(--pace)
	_bench_prefix=(nice -n "${BENCH_RT_NICE:--10}")
	rtperf_send "$name" "$h" "$1" "$2" "${rt[@]}" "${@:3}"
	_bench_prefix=()
}

# rtperf_wait: waits for every sender, then rtperf_reap; says on stderr what
# failed
rtperf_wait() {
	local n rc=0
	for n in "${_rtperf_senders[@]}"; do
		wait "${_rtperf_pid[$n.tx]}" || {
			rc=1
			echo "rtperf_wait: sender $n failed: $(head -n 3 "$BENCH_TMP/$n.txerr")" >&2
		}
	done
	_rtperf_senders=()
	rtperf_reap || rc=1
	return $rc
}

# rtperf_reap [SECONDS]: every receiver gets SECONDS (BENCH_IDLE + 3) to end
# on its own, then SIGTERM (a receiver that got nothing reports too)
rtperf_reap() {
	local n pid i rc=0
	for n in "${_rtperf_receivers[@]}"; do
		pid=${_rtperf_pid[$n.rx]}
		for ((i = 0; i < ${1:-$((${BENCH_IDLE:-1} + 3))} * 20; i++)); do
			_bench_alive "$pid" || break
			sleep 0.05
		done
		kill "$pid" 2>/dev/null
		wait "$pid"
		[ -s "$BENCH_TMP/$n.rx" ] || { rc=1; echo "rtperf_wait: receiver $n reported nothing" >&2; }
	done
	_rtperf_receivers=()
	return $rc
}

# rtperf_result RX FLOW TX...: what every scenario reports of a flow, from
# receiver RX's flow FLOW and its senders TX... (several when they share a
# flow id), as one JSON object: sent, received, lost, loss_pct (sent but
# not received), throughput_bps (whole frames, first to last arrival),
# offered_bps, delay p50/p99/max, jitter (sd of the delay) and IPDV mean,
# in us, and the 80 ms window's min and max (bit/s); null where nothing
# arrived.
rtperf_result() {
	local rx=$BENCH_TMP/$1.rx flow=$2 n txs=()
	for n in "${@:3}"; do [ -s "$BENCH_TMP/$n.tx" ] && txs+=("$BENCH_TMP/$n.tx"); done
	[ -s "$rx" ] || rx=/dev/null
	# one jq: each costs a second under TCG
	jq -cn --argjson f "$flow" --slurpfile rxs "$rx" '
		def us: if . == null then null else . / 1000 | . * 10 | round / 10 end;
		def bps: if . == null then null else round end;
		([$rxs[0].flows[]? | select(.flow == $f)][0]) as $rx
		| [inputs] as $tx
		| ($tx | map(.sent // 0) | add // 0) as $sent
		| ($rx.unique // 0) as $got
		| {sent: $sent, received: $got, lost: ($sent - $got),
		   loss_pct: (if $sent > 0 then (($sent - $got) * 100 / $sent) * 100 | round / 100 else null end),
		   offered_bps: ($tx | map(.frame_bps // 0) | add // 0 | round),
		   throughput_bps: ($rx.frame_bps // 0 | round),
		   delay_p50_us: ($rx.delay_ns.p50 | us), delay_p99_us: ($rx.delay_ns.p99 | us),
		   delay_max_us: ($rx.delay_ns.max | us), jitter_us: ($rx.jitter_ns | us),
		   ipdv_mean_us: ($rx.ipdv_ns.mean | us),
		   window_min_bps: ($rx.window.min_bps | bps), window_max_bps: ($rx.window.max_bps | bps),
		   reserved: ($tx | map(.reservation != null) | any)}' "${txs[@]}" 2>/dev/null
}

# --- results ---

# bench_result JSON: one result (an object, one line) for NAME.json
bench_result() { BENCH_RESULTS+=("$1"); }

# bench_summary TEXT: the scenario's outcome in one sentence, for the
# summary table of Documentation/performance.md (bench/summary); call it
# before bench_write
bench_summary() { BENCH_SUMMARY=$*; }

# bench_write NAME [PARAMETERS_JSON]: $BENCH_OUT/NAME.json: {scenario,
# machine (bench_machine), parameters, summary (bench_summary), results:
# [bench_result...]}
bench_write() {
	local params=${2:-'{}'}
	printf '%s\n' "${BENCH_RESULTS[@]}" |
		jq -s --arg s "$1" --argjson m "$(bench_machine)" --argjson p "$params" \
			--arg sum "${BENCH_SUMMARY:-}" \
			'{scenario: $s, machine: $m, parameters: $p,
			  summary: (if $sum == "" then null else $sum end), results: .}' >"$BENCH_OUT/$1.json"
}

# bench_table NAME HEADERS JQ: a Markdown table from $BENCH_OUT/NAME.json:
# HEADERS "config|N|throughput (Mbit/s)|...", JQ a filter giving one array
# per row (the first column left-aligned, the others right). In JQ, mbit
# and r(N) (round to N decimals) are defined: .throughput_bps | mbit.
bench_table() {
	local cols
	echo "| ${2//|/ | } |"
	cols=$(awk -F'|' '{ printf "| --- |"; for (i = 2; i <= NF; i++) printf " ---: |"; print "" }' <<<"$2")
	echo "$cols"
	jq -r 'def r(n): if . == null then "–" else . * pow(10; n) | round / pow(10; n) end;
	       def mbit: if . == null then null else . / 1e6 end;
	       '"$3"' | map(if . == null then "–" else tostring end) | "| " + join(" | ") + " |"' \
		"$BENCH_OUT/$1.json"
}

# bench_md NAME TITLE: $BENCH_OUT/NAME.md from stdin (the table and a
# paragraph on the setup and its scaling), under "## TITLE", with the
# machine and date (bench_env_note) after it; also printed on stdout
bench_md() {
	{
		echo "## $2"
		echo
		cat
		echo
		echo "$(bench_env_note)"
	} >"$BENCH_OUT/$1.md"
	cat "$BENCH_OUT/$1.md"
}

# bench_plot NAME: $BENCH_OUT/NAME.png from NAME.json by bench/plot.py's
# function NAME (system python3 with matplotlib), drawn on the host once
# the VM is done
bench_plot() { : >"$BENCH_OUT/.plot-$1"; }

# --- pktgen ---

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
