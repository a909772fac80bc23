# SPDX-License-Identifier: GPL-2.0
# Real-time traffic in tests. Needs lib/topo.sh.

# proxy_ip 03:09 -> 198.18.3.9 (the default proxy prefix, 198.18.0.0/15)
proxy_ip() { echo "198.18.$((16#${1%%:*})).$((16#${1##*:}))"; }
proxy_mac() { echo "ff:ff:ff:ff:$1"; }

# host_proxy HOST ID: what rtcd installs on accept: the proxy IP resolves
# to the proxy MAC, and the proxy prefix is on-link.
host_proxy() {
	on "$1" ip neigh replace "$(proxy_ip "$2")" lladdr "$(proxy_mac "$2")" \
		dev eth0 nud permanent || return 1
	on "$1" ip route replace 198.18.0.0/15 dev eth0
}

# ctl NODE ARGS...: etherealctl in NODE's namespace
ctl() { local n=$1; shift; etherealctl -n "$TOPO_NS_PREFIX$n" "$@"; }

# json_num JSON OBJECT KEY: KEY's number in the first "OBJECT": {...} of
# JSON, one of etherealctl's flat objects of counters. Bash alone: a jq
# costs ~270 ms under emulation, and tests read counters thousands of times.
json_num() {
	local re="\"$2\": *\\{[^{}]*\"$3\": *(-?[0-9]+)"
	[[ $1 =~ $re ]] && echo "${BASH_REMATCH[1]}"
}

# json_first JSON KEY: the number of KEY's first occurrence in JSON
json_first() {
	local re="\"$2\": *(-?[0-9]+)"
	[[ $1 =~ $re ]] && echo "${BASH_REMATCH[1]}"
}

# port_stat SW PORT COUNTER: a port's counter (names as in etherealctl -j)
port_stat() { json_num "$(ctl "$1" -j -s port show dev "$2")" stats "$3"; }

# sig_stat SW NAME: a signaling counter of the switch's br0 (etherealctl -j)
sig_stat() { json_num "$(ctl "$1" -j -s show br0)" signaling "$2"; }

# conn_stat SW PORT ID COUNTER: a connection's counter
conn_stat() { json_num "$(ctl "$1" -j -s conn show dev "$2" id "$3")" stats "$4"; }

# conn_stats SW PORT ID: all a connection's counters on one line
# ("rx_packets=5 rx_bytes=710 ..."), for a diagnostic
conn_stats() {
	local j s re='"stats": *\{([^{}]*)\}'
	j=$(ctl "$1" -j -s conn show dev "$2" id "$3")
	[[ $j =~ $re ]] || return 1
	s=${BASH_REMATCH[1]//\"/}
	s=${s//:/=}
	echo "${s//,/ }"
}

# port_state SW PORT: the port's STP state as the switch has it ("forwarding")
port_state() {
	local j re='"stp_state": *"([a-z]+)"'
	j=$(ctl "$1" -j port show dev "$2")
	[[ $j =~ $re ]] && echo "${BASH_REMATCH[1]}"
}

# udp_flow FROM TO DST COUNT [SIZE [PACE]]: COUNT datagrams from FROM to
# DST, received on a plain socket in TO; prints the receiver's summary
# ("received=N ... rate_bps=R iat_sd_us=S dst=.. src=..") then the
# sender's ("sent=N ... sent_bps=R"), and succeeds when all arrived. PACE:
# packets/s, or a tc rate of whole frames ("10mbit").
udp_flow() {
	local from=$1 to=$2 dst=$3 count=$4 size=${5:-64} pps=${6:-0}
	local port=${UDP_PORT:-5000} out pid rc i
	out=$(mktemp)
	on_bg "$to" udpprobe recv "$port" "$count" "$(slow 2000)" >"$out"
	pid=$!
	wait_line "$out" listening $pid
	on "$from" udpprobe send "$dst" "$port" "$count" "$size" "$pps" >"$out.send"
	wait $pid
	rc=$?
	grep -v listening "$out"
	cat "$out.send"
	rm -f "$out" "$out.send"
	return $rc
}

# capture_start NODE IFACE FILTER: tcpdump -e on IFACE in the background;
# capture_stop prints what it saw (one line per frame).
_captures=()
capture_start() {
	local f; f=$(mktemp)
	on_bg "$1" tcpdump -i "$2" -e -n -l $3 >"$f" 2>"$f.err"
	local pid=$!
	_captures+=("$pid:$f")
	defer kill $pid 2>/dev/null
	wait_line "$f.err" "listening on" $pid
}

# capture_stop N: stop the N-th capture (0-based) and print its frames
capture_stop() {
	local pid=${_captures[$1]%%:*} f=${_captures[$1]#*:}
	sleep 0.3
	# SIGINT: tcpdump flushes and says what it captured. Called in $(...),
	# this shell cannot wait for it: wait for its last words instead.
	kill -INT "$pid" 2>/dev/null
	wait_line "$f.err" "packets captured" "$pid"
	cat "$f"
	rm -f "$f" "$f.err"
}

# snmp_all NODE PROTO: PROTO's counters of /proc/net/snmp in NODE on one
# line ("InDatagrams=5 NoPorts=0 ..."); snmp NODE PROTO FIELD: one of them
# (Udp InCsumErrors)
snmp_all() {
	on "$1" awk -v p="$2:" '
		$1 == p && !h { split($0, name); h = 1; next }
		$1 == p && h { for (i = 2; i <= NF; i++) printf "%s%s=%s", (i > 2 ? " " : ""), name[i], $i
			print ""; exit }' /proc/net/snmp
}
snmp() {
	local l re=" $3=([0-9-]+)"
	l=" $(snmp_all "$1" "$2")"
	[[ $l =~ $re ]] && echo "${BASH_REMATCH[1]}"
}
