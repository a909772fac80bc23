# SPDX-License-Identifier: GPL-2.0
# What bench/nto1, bench/alloc and bench/isolation need beyond bench/lib.sh
# (sourced after bench_vm): peers on the egress port alone, prio in three
# bands, flows started together (reservations held without librttr
# included), and one point's flows and classes in one JSON object.
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

# lp_prio3 SW PORT HI "MID..." : strict priority in three bands on SW's
# PORT, as an 802.1p switch with priorities 7, 6 and 0 (Jacobs et al.):
# the flow HI (DADDR:DPORT) in band 1, the MID flows in band 2, the rest in
# band 3: tc-configs/peer prio with two classes.
lp_prio3() {
	local f flows=("$3:0:1")
	for f in $4; do flows+=("$f:0:2"); done
	lp_peer prio "$1" "$2" "${flows[@]}"
}

# The flows of one point, all started together (spawning a dozen processes
# takes seconds under TCG, and the flows must overlap whole):
#   lp_open HOST DADDR DPORT RATE [BURST [MAXPKT]]
#                       a reservation through HOST's rtcd held by "rtcd
#                       open", for a sender that does not shape (plain
#                       rtperf to the proxy IP); lp_proxy HOST waits for it
#                       and prints the proxy IP
#   lp_recv NAME HOST PORT
#                       an rtperf receiver (rtperf_recv_start); its report
#                       in $BENCH_TMP/NAME.rx (lp_results)
#   lp_send NAME HOST DADDR DPORT [OPTIONS...]
#   lp_send_rt NAME CONFIG HOST DADDR DPORT [OPTIONS...]
#                       an rtperf sender (report in $BENCH_TMP/NAME.tx,
#                       lp_results); _rt: through HOST's rtcd under EtheReal
#                       (rtperf -R), a plain flow under the peers
#   lp_go               waits for the receivers to listen, releases every
#                       sender at once (they wait on a shared lock), waits
#                       for them, reaps the receivers (rtperf_reap), and
#                       gives the reservations held back
_lp_holders=()
_lp_jobs=()
_lp_names=()
declare -A _lp_cmd _lp_nice
lp_open() {
	local h=$1 f=$BENCH_TMP/open-$1
	shift
	rm -f "$f" "$f.pid"
	on "$h" sh -c 'echo $$ >"$0.pid"; s=$1; shift; exec rtcd -S "$s" -i eth0 open "$@"' "$f" \
		"$(rtcd_sock "$h")" "$@" >"$f" 2>&1 &
	_lp_jobs+=($!)
	_lp_holders+=("$h")
}
lp_proxy() {
	local f=$BENCH_TMP/open-$1 i proxy
	for i in $(seq 150); do
		proxy=$(head -n 1 "$f" 2>/dev/null | jq -r '.proxy // empty' 2>/dev/null)
		[ -n "$proxy" ] && { echo "$proxy"; return 0; }
		grep -q '"ok": *false\|^rtcd:' "$f" 2>/dev/null && break
		sleep 0.1
	done
	echo "lp_proxy: no reservation for $1: $(cat "$f" 2>/dev/null)" >&2
	return 1
}
lp_recv() { rtperf_recv_start "$1" "$2" "$3"; }
lp_send() { _lp_names+=("$1"); _lp_cmd[$1]="${*:2}"; }
lp_send_rt() {
	if bench_is_ethereal "$2"; then
		lp_send "$1" "$3" "$4" "$5" -R -S "$(rtcd_sock "$3")" "${@:6}"
	elif [ "$2" = pace ]; then
		lp_send "$1" "${@:3}" --pace
	else
		lp_send "$1" "${@:3}"
	fi
	_lp_nice[$1]=1	# at BENCH_RT_NICE, as rtperf_send_rt's
}
lp_go() {
	local n h d p fd i rc=0 lock=$BENCH_TMP/go.lock pids=()
	rtperf_listening "${_rtperf_receivers[@]}"
	exec {fd}>"$lock"
	flock -x "$fd"
	for n in "${_lp_names[@]}"; do
		# shellcheck disable=SC2086
		set -- ${_lp_cmd[$n]}
		h=$1 d=$2 p=$3
		shift 3
		rm -f "$BENCH_TMP/$n.ready"
		# shellcheck disable=SC2086
		on "$h" ${_lp_nice[$n]:+nice -n ${BENCH_RT_NICE:--10}} sh -c 'r=$0 l=$1; shift; : >"$r"; exec flock -s "$l" rtperf send -j "$@"' \
			"$BENCH_TMP/$n.ready" "$lock" "$@" "$d" "$p" \
			>"$BENCH_TMP/$n.tx" 2>"$BENCH_TMP/$n.txerr" {fd}>&- &
		pids+=($!)
	done
	for n in "${_lp_names[@]}"; do
		for ((i = 0; i < 300; i++)); do [ -e "$BENCH_TMP/$n.ready" ] && break; sleep 0.05; done
	done
	sleep 0.5	# from the marker to flock
	flock -u "$fd"
	exec {fd}>&-
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || {
			rc=1
			echo "lp_go: sender ${_lp_names[$i]} failed: $(head -n 3 "$BENCH_TMP/${_lp_names[$i]}.txerr")" >&2
		}
	done
	rtperf_reap || rc=1
	lp_close_all
	lp_reap
	return $rc
}
# lp_abort: a point given up before lp_go: its receivers and reservations go
lp_abort() {
	rtperf_reap 0
	lp_close_all
	lp_reap
}
# lp_reap: wait for the holders' jobs (never a bare wait: the rtcds are
# jobs too)
lp_reap() {
	[ ${#_lp_jobs[@]} -eq 0 ] || wait "${_lp_jobs[@]}" 2>/dev/null
	_lp_jobs=()
	_lp_names=()
	_lp_cmd=()
	_lp_nice=()
}
# lp_close_all: every reservation held by lp_open given back (rtcd tears it
# down when its holder goes)
lp_close_all() {
	local h pid i
	for h in "${_lp_holders[@]}"; do
		pid=$(cat "$BENCH_TMP/open-$h.pid" 2>/dev/null) || continue
		kill "$pid" 2>/dev/null
		# a job that ended stays a zombie until reaped: not kill -0
		for ((i = 0; i < 30; i++)); do _bench_alive "$pid" || break; sleep 0.1; done
	done
	_lp_holders=()
}

# lp_results SPEC...: the flows of one point and their classes, as one
# JSON object {flows: [...], classes: [...]}, in one jq (processes are dear
# under TCG). SPEC is NAME:FLOW:CLASS:OFFERED_BPS[:RESERVED_BPS], NAME
# both the receiver (rtperf_recv) and the sender (rtperf_send) of flow id
# FLOW. Per flow: sent, received, loss (sent but not received), the
# sender's rate and the throughput (whole frames received over the time the
# sender sent: a starved flow's few frames over their own first to last
# arrival would make a rate of nothing), one-way delay (min,
# mean, p50, p99, max), jitter (the delay's standard deviation) and mean
# |IPDV|, in us. Per class: rates and counts added, the delay's mean and
# standard deviation pooled over every datagram received, p99 and max those
# of the worst flow.
lp_results() {
	local s f
	for s in "$@"; do
		for f in "$BENCH_TMP/${s%%:*}.rx" "$BENCH_TMP/${s%%:*}.tx"; do
			if [ -s "$f" ]; then printf '%s\n' "$(<"$f")"; else echo null; fi
		done
	done | jq -cn --arg specs "$*" '
	def us: if . == null then null else . / 100 | round / 10 end;
	def pool:
		[.[] | select(.received > 1 and .delay_mean_us != null)] as $g |
		($g | map(.received) | add // 0) as $n |
		(if $n > 0 then ($g | map(.received * .delay_mean_us) | add) / $n else null end) as $m |
		(map(.sent) | add) as $sent | (map(.received) | add) as $got |
		{class: .[0].class, flows: length,
		 offered_bps: (map(.offered_bps) | add),
		 reserved_bps: (map(.reserved_bps) | if any(. == null) then null else add end),
		 throughput_bps: (map(.throughput_bps) | add),
		 sent: $sent, received: $got,
		 loss_pct: (if $sent > 0 then ($sent - $got) * 10000 / $sent | round / 100 else null end),
		 delay_mean_us: (if $m then $m * 10 | round / 10 else null end),
		 delay_p99_us: (map(.delay_p99_us // empty) | max),
		 delay_max_us: (map(.delay_max_us // empty) | max),
		 jitter_us: (if $n > 1 then
			($g | map((.received - 1) * .jitter_us * .jitter_us +
				  .received * (.delay_mean_us - $m) * (.delay_mean_us - $m)) | add)
			/ ($n - 1) | sqrt * 10 | round / 10 else null end)};
	($specs | split(" ") | map(split(":"))) as $sp | [inputs] as $d |
	[range(0; $sp | length) as $i | $sp[$i] as [$name, $flow, $class, $off, $res] |
	 ($d[2 * $i] | if . then [.flows[] | select(.flow == ($flow | tonumber))][0] else null end) as $rx |
	 $d[2 * $i + 1] as $tx | ($tx.sent // 0) as $sent | ($rx.unique // 0) as $got |
	 {name: $name, flow: ($flow | tonumber), class: $class, offered_bps: ($off | tonumber),
	  reserved_bps: (if $res then $res | tonumber else null end),
	  sent: $sent, received: $got,
	  loss_pct: (if $sent > 0 then ($sent - $got) * 10000 / $sent | round / 100 else null end),
	  sent_bps: ($tx.frame_bps // 0 | round),
	  throughput_bps: (if ($tx.seconds // 0) > 0 then $got * (($tx.size // 0) + 42) * 8 / $tx.seconds
			   else $rx.frame_bps // 0 end | round),
	  delay_min_us: ($rx.delay_ns.min | us), delay_mean_us: ($rx.delay_ns.mean | us),
	  delay_p50_us: ($rx.delay_ns.p50 | us), delay_p99_us: ($rx.delay_ns.p99 | us),
	  delay_max_us: ($rx.delay_ns.max | us), jitter_us: ($rx.jitter_ns | us),
	  ipdv_mean_us: ($rx.ipdv_ns.mean | us), sender_late_max_us: ($tx.late_ns.max | us),
	  reservation: ($tx.reservation // null)}] as $flows |
	{flows: $flows, classes: ($flows | group_by(.class) | map(pool))}'
}
