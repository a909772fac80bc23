#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Paced mode shapes a connection to its reservation (burst, rate), not to
# its rate alone: a burst within the reserved burst leaves the switch at
# once, only what exceeds it is held back to the rate; and never more at
# once than cyclic mode would send in a cycle (rate x cycle). Counted by
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

ktap_begin 6
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
ktap_result "every frame sent on (the queue holds two bursts)" "$([ "$_sent" = 30 ]; echo $?)"
# a 10 ms cycle: 6250 bytes at 5 Mbit/s, four frames
on sw1 tc qdisc change dev swp2 root ethereal cycle "$(slow 10)ms"
before=$_held
burst 10
ktap_result "10 frames with a 10 ms cycle: those over a cycle's worth held back" \
	"$([ $((_held - before)) -ge 1 ] && [ $((_held - before)) -le 8 ] && [ "$_sent" = 40 ]; echo $?)"

# The link clock's lag (link-burst): 8 frames back to back, best effort,
# through a slow port idle for a second. With no lag they leave a frame
# time apart, so arrive at the link rate at most 8/7 (receive stamps
# jitter: 1.5); with a second's, the idle second is caught up and all 8
# leave at once (at least twice the link: within half the 485 ms the link
# takes for them).
ctl sw1 conn del dev swp1 id 03:09
LOW=200000			# 8 frames: 485 ms of link, under the lag
link_burst() { # LAG: the rate 8 frames from h1 arrive at on h2
	on sw1 tc qdisc change dev swp2 root ethereal rate "${LOW}bit" link-burst "$1"
	sleep "$(slow 1)"
	field rate_bps "$(UDP_PORT=5001 udp_flow h1 h2 "$(host_ip h2)" 8 $SIZE)"
}
r=$(link_burst 0)
ktap_info "link-burst 0: 8 frames at ${r:-?} bit/s through a ${LOW} bit/s link"
ktap_result "link-burst 0: a burst after idle leaves at the link rate" \
	"$(awk -v r="${r:-0}" -v l="$LOW" 'BEGIN { exit !(r > 0 && r <= 1.5 * l) }'; echo $?)"
r=$(link_burst 1s)
ktap_info "link-burst 1s: 8 frames at ${r:-?} bit/s through a ${LOW} bit/s link"
ktap_result "link-burst 1s: a burst after a second idle leaves back to back" \
	"$(awk -v r="${r:-0}" -v l="$LOW" 'BEGIN { exit !(r >= 2 * l) }'; echo $?)"
ktap_end
