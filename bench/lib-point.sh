# SPDX-License-Identifier: GPL-2.0
# The measurement methods every bench/ scenario uses, written once
# (Documentation/benchmarks.md has them with their sources): a point's
# flows started together, the point repeated, every run checked and the
# runs summarized by rtperf analyze. Sourced by bench/lib.sh in the VM.
#
# A scenario measures a point as
#
#   run() {                     # one run: declare the flows, then go
#       lp_recv rx h2 5000
#       lp_send_rt test "$cfg" h1 "$(host_ip h2)" 5000 -r 5mbit -t "$secs"
#       lp_send be h3 "$(host_ip h2)" 5000 -f 1 -r 10mbit -t "$secs"
#       lp_go
#   }
#   lp_point fig4-htb-1 "test:0:rt:4750000:5000000 be:1:be:10000000" run
#   res=$LP_RESULT              # rtperf analyze's JSON (rtperf(1))
#
# lp_point runs RUN (a function, with its arguments) BENCH_RUNS times into
# a directory each, checks each run (rtperf analyze -c), runs again in
# place of an invalid run at most BENCH_RETRIES times, then summarizes the
# runs in LP_RESULT and exports every datagram of every run to
# $BENCH_OUT/data/KEY.csv.gz. A spec is NAME:FLOW:CLASS:OFFERED[:RESERVED
# [:FLAGS]], NAME a sender (its receiver is the one on its port), FLOW its
# flow id (-f), OFFERED and RESERVED in bit/s, FLAGS h when the sender's
# own queue is part of what is measured (its ENOBUFS then do not spoil a
# run), o when the flow offers beyond RESERVED on purpose (it may skip up
# to half its excess: rtperf(1)).
#
# Senders never catch up in a burst (rtperf send --skip): woken later than
# their gap between datagrams (an emulated machine stalls for 5 to 30 ms
# now and then, under SCHED_FIFO too), they skip the departures missed,
# so that every datagram sent leaves within a gap of its time (1 to 3% of
# them skipped under TCG on a shared 2-CPU machine: the rates measured are
# set against what was meant to be sent, sent_bps). A run is
# invalid when a sender skipped more than BENCH_SKIP_PCT of its departures
# (its offered load short by that) or was otherwise behind by more than a
# gap, a socket dropped (the receiver's, or the sender's ENOBUFS), the
# flows' sending intervals overlapped less than BENCH_OVERLAP percent, or
# RUN gave up (lp_abort).
#
# Environment:
#   BENCH_RUNS      runs per point (5; QUICK 2)
#   BENCH_RETRIES   runs in place of invalid ones, per point (2; QUICK 0)
#   BENCH_WARMUP    seconds cut at the start of the window (0.5)
#   BENCH_OVERLAP   least overlap of the flows, % (95)
#   BENCH_SKIP_PCT  most departures a sender may skip after stalls, % (5)
#   BENCH_MIN_FRAMES  frames the slowest measured flow must get in the
#                   windows of a point's runs (1000; QUICK 100): lp_secs
#   BENCH_OFFER_PCT what a flow that deserves a rate offers of it (95):
#                   lp_offer, lp_rate
#   BENCH_DRAIN     seconds the receivers get after the last sender ends (1)
#   BENCH_SENDER_RT the senders' SCHED_FIFO priority (10; 0: none, the
#                   flows that deserve their rate at nice BENCH_RT_NICE)
#   BENCH_EXPORT    0: no per-datagram export
# shellcheck shell=bash

if [ "${BENCH_QUICK:-0}" = 1 ]; then
	BENCH_RUNS=${BENCH_RUNS:-2}
	BENCH_RETRIES=${BENCH_RETRIES:-0}
	BENCH_MIN_FRAMES=${BENCH_MIN_FRAMES:-100}
	BENCH_DRAIN=${BENCH_DRAIN:-0.5}
fi
BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_RETRIES=${BENCH_RETRIES:-2}
BENCH_WARMUP=${BENCH_WARMUP:-0.5}
BENCH_OVERLAP=${BENCH_OVERLAP:-95}
BENCH_SKIP_PCT=${BENCH_SKIP_PCT:-5}
BENCH_MIN_FRAMES=${BENCH_MIN_FRAMES:-1000}
BENCH_OFFER_PCT=${BENCH_OFFER_PCT:-95}
BENCH_DRAIN=${BENCH_DRAIN:-1}
# On a network every host is a machine of its own: here the senders of a
# run share a vCPU with the receivers and everything else, and an emulated
# sender woken a few ms late catches up in a burst, which spoils the run.
# At real-time priority they stall far less.
BENCH_SENDER_RT=${BENCH_SENDER_RT:-10}

# lp_secs SECS BPS FRAME: how long a run must be for a flow of BPS bit/s
# in FRAME-byte frames to get its part of BENCH_MIN_FRAMES frames in the
# steady-state windows of BENCH_RUNS runs (the warm-up cut, 5% to spare):
# p99.9 needs a thousand samples, and a low-rate class would otherwise
# have a few dozen; SECS if longer; in tenths of a second
lp_secs() {
	awk -v s="$1" -v b="$2" -v f="$3" -v n="$BENCH_MIN_FRAMES" -v r="$BENCH_RUNS" \
		-v w="$BENCH_WARMUP" 'BEGIN {
		t = w + n / r * f * 8 / b * 1.05 + 0.2; if (s + 0 > t) t = s + 0
		printf "%g", int(t * 10 + 0.999) / 10 }'
}

# lp_offer BPS: what a flow that deserves BPS (its reservation, its
# class's rate) offers: BENCH_OFFER_PCT of it. lp_rate BPS: the other way
# round, the rate a flow offering BPS deserves. A class loaded at exactly
# its rate is a queue with no drift: every stall of an emulated sender,
# caught up in a burst, adds a backlog that nothing drains, and the delay
# random-walks to the buffer's end (Documentation/benchmarks.md).
lp_offer() { echo $(( $1 * BENCH_OFFER_PCT / 100 )); }
lp_rate() { echo $(( $1 * 100 / BENCH_OFFER_PCT )); }

# --- one run ---

_lp_dir=
_lp_holders=()
_lp_jobs=()
_lp_names=()
_lp_rx=()
declare -gA _lp_cmd _lp_nice _lp_pid _lp_port_rx

# lp_recv NAME HOST PORT [RECV_OPTIONS...]: an rtperf receiver on HOST,
# started now, stopped by lp_go BENCH_DRAIN after the last sender ends (not
# on a silence: a flow a full queue starves for a while would lose its
# receiver, and its sender then its port); its report and datagrams in the
# run's directory
lp_recv() {
	local name=$1 h=$2 port=$3 f=$_lp_dir/$1
	shift 3
	_lp_mon_start
	on_bg "$h" rtperf recv -j -o "$f.csv" "$@" "$port" >"$f.rx" 2>"$f.rxerr"
	_lp_pid[$name.rx]=$!
	_lp_rx+=("$name")
	_lp_port_rx[$port]=$name
}

# lp_send NAME HOST DADDR DPORT [SEND_OPTIONS...]: an rtperf sender, for
# lp_go to start; lp_send_rt NAME CONFIG HOST DADDR DPORT [OPTIONS...]: a
# flow that deserves its rate: under EtheReal reserved through HOST's rtcd
# (rtperf -R: librttr shapes it; the reservation's options, -B RATE to
# reserve RATE rather than the sending rate, -b, -m, --period), under the
# peers the plain flow their classifiers pick (the reservation's options
# dropped), paced by its host under pace (tc-configs/peer's fq pacing:
# rtperf --pace); with BENCH_SENDER_RT 0, at nice BENCH_RT_NICE (-10),
# since on a real network the competing senders would be other machines,
# here they share its CPU
lp_send() { _lp_names+=("$1"); _lp_cmd[$1]="${*:2}"; }
lp_send_rt() {
	local a args=() skip=0
	if bench_is_ethereal "$2"; then
		lp_send "$1" "$3" "$4" "$5" -R -S "$(rtcd_sock "$3")" "${@:6}"
	else
		for a in "${@:3}"; do
			if [ $skip = 1 ]; then skip=0; continue; fi
			case $a in -B|-b|-m|--period) skip=1; continue ;; esac
			args+=("$a")
		done
		[ "$2" = pace ] && args+=(--pace)
		lp_send "$1" "${args[@]}"
	fi
	_lp_nice[$1]=1
}

# lp_open HOST DADDR DPORT RATE [BURST [MAXPKT]]: a reservation through
# HOST's rtcd held by "rtcd open" for the run, for a sender that does not
# shape (plain rtperf to the proxy IP); lp_proxy HOST waits for it and
# prints the proxy IP. rtcd's answer (open-HOST) and what was reserved
# (open-HOST.req, "DADDR DPORT") stay in the run's directory: rtperf
# analyze sets the sender to the proxy against the bound told
lp_open() {
	local h=$1 f=$_lp_dir/open-$1
	shift
	_lp_mon_start
	rm -f "$f" "$f.pid"
	echo "$1 $2" >"$f.req"
	on_bg "$h" sh -c 'echo $$ >"$0.pid"; s=$1; shift; exec rtcd -S "$s" -i eth0 open "$@"' "$f" \
		"$(rtcd_sock "$h")" "$@" >"$f" 2>&1
	_lp_jobs+=($!)
	_lp_holders+=("$h")
}
lp_proxy() {
	local f=$_lp_dir/open-$1 i l
	for ((i = 0; i < 150; i++)); do
		if [ -s "$f" ]; then
			read -r l <"$f"
			[[ $l =~ \"proxy\":\ *\"([0-9.]+)\" ]] && { echo "${BASH_REMATCH[1]}"; return 0; }
			[[ $l == *'"ok": false'* || $l == *'"ok":false'* || $l == rtcd:* ]] && break
		fi
		sleep 0.1
	done
	echo "lp_proxy: no reservation for $1: $(cat "$f" 2>/dev/null)" >&2
	return 1
}

# _lp_has FILE TEXT: a line of FILE has TEXT (builtins only)
_lp_has() {
	local l
	[ -e "$1" ] || return 1
	while read -r l; do [[ $l == *"$2"* ]] && return 0; done <"$1"
	return 1
}

# lp_why TEXT: the run is not valid, for that reason (rtperf analyze reads it)
lp_why() { echo "$*" >>"$_lp_dir/why"; }

# _lp_mon_start: under EtheReal (bench_config's BENCH_ETHEREAL_SWS), each
# switch's monitor, whose events of the run's connections, as they go,
# carry what the switch measured of their frames (etherealctl -s):
# hops-SW.json, which rtperf analyze reads. Once a run, by the first of
# lp_recv, lp_open, lp_go. _lp_mon_stop: once every connection it saw set
# up has gone (5 s at most), each one stopped.
_lp_mon=()
_lp_mon_start() {
	local sw
	[ ${#_lp_mon[@]} -eq 0 ] || return 0
	for sw in ${BENCH_ETHEREAL_SWS:-}; do
		on_bg "$sw" etherealctl -j -s monitor >"$_lp_dir/hops-$sw.json" 2>/dev/null
		_lp_mon+=($!)
	done
}
_lp_mon_stop() {
	local sw f i l up
	[ ${#_lp_mon[@]} -gt 0 ] || return 0
	for sw in ${BENCH_ETHEREAL_SWS:-}; do
		f=$_lp_dir/hops-$sw.json
		for ((i = 0; i < 50; i++)); do
			up=0
			while read -r l; do
				case $l in
				*'"event":"accepted"'*) up=$((up + 1)) ;;
				*'"event":"teardown"'*) up=$((up - 1)) ;;
				esac
			done <"$f"
			[ $up -le 0 ] && break
			sleep 0.1
		done
	done
	kill -INT "${_lp_mon[@]}" 2>/dev/null
	wait "${_lp_mon[@]}" 2>/dev/null
	_lp_mon=()
}

# lp_go: the run: waits for the receivers to listen, starts the senders,
# which set up (socket, reservation) and say they are ready, then releases
# them together with a start time 0.2 s on (rtperf send --start: every
# schedule starts at that instant), waits for them, gives what is still
# queued BENCH_DRAIN to arrive, stops the receivers, gives the
# reservations held with lp_open back and stops the switches' monitors
lp_go() {
	local n h d p fd i t rc=0 lock=$_lp_dir/go pids=() args prio
	for n in "${_lp_rx[@]}"; do
		_bench_wait_for "$_lp_dir/$n.rxerr" listening 10 ||
			lp_why "receiver $n did not listen: $(head -n 2 "$_lp_dir/$n.rxerr")"
	done
	_lp_mon_start
	: >"$lock"
	exec {fd}>"$lock"
	flock -x "$fd"
	for n in "${_lp_names[@]}"; do
		read -ra args <<<"${_lp_cmd[$n]}"
		h=${args[0]} d=${args[1]} p=${args[2]}
		printf '%s\n' "${_lp_port_rx[$p]:-?}" >"$_lp_dir/$n.rxname"
		if [ "$BENCH_SENDER_RT" -gt 0 ]; then prio=(chrt -f "$BENCH_SENDER_RT")
		elif [ -n "${_lp_nice[$n]:-}" ]; then prio=(nice -n "${BENCH_RT_NICE:--10}")
		else prio=(); fi
		on_bg "$h" "${prio[@]}" rtperf send -j --skip --start "$lock" \
			"${args[@]:3}" "$d" "$p" >"$_lp_dir/$n.tx" 2>"$_lp_dir/$n.txerr" {fd}>&-
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		n=${_lp_names[$i]}
		# a reservation takes a signaling round trip: up to 30 s under TCG
		for ((t = 0; t < 600; t++)); do
			_lp_has "$_lp_dir/$n.txerr" ready && break
			_bench_alive "${pids[$i]}" || break
			sleep 0.05
		done
	done
	# 0.2 s and a little more per sender: time for each to wake up
	t=${EPOCHREALTIME/./}
	echo "$(( (t + 200000 + 20000 * ${#pids[@]}) * 1000 ))" >"$lock"
	exec {fd}>&-
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || {
			rc=1
			lp_why "sender ${_lp_names[$i]} failed: $(head -n 2 "$_lp_dir/${_lp_names[$i]}.txerr" | tr '\n' ' ')"
		}
	done
	sleep "$BENCH_DRAIN"
	_lp_reap_rx
	lp_close_all
	_lp_mon_stop
	lp_reap
	return $rc
}

# lp_abort WHY: a run given up before lp_go: its receivers and
# reservations go, and it is not valid
lp_abort() {
	lp_why "$*"
	_lp_reap_rx
	lp_close_all
	_lp_mon_stop
	lp_reap
}

# _lp_reap_rx: every receiver stopped (SIGTERM: it reports what it got)
_lp_reap_rx() {
	local n
	for n in "${_lp_rx[@]}"; do kill "${_lp_pid[$n.rx]}" 2>/dev/null; done
	for n in "${_lp_rx[@]}"; do wait "${_lp_pid[$n.rx]}"; done
	_lp_rx=()
}

# lp_reap: wait for the holders' jobs (never a bare wait: the rtcds are
# jobs too), and forget the run's senders
lp_reap() {
	[ ${#_lp_jobs[@]} -eq 0 ] || wait "${_lp_jobs[@]}" 2>/dev/null
	_lp_jobs=()
	_lp_names=()
	_lp_cmd=()
	_lp_nice=()
	_lp_port_rx=()
}

# lp_close_all: every reservation held by lp_open given back (rtcd tears it
# down when its holder goes)
lp_close_all() {
	local h pid i
	for h in "${_lp_holders[@]}"; do
		pid=$(<"$_lp_dir/open-$h.pid") 2>/dev/null || continue
		kill "$pid" 2>/dev/null
		# a job that ended stays a zombie until reaped: not kill -0
		for ((i = 0; i < 30; i++)); do _bench_alive "$pid" || break; sleep 0.1; done
	done
	_lp_holders=()
}

# --- the point ---

LP_RESULT=
LP_DIRS=()
LP_GOOD=()

# lp_point KEY SPECS RUN [ARGS...]: the point KEY (a file name: the
# scenario's, unique), RUN ARGS once per run (see the top); LP_RESULT its
# summary, LP_DIRS its runs' directories, LP_GOOD the valid ones' (for
# what a scenario takes from a run itself: a capture, a series)
lp_point() {
	local key=$1 specs=$2 fn=$3 n=0 good=0 dir out
	local _lp_opts=(-w "$BENCH_WARMUP" -O "$BENCH_OVERLAP" -S "$BENCH_SKIP_PCT")
	shift 3
	dir=$BENCH_TMP/point
	rm -rf "$dir"
	LP_DIRS=()
	LP_GOOD=()
	_lp_args=()
	while [ $good -lt "$BENCH_RUNS" ] && [ $n -lt $((BENCH_RUNS + BENCH_RETRIES)) ]; do
		n=$((n + 1))
		_lp_dir=$dir/run$n
		mkdir -p "$_lp_dir"
		LP_DIRS+=("$_lp_dir")
		"$fn" "$@"
		_lp_specs "$specs"
		if out=$(rtperf analyze -c "${_lp_opts[@]}" "${_lp_args[@]}" "$_lp_dir"); then
			good=$((good + 1))
			LP_GOOD+=("$_lp_dir")
		else
			bench_log "    run $n not valid: ${out#*: }"
		fi
	done
	LP_RESULT=
	if [ "${BENCH_EXPORT:-1}" = 1 ]; then
		mkdir -p "$BENCH_OUT/data"
		LP_RESULT=$(rtperf analyze "${_lp_opts[@]}" -o "$dir/export.csv" \
			"${_lp_args[@]}" "${LP_DIRS[@]}") &&
			gzip -c "$dir/export.csv" >"$BENCH_OUT/data/$key.csv.gz"
	else
		LP_RESULT=$(rtperf analyze "${_lp_opts[@]}" "${_lp_args[@]}" "${LP_DIRS[@]}")
	fi
	[ -n "$LP_RESULT" ] || LP_RESULT=null
}

# lp_first_good FILE...: the first valid run's directory, or, when none
# was valid, one where each FILE holds null (for jq --slurpfile)
lp_first_good() {
	local f d=$BENCH_TMP/none
	if [ ${#LP_GOOD[@]} -gt 0 ]; then echo "${LP_GOOD[0]}"; return; fi
	mkdir -p "$d"
	for f in "$@"; do echo null >"$d/$f"; done
	echo "$d"
}

# _lp_specs SPECS: rtperf analyze's -F options in _lp_args, each sender
# with the receiver on its port as the last run found it (a run that gave
# up early keeps what an earlier one found)
_lp_args=()
_lp_specs() {
	local s name rx args=()
	for s in $1; do
		name=${s%%:*}
		rx=
		[ -e "$_lp_dir/$name.rxname" ] && read -r rx <"$_lp_dir/$name.rxname"
		[ -n "$rx" ] && [ "$rx" != "?" ] || { [ ${#_lp_args[@]} -gt 0 ] && return 0; rx=$name; }
		args+=(-F "$name:$rx:${s#*:}")
	done
	_lp_args=("${args[@]}")
}
