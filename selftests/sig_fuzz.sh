#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Mutated signaling frames (tools/sigfuzz: messages of every type with
# attributes at their edge values, mutated, and broken headers) at a
# switch, from a host's port and from a trunk: every frame is counted once
# (rx, drop_malformed, drop_ratelimit or drop_backlog), nothing warns or
# leaks (the runner checks dmesg), and the switch still sets up
# connections afterwards. The short form; SIGFUZZ_HOST and SIGFUZZ_TRUNK
# (frames) and SIGFUZZ_SEED make a longer or a repeated run.
# timeout=300
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"
. "$(dirname "$0")/lib/wait.sh"
. "$(dirname "$0")/lib/sched.sh"

CFG="$(dirname "$0")/../tc-configs"
HOST_N=${SIGFUZZ_HOST:-20000}
TRUNK_N=${SIGFUZZ_TRUNK:-100000}
SEED=${SIGFUZZ_SEED:-$(date +%s)}

# counted: the frames sw1's signaling has counted, each once
counted() {
	ctl sw1 -j -s show br0 |
		jq '.[0].signaling | .rx + .drop_malformed + .drop_ratelimit + .drop_backlog'
}
# settled: sw1 holds none of the fuzzer's setups (pending) nor connections
settled() {
	local j
	j=$(ctl sw1 -j -s show br0)
	[ "$(json_first "$j" connections)" = 0 ] && [ "$(json_num "$j" signaling pending)" = 0 ]
}

ktap_begin 3
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2 sw2:h3 sw1-sw2" || ktap_skip_all "cannot build topology"
"$CFG/ethereal-switch" -n "$(ns_of sw1)" -r 10mbit -t trk2 br0 ||
	ktap_skip_all "cannot make the switch"
for h in h1 h2; do
	on $h ip route replace 198.18.0.0/15 dev eth0
	on $h ip neigh replace 198.18.0.1 lladdr ff:ff:ff:ff:00:01 dev eth0 nud permanent
done
# sw1 learns h1 and h2: the fuzzer from h1 gets past the anti-spoofing check.
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
# What the fuzzer sets up expires a second after its last refresh.
ctl sw1 set br0 lifetime 1s

# Frames a veth could not hand to its peer (the CPU's backlog full) make
# the packet socket's send fail, and sigfuzz sends them again: each frame it
# counts as sent reached the switch.
tx_dropped() { link_dropped "$1" "$2" tx; }

# The switch's answers to h1 (port 40000) keep coming after sigfuzz exits
# (setups time out later): a socket there takes them, or h1's ICMP errors,
# which go to the signaling MAC, would be counted too.
on_bg h1 udpprobe recv 40000 1000000 8000 >/dev/null
answers=$!
defer kill $answers
c0=$(counted)
d0=$(( $(tx_dropped h1 eth0) + $(tx_dropped sw2 trk1) ))
# A host's port takes 2000 messages a second, a trunk 20000: just below,
# so that most reach the parser.
# The host's, paced, mostly sleeps: the trunk's runs meanwhile (each port
# has its own rate limit and queue; the sum below is the same).
hostout=$(mktemp)
defer rm -f "$hostout"
on_bg h1 sigfuzz eth0 "$HOST_N" "$SEED" 1800 >"$hostout"
hostfuzz=$!
trunk=$(on sw2 sigfuzz trk1 "$TRUNK_N" $((SEED + 1)) 15000)
wait $hostfuzz
host=$(cat "$hostout")
ktap_info "from h1: $host; from the trunk: $trunk"
resent=$(( $(tx_dropped h1 eth0) + $(tx_dropped sw2 trk1) - d0 ))
want=$((HOST_N + TRUNK_N))
# Until the work item has handled what is queued.
for i in $(seq 50); do
	[ "$(counted)" -ge $((c0 + want)) ] && break
	sleep 0.2
done
c1=$(counted)
ktap_info "counted $((c1 - c0)) of $want ($resent sent again after a full backlog):" \
	"$(ctl sw1 -s show br0 | grep signaling:)"
ktap_result "every frame counted once: rx, malformed, rate-limited or over the queue" \
	"$([ $((c1 - c0)) = "$want" ]; echo $?)" \
	"sent $want, counted $((c1 - c0)) (seed $SEED)"
ktap_result "the parser saw the mutated messages (some handled, some malformed)" \
	"$([ "$(sig_stat sw1 rx)" -gt 0 ] && [ "$(sig_stat sw1 drop_malformed)" -gt 0 ]; echo $?)"

# Setups of the fuzzer wait at most a second (ARP) or two (downstream);
# what it set up expires a second after. Until sw1 holds none (tries for
# over 10 s, then goes on, as it did after a fixed 4 s).
eventually 200 settled
# A long run outlasts h1's binding (300 s since the ping above: sw1 then
# drops its setups as spoofed, as it would any unbound host's). rtcd
# announces itself again before a setup; here, h1 ARPs again.
on h1 ip neigh flush dev eth0
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null
ok=1
for id in 0f:01 0f:02 0f:03; do
	res=$(on h1 sigclient setup "$id" "$(host_ip h2)" 5000 1mbit 6056 1514)
	[[ "$res" == accept* ]] && { ok=0; break; }
	[[ "$res" == *"reason=id-in-use"* ]] || break
done
if [ $ok != 0 ]; then
	# Where it went: the switch's state, then one more try with a long
	# wait (a slow switch answers it; a stuck one does not).
	ktap_info "$(ctl sw1 -s show br0 | grep signaling:)"
	ktap_info "$(ctl sw1 port show br0 | tr '\n' ';')"
	ktap_info "$(ctl sw1 neigh show br0 | tr '\n' ';')"
	ktap_info "$(ctl sw1 conn show br0 | head -n 20 | tr '\n' ';')"
	ktap_info "again, waiting 10 s: $(on h1 sigclient -t 10000 setup 0f:04 "$(host_ip h2)" 5000 \
		1mbit 6056 1514)"
	ktap_info "$(ctl sw1 -s show br0 | grep signaling:)"
fi
ktap_result "afterwards the switch still sets up a connection" $ok "$res"
ktap_end
