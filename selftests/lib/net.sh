# SPDX-License-Identifier: GPL-2.0
# Traffic helpers for tests. Needs lib/topo.sh; udpprobe on PATH.

# udp_mesh "H1 H2 ..." unicast|broadcast PORT: every host listens, and sends
# one datagram to every other host (unicast) or one to the subnet's
# broadcast address; every host must hear from every other one (and, for
# broadcast, from itself: Linux loops broadcasts back to local sockets).
# Prints the hosts that missed something.
udp_mesh() {
	local hosts=$1 mode=$2 port=$3 h o n=0 pids=() outs=() bad= i want got self=1 sends=()
	for h in $hosts; do n=$((n + 1)); done
	[ "$mode" = broadcast ] && self=0
	# Receivers wait up to 10 s of silence: a process start in the
	# emulated guest can take 0.5 s, and all of the senders start at once.
	for h in $hosts; do
		outs+=("$(mktemp)")
		on_bg "$h" udpprobe recv "$port" $((n - self)) "$(slow 10000)" >"${outs[-1]}"
		pids+=($!)
	done
	for i in "${!outs[@]}"; do
		wait_line "${outs[i]}" listening "${pids[i]}"
	done
	# every receiver listens: the senders all at once (10.0.0.N: host_ip
	# without its fork, ~40 ms)
	for h in $hosts; do
		if [ "$mode" = broadcast ]; then
			on_bg "$h" udpprobe send 10.0.0.255 "$port" 1 >/dev/null
			sends+=($!)
		else
			for o in $hosts; do
				[ "$o" = "$h" ] && continue
				on_bg "$h" udpprobe send "10.0.0.${o##*[a-z]}" "$port" 1 >/dev/null
				sends+=($!)
			done
		fi
	done
	wait "${sends[@]}"
	i=0
	for h in $hosts; do
		wait "${pids[i]}" || bad="$bad $h"
		want=$(for o in $hosts; do
			[ "$o" = "$h" ] && [ $self = 1 ] || host_ip "$o"
		done | sort | tr '\n' ,)
		got=$(sed -n 's/.* src=\([^ ]*\).*/\1/p' "${outs[i]}" | tr , '\n' | sort | tr '\n' ,)
		[ "$want" = "$got" ] || bad="$bad $h"
		rm -f "${outs[i]}"
		i=$((i + 1))
	done
	echo "$bad"
	[ -z "$bad" ]
}
