#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Preemptive discard (Section 3.3): on a peripheral port's ingress, a host's
# best effort over its residual bandwidth (link rate minus its own
# reservations) is dropped early and counted; not with the window off, and
# not on trunk ports. Ports at 10 Mbit/s (machine_rate: less on a debug
# kernel); h1 reserves 60% of the link and sends 80% of best effort, so 40%
# should pass. h1's own link is a tbf at the link rate, as a real host's NIC:
# a sender catching up after a stall on a loaded machine cannot then put
# more than the link on average. The tbf, and the switch's ports
# (link-burst), catch up 20 ms: a NIC does not lose the time its machine
# stalled (with a bucket of one frame, h1's wire carried 83% of the link at
# most under TCG; 10 ms, 86% on PREEMPT_RT). So h1's frames reach the
# switch up to 20 ms bunched. The window is 50 ms of machine time (slow):
# the most that the host may run ahead of its residual, and so the longest
# delay of its frames that is forgiven.
# timeout=200
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/sched.sh"
. "$(dirname "$0")/lib/ethereal.sh"

LINK=$(machine_rate 10000000)
WINDOW=$(slow 50)ms
SECS=6
SIZE=1472

# early_mark: preemptive discards so far, before each try of a run
early_mark() { _early0=$(port_stat sw1 swp1 drop_early); }

send_be() { # label rate [seconds]
	flow_start be h1 h2 "$(host_ip h2)" 5001 "$2" "${3:-$SECS}" $SIZE
	flows_go early_mark
	_early=$(( $(port_stat sw1 swp1 drop_early) - _early0 ))
	_got=$(field rate_bps "$(flow_rx be)")
	ktap_info "$1: $_got bit/s through, $_early discarded early," \
		"$(field received "$(flow_rx be)") of $(field sent "$(flow_tx be)") frames"
}

ktap_begin 6
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
TOPO_OFFLOAD=off topo_create "sw1:h1,h2,h3" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"
ports_qdisc sw1 "${LINK}bit" discard-window $WINDOW link-burst "$(slow 20)ms"
ctl sw1 conn add dev swp1 id 03:09 out swp3 lladdr "$(host_mac h3)" rate $((LINK * 6 / 10))
on h1 tc qdisc add dev eth0 root tbf rate "${LINK}bit" burst $((LINK * $(slow 20) / 8000 + 1514)) \
	limit 1000000
on h1 ping -c 1 -W 2 "$(host_ip h2)" >/dev/null

send_be "window $WINDOW" $((LINK * 8 / 10))
ktap_senders "the sender reached 80% of the link"
flow_result "best effort held to the residual 40% within 5%" \
	"$(within "$_got" $((LINK * 4 / 10)) 5; echo $?)"
flow_result "every frame over it counted as a preemptive discard" \
	"$([ "$_early" = $(( $(field sent "$(flow_tx be)") - $(field received "$(flow_rx be)") )) ]
	   echo $?)"

ctl sw1 conn del dev swp1 id 03:09
# 95%: over the 40% the reservation left, close to the link. The switch
# takes h1's frames in late and together after each of its stalls; they
# are no more than the link carries, and are not discarded (a count of the
# bytes of the last window, the paper's, dropped some). Its rate is
# asserted: only of a sender that offered it.
send_be "no reservation" $((LINK * 95 / 100))
flow_explain "without reservations the whole link is residual: nothing discarded at 95% of it" \
	"$([ "$_early" = 0 ] && senders_ok be >/dev/null &&
	   within "$_got" $((LINK * 95 / 100)) 2; echo $?)" senders_ok be

ctl sw1 conn add dev swp1 id 03:09 out swp3 lladdr "$(host_mac h3)" rate $((LINK * 6 / 10))
on sw1 tc qdisc change dev swp1 root ethereal discard-window off
# The runs that must discard nothing are shorter: the first run's
# discards, about 40% of what h1 sends, would be over 600 frames in 2 s.
send_be "window off" $((LINK * 8 / 10)) 2
ktap_result "with the window off, nothing discarded" "$([ "$_early" = 0 ]; echo $?)"

on sw1 tc qdisc change dev swp1 root ethereal discard-window $WINDOW
ctl sw1 port set dev swp1 role trunk
send_be "trunk port" $((LINK * 8 / 10)) 2
ktap_result "on a trunk port, nothing discarded" "$([ "$_early" = 0 ]; echo $?)"
ktap_end
