# SPDX-License-Identifier: GPL-2.0
# Shared by the bench/ scenarios: boot the VM, topologies and configurations,
# rtcd, results (NAME.json, NAME.md, NAME.png); the flows of a measurement
# point and the methods that make it one are bench/lib-point.sh's.
#
# A scenario script calls bench_vm NAME "$@" first: outside the VM it re-runs
# itself inside (selftests/vm-run) with the results directory writable. Then,
# typically:
#
#   ethereal_load; topo_create "sw1:h1,h2,h3"; topo_switch_cpu sw1
#   rtcd_start h1
#   run() {
#       lp_recv rx h2 5000
#       lp_send_rt test "$cfg" h1 "$(host_ip h2)" 5000 -r 4750000 -t 8
#       lp_send be h3 "$(host_ip h2)" 5000 -f 1 -r 10mbit -t 8
#       lp_go
#   }
#   for cfg in $BENCH_CONFIGS; do
#       bench_config "$cfg" sw1 "$(host_ip h2):5000:5mbit"
#       lp_point "NAME-$cfg" "test:0:rt:4750000:5000000 be:1:be:10000000" run
#       bench_result "$(jq -c --arg c "$cfg" '{config: $c} + .' <<<"$LP_RESULT")"
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
#   BENCH_QUICK     1: the scenario's quick form (make bench QUICK=1): fewer
#                   runs, shorter, fewer points, the same code; results in
#                   bench/results/quick/NAME
#   and lib-point.sh's (BENCH_RUNS...).
# Variables named BENCH_* or after the scenario (FIG4_SECS for fig4) are
# passed into the VM, with the commit of the tree (BENCH_COMMIT, git
# describe --always --dirty, taken on the host before the VM starts).

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
	local name=$1 rc
	shift
	if [ "${1:-}" != --in-vm ]; then
		BENCH_OUT=${1:-$(bench_results_dir)/$name}
		mkdir -p "$BENCH_OUT" || exit 1
		BENCH_OUT=$(cd "$BENCH_OUT" && pwd)
		echo "$name: results go to $BENCH_OUT" >&2
		bench_fresh "$BENCH_OUT"
		bench_boot "$BENCH_OUT" "$name" "$BENCH_TOP/bench/$name" --in-vm "$BENCH_OUT"
		rc=$?
		_bench_plots "$BENCH_OUT"
		exit $rc
	fi
	BENCH_NAME=$name
	BENCH_OUT=$2
	BENCH_T0=${BENCH_T0:-$EPOCHSECONDS}
	export PATH="$BENCH_TOP/ctl:$BENCH_TOP/selftests/tools:$BENCH_TOP/bench/rtperf:$BENCH_TOP/rtcd:$BENCH_TOP/rttr:$PATH"
	export LD_LIBRARY_PATH="$BENCH_TOP/rttr${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export TC_LIB_DIR="$BENCH_TOP/ctl"
	export ETHEREAL_KO="$BENCH_TOP/build/kmod/$(uname -r)/ethereal.ko"
	. "$BENCH_TOP/selftests/lib/ktap.sh"
	. "$BENCH_TOP/selftests/lib/topo.sh"
	. "$BENCH_TOP/selftests/lib/rt.sh"
	. "$BENCH_TOP/selftests/lib/ethereal.sh"
	. "$BENCH_TOP/selftests/lib/sched.sh"
	. "$BENCH_TOP/bench/lib-point.sh"
	# switch ports with a TX queue per traffic class, for taprio (with a
	# root qdisc, as every other configuration has, one queue or four
	# make no difference)
	export TOPO_TXQ=${TOPO_TXQ:-4}
	BENCH_TMP=$(mktemp -d)
	defer rm -rf "$BENCH_TMP"
	BENCH_RESULTS=()
	BENCH_SUMMARY=
}

# bench_results_dir: where scenarios write (bench/results, or
# bench/results/quick for the quick forms), bench/summary reads
bench_results_dir() {
	if [ "${BENCH_QUICK:-0}" = 1 ]; then echo "$BENCH_TOP/bench/results/quick"
	else echo "$BENCH_TOP/bench/results"; fi
}

# bench_commit NAME: the commit scenario NAME's results are stamped with
# (bench/commit: the last that changed the code it measures, "-dirty" when
# that has changes); bench_stamp NAME: the one it was given (BENCH_COMMIT,
# else BENCH_COMMIT_NAME, taken on the host)
bench_commit() { "$BENCH_TOP/bench/commit" "$1"; }
bench_stamp() {
	local v=BENCH_COMMIT_$1
	echo "${BENCH_COMMIT:-${!v:-unknown}}"
}
# bench_commit_export NAME: on the host, BENCH_COMMIT_NAME set to
# bench_commit NAME and exported, unless it or BENCH_COMMIT is given (once
# for bench/run and bench_boot: what the VM is told, what resumes)
bench_commit_export() {
	local v=BENCH_COMMIT_$1
	[ -n "${BENCH_COMMIT:-}${!v:-}" ] || export "$v=$(bench_commit "$1")"
}

# bench_quick QUICK FULL: QUICK under BENCH_QUICK=1, else FULL (a
# scenario's default of a variable)
bench_quick() { if [ "${BENCH_QUICK:-0}" = 1 ]; then echo "$1"; else echo "$2"; fi; }

# bench_boot RWDIR NAMES CMD...: on the host, boot the VM with RWDIR
# writable and run CMD in it, with the environment the scenarios NAMES
# read (vng does not pass it on: BENCH_* and NAME_*) and the commit of the
# tree, taken now (BENCH_COMMIT: before the build vm-run does and the VM;
# in the guest the tree is read-only and git slow)
bench_boot() {
	local rw=$1 names=$2 var n envs=()
	shift 2
	for n in $names; do bench_commit_export "$n"; done
	for var in $(compgen -e); do
		case $var in BENCH_*) envs+=("$var=${!var}"); continue ;; esac
		for n in $names; do
			[[ $var == "${n^^}"_* ]] && { envs+=("$var=${!var}"); break; }
		done
	done
	"$BENCH_TOP/selftests/vm-run" --rwdir "$rw" -- env "${envs[@]}" BENCH_HOST="$(_bench_host)" "$@"
}

# bench_fresh OUTDIR: what a run of the scenario replaces goes: no stale
# plot or data beside the new results
bench_fresh() { rm -rf "$1"/.plot-* "$1/data"; }

# _bench_done OUTDIR NAME: scenario NAME ran through into OUTDIR, on its
# stamp in its form (bench/run); _bench_is_done OUTDIR NAME: it did, on the
# current ones
_bench_done() { echo "$(bench_stamp "$2") quick=${BENCH_QUICK:-0}" >"$1/.done"; }
_bench_is_done() {
	local c
	c=$(bench_stamp "$2")
	[[ $c != unknown && $c != *-dirty ]] &&
		[ "$(cat "$1/.done" 2>/dev/null)" = "$c quick=${BENCH_QUICK:-0}" ]
}

# _bench_plots OUTDIR...: on the host, the plots bench_plot asked for in the
# VM (matplotlib is slow to start under TCG), all in one plot.py (its start
# costs half a second on the host too), which says where each went
_bench_plots() {
	local d m n args=()
	for d; do
		for m in "$d"/.plot-*; do
			[ -e "$m" ] || continue
			n=${m##*/.plot-}
			rm -f "$m"
			args+=("$n" "$d/$n.json" "$d/$n.png")
		done
	done
	[ ${#args[@]} -eq 0 ] || /usr/bin/python3 "$BENCH_TOP/bench/plot.py" "${args[@]}" ||
		echo "bench: plots missing (above; python3-matplotlib?)" >&2
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
# scenario started in the VM
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

# bench_machine: where, when and what, as JSON: {date, commit (the tree's,
# BENCH_COMMIT), quick (the quick form), kernel (the guest's), vcpus,
# host: {cpu, cpus, kernel, accel, hostname}}
# (printf, not jq: no string in it needs escaping, and BENCH_HOST is JSON)
bench_machine() {
	local d q=false
	TZ=UTC printf -v d '%(%FT%TZ)T' -1
	[ "${BENCH_QUICK:-0}" != 1 ] || q=true
	printf '{"date":"%s","commit":"%s","quick":%s,"kernel":"%s","vcpus":%d,"host":%s}\n' \
		"$d" "$(bench_stamp "${BENCH_NAME:-}")" "$q" "$(</proc/sys/kernel/osrelease)" \
		"$(nproc --all)" "${BENCH_HOST:-null}"
}

# bench_env_note: the same as one sentence, for the Markdown
# (no jq: BENCH_HOST is _bench_host's compact JSON, and each jq costs
# 0.3 s under TCG)
bench_env_note() {
	local accel=? cpu=? re quick= when
	re='"accel":"([^"]*)"'
	[[ ${BENCH_HOST:-} =~ $re ]] && accel=${BASH_REMATCH[1]}
	re='"cpu":"([^"]*)"'
	[[ ${BENCH_HOST:-} =~ $re ]] && cpu=${BASH_REMATCH[1]}
	case $accel in tcg) accel="QEMU TCG (emulated: compare configurations, not absolute numbers)" ;;
		       kvm) accel="QEMU KVM" ;; esac
	[ "${BENCH_QUICK:-0}" != 1 ] || quick=" (quick form)"
	TZ=UTC printf -v when '%(%F %H:%M)T' -1
	echo "Commit $(bench_stamp "${BENCH_NAME:-}")$quick, Linux $(</proc/sys/kernel/osrelease)," \
	     "$(nproc --all) vCPUs under $accel on $cpu; $when UTC."
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
rtcd_sock() { local s; _rtcd_sock s "$1"; echo "$s"; }
_rtcd_sock() { printf -v "$1" /tmp/rtcd-%s.sock "$2"; }	# VAR HOST, no fork

# rtcd_start HOST... [RTCD_OPTIONS...]: rtcd on each HOST's eth0, its log
# in $BENCH_OUT/rtcd-HOST.log; all started at once, then waited for (their
# sockets: 0.7 s each under TCG); stopped at exit. A running one is
# restarted (it announces its host to the switches again).
rtcd_start() {
	local hs=() h
	while [ $# -gt 0 ] && [[ $1 != -* ]]; do hs+=("$1"); shift; done
	for h in "${hs[@]}"; do _rtcd_spawn "$h" "$@"; done
	for h in "${hs[@]}"; do _rtcd_ready "$h" || return 1; done
}
_rtcd_spawn() { # HOST [RTCD_OPTIONS...]
	local h=$1 sock
	shift
	_rtcd_sock sock "$h"
	rtcd_stop "$h"
	rm -f "$sock"
	on_bg "$h" rtcd -i eth0 -S "$sock" "$@" 2>>"$BENCH_OUT/rtcd-$h.log"
	_rtcd_pid[$h]=$!
	defer kill "$!"
}
_rtcd_ready() { # HOST: its socket there within 10 s (builtins but sleep)
	local i sock
	_rtcd_sock sock "$1"
	for ((i = 0; i < 200; i++)); do
		[ -S "$sock" ] && return 0
		_bench_alive "${_rtcd_pid[$1]}" || break
		sleep 0.05
	done
	echo "rtcd_start: rtcd on $1 did not start" >&2
	return 1
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
# in ARP since, and rtcd announces its host when it starts), all at once
rtcd_restart_all() {
	local hs=("${!_rtcd_pid[@]}") h
	[ ${#hs[@]} -gt 0 ] || return 0
	for h in "${hs[@]}"; do kill "${_rtcd_pid[$h]}" 2>/dev/null; done
	rtcd_start "${hs[@]}"
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
#       named trk* as trunks, rt-limit BENCH_RT_LIMIT, default 60%, each
#       port's delay budget BENCH_DELAY, default 30ms, see
#       Documentation/benchmarks.md; link-burst a cycle, 10ms); the flows are reserved separately:
#       lp_send_rt (through rtcd) or bench_conn_static. Running rtcds are
#       restarted (rtcd_restart_all). The switches' monitors then record
#       each run's connections (lp_go: what they measured, hop by hop).
#   plain, prio, prio-police, htb, cbs, taprio, fq, fq_codel, pace
#       tc-configs/peer, the flows DADDR:DPORT:RATE classified as deserving
#       RATE; pace also paces the hosts (bench_hosts_pace), whose senders
#       then pace their flows (lp_send_rt)
# Whatever was configured before is replaced.
bench_config() {
	local cfg=$1 sws=$2 sw cmd
	shift 2
	# The peer script deletes the ports' root qdiscs itself; the ethereal
	# one replaces them, which the kernel refuses for another kind under
	# the same handle: clear first.
	case $cfg in
	ethereal-paced|ethereal-cyclic)
		# -b: the link catches up a cycle, as the peers' wire (a tbf of a
		# cycle's bucket, tc-configs/README.md) does
		cmd="$_bench_clear_cmd; ethereal-switch -r $BENCH_LINK -m ${cfg#ethereal-}"
		cmd+=" -l ${BENCH_RT_LIMIT:-60%} -d ${BENCH_DELAY:-30ms} -b 10ms"
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
	BENCH_ETHEREAL_SWS=
	if bench_is_ethereal "$cfg"; then
		BENCH_ETHEREAL_SWS=$sws
		rtcd_restart_all || return 1
	fi
	bench_hosts_pace "$([ "$cfg" = pace ] && echo on || echo off)"
}

# bench_hosts_pace on|off: fq on every host's interface (tc-configs/peer
# pace-host: the hosts of configuration pace), or nothing, as in every
# other configuration; tc runs only when that changes. A host's emulated
# NIC (lib-fig.sh's host_nic, a tbf) stays: fq goes under it, and off
# gives it its FIFO back.
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
# per row (the first column left-aligned, the others right). In JQ:
#   r(N)        round to N decimals: .x | r(2)
#   mbit, ms    bit/s to Mbit/s, us to ms
#   pm(F; N)    an estimate over runs ({mean, ci, n}: rtperf analyze) as
#               "mean ± ci", F applied to both, N decimals:
#               .throughput_bps | pm(mbit; 3)
#   runs        a point's runs: "valid/runs", with the share of departures
#               its senders skipped after stalls when there were any
#               ("5/5, 1.2% skipped"), or "invalid: why" when no run was
#               valid (never averaged in: its estimates are empty)
bench_table() {
	local cols
	echo "| ${2//|/ | } |"
	cols=$(awk -F'|' '{ printf "| --- |"; for (i = 2; i <= NF; i++) printf " ---: |"; print "" }' <<<"$2")
	echo "$cols"
	jq -r "$_bench_jq_defs"'
	       '"$3"' | map(if . == null then "–" else tostring end) | "| " + join(" | ") + " |"' \
		"$BENCH_OUT/$1.json"
}
_bench_jq_defs='def r(n): if . == null then "–" else . * pow(10; n) | round / pow(10; n) end;
	def mbit: if . == null then null else . / 1e6 end;
	def ms: if . == null then null else . / 1000 end;
	def pm(f; n): if . == null or .mean == null then "–"
		elif .ci == null then "\(.mean | f | r(n))"
		else "\(.mean | f | r(n)) ± \(.ci | f | r(n))" end;
	def runs: if . == null then "–" elif .valid > 0 then "\(.valid)/\(.runs)"
			+ (if (.skipped_pct // 0) > 0 then ", \(.skipped_pct)% skipped" else "" end)
		else "invalid: \([.run[]?.why // empty][0] // "no run" | split("; ")[0])" end;
	def bnd: if . == null or .delay_bound_us == null then "–"
		else "\(.delay_bound_us | ms | r(1)) (max \(.ratio))" end;'


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
