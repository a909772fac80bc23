# SPDX-License-Identifier: GPL-2.0
# Scheduler tests: ports, timed flows, and what they measured.
# Needs lib/topo.sh and lib/rt.sh.

# ports_qdisc SW RATE ARGS...: the ethereal qdisc on every port of SW
ports_qdisc() {
	local sw=$1 rate=$2 p
	shift 2
	for p in $(on "$sw" ls /sys/class/net/br0/brif); do
		on "$sw" tc qdisc replace dev "$p" root handle 1: ethereal rate "$rate" "$@" ||
			return 1
	done
}

# field KEY TEXT: the value of KEY=value in TEXT's first line that has one
# (its last there); KEY is a regex, plain words in practice. In bash: a
# sed and a head cost two program starts, and tests take hundreds.
field() {
	local line re="^(.*[^[:alnum:]_])?$1=([^ ]*)"
	while IFS= read -r line; do
		[[ $line =~ $re ]] && { echo "${BASH_REMATCH[2]}"; return 0; }
	done <<<"$2"
	return 0
}

# frames RATE_BPS SECONDS SIZE: how many datagrams of SIZE payload bytes
# make SECONDS at RATE (bit/s of whole frames)
frames() { echo $(( $1 * $2 / ((${3} + 42) * 8) )); }

# class_stat SW DEV packets|overlimits|dropped: the sum over the
# connections' classes of DEV's ethereal qdisc on SW (overlimits: frames
# held back by their rate). tc 6.1 prints classes as text only, -j or not.
class_stat() {
	on "$1" tc -s class show dev "$2" | awk -v what="$3" '
		/^class ethereal/ { c = 1; next }
		/^class/ { c = 0 }
		c && /Sent/ { for (i = 1; i < NF; i++) {
			if ($(i + 1) == "pkt") p += $i
			if ($i == "(dropped") d += $(i + 1)
			if ($i == "overlimits") o += $(i + 1) } }
		END { print what == "packets" ? p + 0 : what == "dropped" ? d + 0 : o + 0 }'
}

# Flows run together: flow_start NAME FROM TO DST PORT RATE_BPS SECONDS SIZE
# [BURST] declares one; flows_go starts every receiver, then every sender
# at once, and waits for all; then flow_rx NAME and flow_tx NAME give the
# receiver's and the sender's summary lines. BURST (bytes) is the flow's
# contract with the network, a reservation's burst: what the sender may
# put out at once.
#
# A run is an experiment on the switch only if the hosts offered what the
# test meant: every sender at 99% of its rate, and none with a contract
# catching up (after the emulated machine stalled it) in a burst past it.
# flows_go repeats an invalid run up to FLOW_TRIES times, running CMD
# before each (counter snapshots, companion traffic), before the receivers
# start: they give the first datagram 3 s; senders_ok then fails on a run
# still invalid, saying why.
declare -A _flow_spec _flow_burst _flow_size _flow_rxpid _flow_rate
_flow_dir=
FLOW_TRIES=${FLOW_TRIES:-3}
flow_start() {
	local name=$1
	if [ -z "$_flow_dir" ]; then
		_flow_dir=$(mktemp -d)
		defer rm -rf "$_flow_dir"
	fi
	_flow_spec[$name]="$2 $3 $4 $5 $(frames "$6" "$7" "$8") $8 $6"
	_flow_rate[$name]=$6
	_flow_burst[$name]=${9:-}
	_flow_size[$name]=$8
}

_flow_listen() {
	local name=$1 i
	set -- ${_flow_spec[$name]}
	# 3 s for the first frame (the senders start after every receiver
	# listens; all start before any is waited for, so that none waits
	# through the others' process starts), then 1.5 s of silence ends a
	# flow whose tail was dropped: senders stall for tens of ms at most
	# on a loaded emulated machine.
	on_bg "$2" udpprobe recv "$4" "$5" "$(slow 3000)" "$(slow 1500)" \
		"$_flow_dir/$name.ts" >"$_flow_dir/$name.rx"
	_flow_rxpid[$name]=$!
}

flows_go() {
	local name try why pids pre=("$@")
	for ((try = 1; ; try++)); do
		[ ${#pre[@]} -eq 0 ] || "${pre[@]}"
		for name in "${!_flow_spec[@]}"; do
			_flow_listen "$name"
		done
		for name in "${!_flow_spec[@]}"; do
			wait_line "$_flow_dir/$name.rx" listening "${_flow_rxpid[$name]}"
		done
		pids=()
		for name in "${!_flow_spec[@]}"; do
			set -- ${_flow_spec[$name]}
			on_bg "$1" udpprobe send "$3" "$4" "$5" "$6" "${7}bit" \
				>"$_flow_dir/$name.tx"
			pids+=($!)
		done
		wait "${pids[@]}"
		for name in "${!_flow_rxpid[@]}"; do
			wait "${_flow_rxpid[$name]}"
		done
		why=$(senders_ok "${!_flow_spec[@]}") && break
		[ "$try" -lt "$FLOW_TRIES" ] || break
		ktap_info "run $try not valid, again: $why"
	done
	run_invalid=$why
	_flow_spec=()
	_flow_rxpid=()
}

flow_rx() { grep -v listening "$_flow_dir/$1.rx"; }
flow_tx() { cat "$_flow_dir/$1.tx"; }

# flows_rates SIZE NAME...: each flow's rate (bit/s, frames of SIZE bytes
# of payload), one "NAME RATE" a line, over the window all of them were
# arriving in: from the latest first arrival to the earliest last, each
# counting the frames that arrived after the window's start, up to its
# end. Rates over one window add up to what the port passed in it; each
# over its own first to last arrival do not (the senders start and end
# apart, and a flow that ends early leaves the port to the others). Fails,
# saying so, when the window is shorter than a second.
flows_rates() {
	local size=$1 name
	shift
	for name in "$@"; do
		printf '%s ' "$name"
		tr '\n' ' ' <"$_flow_dir/$name.ts"
		echo
	done | awk -v bits=$(((size + 42) * 8)) '
	{
		name[NR] = $1; n[NR] = NF - 1
		for (i = 2; i <= NF; i++)
			t[NR, i - 1] = $i
		if (NR == 1 || $2 > lo)
			lo = $2
		if (NR == 1 || $NF < hi)
			hi = $NF
		if (NF < 3)
			short = 1
	}
	END {
		if (short || hi - lo < 1e9) {
			printf "flows overlapped %.3f s, not the 1 s a rate needs\n",
				(hi - lo) / 1e9 > "/dev/stderr"
			exit 1
		}
		for (f = 1; f <= NR; f++) {
			k = 0
			for (i = 1; i <= n[f]; i++)
				if (t[f, i] > lo && t[f, i] <= hi)
					k++
			printf "%s %.0f\n", name[f], k * bits * 1e9 / (hi - lo)
		}
	}'
}

# within VALUE TARGET PERCENT: |VALUE - TARGET| <= PERCENT% of TARGET
within() {
	awk -v v="$1" -v t="$2" -v p="$3" 'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d * 100 <= p * t) }'
}

# at_least VALUE TARGET PERCENT: VALUE >= PERCENT% of TARGET
at_least() { awk -v v="$1" -v t="$2" -v p="$3" 'BEGIN { exit !(v * 100 >= p * t) }'; }

# senders_ok NAME...: every sender reached 99% of its offered rate, and
# kept to its contract (its catch-up bursts, plus the frame, within BURST)
senders_ok() {
	local name offered tx sent
	for name in "$@"; do
		offered=${_flow_rate[$name]}
		tx=$(flow_tx "$name")
		sent=$(field sent_bps "$tx")
		at_least "$sent" "$offered" 99 || {
			echo "sender $name reached $sent of $offered bit/s"
			return 1
		}
		[ -z "${_flow_burst[$name]}" ] ||
		awk -v c="$(field catchup_us "$tx")" -v b="${_flow_burst[$name]}" \
			-v r="$offered" -v f=$((_flow_size[$name] + 42)) \
			'BEGIN { exit !(c * r / 8e6 + f <= b) }' || {
			echo "sender $name caught up in a burst of $(field catchup_us "$tx") us" \
				"at its rate, over its contract's ${_flow_burst[$name]} bytes"
			return 1
		}
	done
}

# run_invalid: why the last run was not the experiment meant, empty when
# it was. flows_go sets it once it has run out of tries with a sender that
# missed its rate or went past its contract (senders_ok); peer_calibration
# when the machine spoiled every run of a peer. Such a run measured the
# emulated machine, not the switch: each of its checks that fails is
# skipped with the counters that say so (flow_result, flow_explain), as
# the bench shows an invalid point. What passes in it passes: it held
# under a harder load.
run_invalid=
# ktap_senders DESC: the check that flows_go's run was valid
ktap_senders() { flow_result "$1" "$([ -z "$run_invalid" ]; echo $?)"; }
# flow_result DESC STATUS [WHY], flow_explain DESC STATUS CMD...:
# ktap_result and ktap_explain, but a failure in an invalid run is skipped
_invalid_skip() { # DESC STATUS
	[ "$2" -ne 0 ] && [ -n "$run_invalid" ] &&
		ktap_skip "$1" "not a valid run: $run_invalid"
}
flow_result() { _invalid_skip "$1" "$2" || ktap_result "$@"; }
flow_explain() { _invalid_skip "$1" "$2" || ktap_explain "$@"; }

# delivered NAME PERCENT: every frame of NAME arrived, at its sender's rate
# within PERCENT. The receiver's rate is held to what the sender put out,
# not to what it was asked to: senders_ok lets a stalled sender fall 1%
# short, and the switch cannot deliver what was never sent.
delivered() {
	local rx tx
	rx=$(flow_rx "$1")
	tx=$(flow_tx "$1")
	[ "$(field received "$rx")" = "$(field sent "$tx")" ] &&
	within "$(field rate_bps "$rx")" "$(field sent_bps "$tx")" "$2"
}

# Where frames of a flow were lost, for a failure's message:
# path_drops FROM SW IN OUT TO: drops (tx/rx) of each link of the path
# FROM:eth0 -> SW:IN ... SW:OUT -> TO:eth0, the output port's qdisc drops,
# UDP receive-buffer errors at TO, and the CPUs' backlog drops.
# link_dropped NODE DEV tx|rx: the device's dropped frames that way
link_dropped() {
	ip -n "$(ns_of "$1")" -s -j link show dev "$2" | jq ".[0].stats64.$3.dropped"
}
_link_drops() { echo "$(link_dropped "$1" "$2" tx)/$(link_dropped "$1" "$2" rx)"; }
# rcvbuf_errors NODE: datagrams NODE's UDP sockets dropped, their buffer full
rcvbuf_errors() { on "$1" nstat -asz UdpRcvbufErrors | awk '/UdpRcvbufErrors/ { print $2 }'; }
softnet_drops() {
	local s=0 a b
	while read -r a b _; do s=$((s + 0x$b)); done </proc/net/softnet_stat
	echo "$s"
}
path_drops() {
	local from=$1 sw=$2 in=$3 out=$4 to=$5
	echo "drops tx/rx: $from:eth0 $(_link_drops "$from" eth0)," \
		"$sw:$in $(_link_drops "$sw" "$in"), $sw:$out $(_link_drops "$sw" "$out")," \
		"$to:eth0 $(_link_drops "$to" eth0);" \
		"$sw:$out qdisc $(on "$sw" tc -s -j qdisc show dev "$out" | jq '[.[].drops] | add');" \
		"$to UdpRcvbufErrors $(rcvbuf_errors "$to");" \
		"softnet $(softnet_drops)"
}

# tcp_flow_start FROM TO SECONDS JSON: a greedy TCP flow (iperf3) from FROM
# to TO for SECONDS, its client's report in JSON, once the server listens;
# tcp_flow_end waits for the client, and then ends the server, which an
# iperf3 -1 does alone unless the client never reached it. A test resets
# _tcp before a run whose tries start one each.
_tcp=
_tcp_srv=
tcp_flow_start() {
	local i
	on_bg "$2" iperf3 -s -1 -p 5201 >/dev/null 2>&1
	_tcp_srv=$!
	for i in $(seq 100); do
		on "$2" ss -Htln "sport = :5201" | grep -q . && break
		sleep 0.1
	done
	on_bg "$1" iperf3 -c "$(host_ip "$2")" -p 5201 -t "$3" -J >"$4"
	_tcp=$!
	sleep 0.5
}
tcp_flow_end() {
	[ -n "$_tcp" ] || return 0
	wait "$_tcp"
	kill "$_tcp_srv" 2>/dev/null
	wait "$_tcp_srv"
	_tcp=
}
