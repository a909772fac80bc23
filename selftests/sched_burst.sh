#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Paced mode shapes a connection to its reservation (burst, rate), not to
# its rate alone: a burst within the reserved burst leaves the switch at
# once, only what exceeds it is held back to the rate; and never more at
# once than a cycle's worth and a frame (rate x cycle + frame). Counted by
# the connection's class on the output port: overlimits are frames held
# back. Frames sent back to back from h1, so that they arrive faster than
# the 5 Mbit/s rate. On a debug kernel a frame takes the sender longer than
# that rate's frame time: the rates are machine_rate's and the cycles
# slow's, so that a burst and a cycle hold the same frames. Then the link
# clock's catch-up after idle (link-burst).
# timeout=120
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/sched.sh"
. "$(dirname "$0")/lib/ethereal.sh"

SIZE=1472			# 1514-byte frames
BURST=$((12 * 1514))		# 12 frames
LINK=$(machine_rate 10000000)
RATE=$((LINK / 2))

# burst N: N frames back to back; _held: frames held back so far, _sent:
# frames the class sent so far
burst() {
	on h1 udpprobe send "$(proxy_ip 03:09)" 5000 "$1" $SIZE >/dev/null
	sleep "$(slow 1)"		# well over burst / rate: the bucket refills
	_held=$(class_stat sw1 swp2 overlimits)
	_sent=$(class_stat sw1 swp2 packets)
	ktap_info "$1 frames: $_sent sent by the class, $_held held back, in total"
}

ktap_begin 8
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
TOPO_OFFLOAD=off topo_create "sw1:h1,h2" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"
# a 50 ms cycle: 31250 bytes at 5 Mbit/s, over the burst
ports_qdisc sw1 "${LINK}bit" mode paced cycle "$(slow 50)ms"
ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate "$RATE" burst $BURST
host_proxy h1 03:09

burst 10
ktap_result "10 frames within a 12-frame burst: none held back" "$([ "$_held" = 0 ]; echo $?)"
burst 20
ktap_result "20 frames: those over the burst held back to the rate" \
	"$([ "$_held" -ge 1 ] && [ "$_held" -le 10 ]; echo $?)"
ktap_result "every frame sent on (the queue holds at least two bursts)" "$([ "$_sent" = 30 ]; echo $?)"
# a 10 ms cycle: 6250 bytes at 5 Mbit/s and a frame, five frames (12
# sent: the last is held back unless all come within 16.6 ms)
on sw1 tc qdisc change dev swp2 root ethereal cycle "$(slow 10)ms"
before=$_held
burst 12
ktap_result "12 frames with a 10 ms cycle: those over a cycle's worth and a frame held back" \
	"$([ $((_held - before)) -ge 1 ] && [ $((_held - before)) -le 10 ] && [ "$_sent" = 42 ]; echo $?)"

# A slow connection, whose frame takes longer than a cycle at its rate
# (121 ms at 100 kbit/s, the cycle 60 ms), keeps a cycle of tolerance with
# a two-frame burst: a frame that comes 20 ms early (its predecessor held
# up by the sender or the switch's receive path) leaves at once, unless
# the machine brings it 40 ms earlier still. It once had none: the cap
# took a frame time off a cycle's, and every early frame waited. Two
# frames back to back still do not pass at once (B_j: a frame and a
# cycle's 750 bytes), unless 61 ms apart.
ctl sw1 conn del dev swp1 id 03:09
on sw1 tc qdisc change dev swp2 root ethereal cycle "$(slow 60)ms"
SLOW_RATE=$(machine_rate 100000)
ctl sw1 conn add dev swp1 id 03:0a out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate "$SLOW_RATE" burst $((2 * 1514))
host_proxy h1 03:0a
pair() { # PPS: two frames, PPS apart; prints the frames held back
	local before
	before=$(class_stat sw1 swp2 overlimits)
	sleep "$(slow 1)"			# idle: the connection's clock restarts
	on h1 udpprobe send "$(proxy_ip 03:0a)" 5000 2 $SIZE "$1" >/dev/null
	sleep "$(slow 1)"
	echo $(($(class_stat sw1 swp2 overlimits) - before))
}
# frame time less 20 ms (machine time), as packets a second
gap_ms=$((1514 * 8 * 1000 / SLOW_RATE - $(slow 20)))
held=$(pair "$(awk -v g=$gap_ms 'BEGIN { printf "%.3f", 1000 / g }')")
ktap_info "two frames ${gap_ms} ms apart at $SLOW_RATE bit/s: $held held back"
ktap_result "a slow connection: a frame 20 ms early is not held back (a cycle's tolerance)" \
	"$([ "$held" = 0 ]; echo $?)"
held=$(pair 0)
ktap_info "two frames back to back: $held held back"
ktap_result "a slow connection: two frames back to back, the second held back" \
	"$([ "$held" = 1 ]; echo $?)"
ctl sw1 conn del dev swp1 id 03:0a

# The link clock's lag (link-burst): 8 frames back to back, best effort
# (its queue holding them all), through a slow port idle for a second.
# With no lag they leave a frame time apart, so arrive at the link rate
# (rate_bps: 7 frames over the first to last arrival; receive stamps'
# jitter: at most 1.5 times); with a second's, the idle second is caught
# up and all 8 leave at once (at least twice the link: within half the
# 424 ms the link takes for the 7).
LOW=200000			# 8 frames: 485 ms of link, under the lag
link_burst() { # LAG: "N R", the frames h2 got of 8 from h1, and their rate
	local out
	on sw1 tc qdisc change dev swp2 root ethereal rate "${LOW}bit" be-limit 16k \
		link-burst "$1"
	sleep "$(slow 1)"
	out=$(UDP_PORT=5001 udp_flow h1 h2 "$(host_ip h2)" 8 $SIZE)
	echo "$(field received "$out") $(field rate_bps "$out")"
}
read -r n r <<<"$(link_burst 0)"
ktap_info "link-burst 0: ${n:-0} of 8 frames, at ${r:-?} bit/s through a ${LOW} bit/s link"
ktap_result "link-burst 0: a burst after idle leaves at the link rate" \
	"$(awk -v n="${n:-0}" -v r="${r:-0}" -v l="$LOW" 'BEGIN { exit !(n == 8 && r > 0 && r <= 1.5 * l) }'; echo $?)"
read -r n r <<<"$(link_burst 1s)"
ktap_info "link-burst 1s: ${n:-0} of 8 frames, at ${r:-?} bit/s through a ${LOW} bit/s link"
ktap_result "link-burst 1s: a burst after a second idle leaves back to back" \
	"$(awk -v n="${n:-0}" -v r="${r:-0}" -v l="$LOW" 'BEGIN { exit !(n == 8 && r >= 2 * l) }'; echo $?)"
ktap_end
