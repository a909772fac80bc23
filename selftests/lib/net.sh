# SPDX-License-Identifier: GPL-2.0
# Traffic helpers for tests. Needs lib/topo.sh.

# wait_udp_bound NODE PORT: until a UDP socket is bound to PORT in NODE.
wait_udp_bound() {
	local i
	for i in $(seq 100); do
		on "$1" ss -Hnlu "sport = :$2" | grep -q . && return 0
		sleep 0.05
	done
	return 1
}

# udp_exchange FROM TO DST_IP MSG [PORT]: FROM sends MSG in one datagram to
# DST_IP; TO must receive exactly MSG on a plain socket.
udp_exchange() {
	local from=$1 to=$2 dst=$3 msg=$4 port=${5:-4000} out pid
	out=$(mktemp)
	on "$to" timeout 5 socat -u "UDP4-RECVFROM:$port,reuseaddr" STDOUT >"$out" &
	pid=$!
	wait_udp_bound "$to" "$port" || { kill $pid 2>/dev/null; rm -f "$out"; return 1; }
	printf '%s' "$msg" | on "$from" socat -u STDIN "UDP4-SENDTO:$dst:$port"
	wait $pid
	[ "$(cat "$out")" = "$msg" ]
	local rc=$?
	rm -f "$out"
	return $rc
}

# udp_broadcast_reaches FROM "H1 H2 ...": a broadcast datagram from FROM
# arrives at every other listed host.
udp_broadcast_reaches() {
	local from=$1 h pids=() outs=() rc=0 i=0 port=4001 msg
	msg="broadcast from $from"
	for h in $2; do
		[ "$h" = "$from" ] && continue
		outs+=("$(mktemp)")
		on "$h" timeout 5 socat -u "UDP4-RECVFROM:$port,reuseaddr" \
			STDOUT >"${outs[-1]}" &
		pids+=($!)
		wait_udp_bound "$h" "$port" || rc=1
	done
	printf '%s' "$msg" | on "$from" socat -u STDIN \
		"UDP4-DATAGRAM:10.0.0.255:$port,broadcast"
	for i in "${!pids[@]}"; do
		wait "${pids[i]}"
		[ "$(cat "${outs[i]}")" = "$msg" ] || rc=1
		rm -f "${outs[i]}"
	done
	return $rc
}
