#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every bad tc option gets a message saying what is wrong: from the plugin
# (q_ethereal.so) for what it can check, from the kernel (extack) for what
# only the kernel knows. Never a bare "Invalid argument".
# timeout=120
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

# expect NAME MESSAGE -- TC ARGS...: tc in sw1 fails saying MESSAGE
expect() {
	local name=$1 text=$2 out rc
	shift 3
	out=$(on sw1 tc "$@" 2>&1)
	rc=$?
	if [ $rc != 0 ] && [[ "$out" == *"$text"* ]] && [[ "$out" != *"Invalid argument"* ]]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "exit $rc, said: $out"
	fi
}

Q="qdisc add dev swp2 root handle 1: ethereal"

ktap_begin 28
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"

expect "rate not a rate" 'rate "fast": not a rate' -- $Q rate fast
expect "rate zero" 'rate "0": must be from 1kbit to 10Tbit' -- $Q rate 0
expect "rate above 10Tbit" 'rate "11tbit": must be from 1kbit to 10Tbit' -- $Q rate 11tbit
expect "cycle too short" 'cycle "10us": must be from 100us to 1s' -- $Q cycle 10us
expect "cycle not a time" 'cycle "soon": not a time' -- $Q cycle soon
expect "rt-limit over 100%" 'rt-limit "150%": must be a percentage, 0 to 100' -- $Q rt-limit 150%
expect "unknown mode" 'mode "turbo": must be paced or cyclic' -- $Q mode turbo
expect "be-limit below a frame" 'be-limit "1000": must hold a full frame' -- $Q be-limit 1000
expect "discard window too long" 'discard-window "1min"' -- $Q discard-window 1min
expect "unknown option" 'unknown option "speed"' -- $Q speed 10
expect "rt-buffer below a frame" 'rt-buffer "1000": must hold a full frame' -- $Q rt-buffer 1000
expect "max-conns zero" 'max-conns "0": must be a number from 1 to 65524' -- $Q max-conns 0
expect "max-conns above the IDs" 'max-conns "65525": must be a number from 1 to 65524' -- $Q max-conns 65525
expect "delay not a time" 'delay "soon": not a time' -- $Q delay soon
expect "delay above a minute" 'delay "61s": must be at most 60s' -- $Q delay 61s
expect "link-burst above a second" 'link-burst "2s": must be at most 1s' -- $Q link-burst 2s
expect "link-burst not a time" 'link-burst "-1ms": not a time' -- $Q link-burst -1ms
on sw1 ip link add dummy0 type dummy
expect "no rate, device without a speed" "The device reports no speed: give a rate" -- \
	qdisc add dev dummy0 root ethereal

on sw1 tc $Q rate 10mbit
ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" rate 5mbit
expect "rate below the reservations" "The port's reservations exceed rt-limit of this rate" -- \
	qdisc change dev swp2 root ethereal rate 5mbit
expect "rt-limit below the reservations" "The port's reservations exceed rt-limit" -- \
	qdisc change dev swp2 root ethereal rt-limit 20%
expect "replaced by a smaller qdisc" "The port's reservations exceed rt-limit of this rate" -- \
	qdisc replace dev swp2 root handle 2: ethereal rate 1mbit
expect "rt-buffer below the connections' queues" "The port's connections exceed rt-buffer or max-conns" -- \
	qdisc change dev swp2 root ethereal rt-buffer 2000
# 5 Mbit/s with 10 ms of burst: 6.8 ms of the port's delay budget
expect "delay budget below what the connections take" \
	"The port's connections take more than this delay budget" -- \
	qdisc change dev swp2 root ethereal delay 1ms
# Cyclic mode keeps a connection's frames longer (its visits), so its
# queue would grow past an rt-buffer that holds today's queue with room
# to spare: the change is refused before anything grows.
q=$(json_first "$(ctl sw1 -j conn show dev swp1 id 03:09)" buffer)
expect "rt-buffer below what the queues would grow to" \
	"The port's connections' queues would exceed rt-buffer" -- \
	qdisc change dev swp2 root ethereal mode cyclic rt-buffer $((${q:-0} + 2000))
expect "adding a class" "classes are the switch's connections" -- \
	class add dev swp2 parent 1: classid 1:5 ethereal
out=$(ctl sw1 conn add dev swp1 id 03:0a out swp2 lladdr "$(host_mac h2)" rate 2mbit 2>&1)
ktap_result "reservation over rt-limit refused by the qdisc's admission" \
	"$([[ "$out" == *"Not enough real-time bandwidth left on the output port (rt-limit)"* ]]
	   echo $?)" "$out"
ktap_result "the qdisc is unchanged after all that" \
	"$(on sw1 tc qdisc show dev swp2 | grep -q "ethereal 1: root.*rate 10Mbit.*rt-limit 60%.*mode paced.*reserved 5Mbit conns 1"
	   echo $?)" "$(on sw1 tc qdisc show dev swp2)"
# One unit for rates in JSON: bytes/s, tc's, in etherealctl -j as in tc -j.
q=$(on sw1 tc -j qdisc show dev swp2 | jq -c '.[0].options | [.rate, .reserved]')
e=$(ctl sw1 -j port show dev swp2 | jq -c '.[0] | [.rate, .reserved]')
c=$(ctl sw1 -j conn show dev swp1 id 03:09 | jq -c '.[0].rate')
ktap_result "rates in JSON: bytes/s, the same in tc -j and etherealctl -j" \
	"$([ "$q" = "[1250000,625000]" ] && [ "$e" = "$q" ] && [ "$c" = 625000 ]; echo $?)" \
	"tc -j: $q; etherealctl -j: port $e, conn $c"
ktap_end
