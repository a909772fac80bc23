#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inter-arrival jitter at the receiver of a constant-rate connection (Figs.
# 6 and 8): cyclic mode sends each connection's share in one burst per
# cycle, paced mode spreads it evenly. With the same load, paced mode's
# standard deviation of inter-arrival times is far below cyclic mode's.
# Ports at 10 Mbit/s, a 5 Mbit/s connection beside 3 Mbit/s of best effort,
# full-size frames (what the emulated CPU sustains). On a debug kernel the
# rates are machine_rate's (its senders fell 6-10% short of 5 Mbit/s) and
# the cycle slow's, so that a cycle holds the same frames.
# timeout=200
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/sched.sh"
. "$(dirname "$0")/lib/ethereal.sh"

LINK=$(machine_rate 10000000)
RT=$((LINK / 2))
BURST=$((RT / 8 * $(slow 40) / 1000))	# 40 ms of the connection (25000 bytes)
SECS=6
SIZE=1472

invalid=	# why measure's runs were invalid, when one was
measure() { # mode
	ports_qdisc sw1 "${LINK}bit" mode "$1" cycle "$(slow 10)ms"
	flow_start rt h1 h2 "$(proxy_ip 03:09)" 5000 $RT $SECS $SIZE $BURST
	flow_start be h3 h2 "$(host_ip h2)" 5001 $((LINK * 3 / 10)) $SECS $SIZE
	flows_go
	ktap_info "$1: $(flow_rx rt)"
	flow_result "$1: senders reached their rates, nothing real-time lost" \
		"$(senders_ok rt be >/dev/null &&
		   [ "$(field received "$(flow_rx rt)")" = "$(field sent "$(flow_tx rt)")" ]
		   echo $?)"
	ktap_info "$1: sender $(flow_tx rt)"
	awk -v rx="$(field iat_sd_us "$(flow_rx rt)")" -v tx="$(field iat_sd_us "$(flow_tx rt)")" \
		'BEGIN { d = rx * rx - tx * tx; printf "%.1f\n", (d > 0 ? sqrt(d) : 0) }' \
		>"$_flow_dir/sd.$1"
	[ -z "$run_invalid" ] || invalid+="${invalid:+; }$1: $run_invalid"
}

ktap_begin 3
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
TOPO_OFFLOAD=off topo_create "sw1:h1,h2,h3" || ktap_skip_all "cannot build topology"
ctl sw1 attach br0 || ktap_skip_all "cannot attach"
ctl sw1 conn add dev swp1 id 03:09 out swp2 lladdr "$(host_mac h2)" \
	daddr "$(host_ip h2)" swap rate $RT burst $BURST
host_proxy h1 03:09
for h in h1 h3; do on "$h" ping -c 1 -W 2 "$(host_ip h2)" >/dev/null; done

measure cyclic
measure paced
cyclic=$(cat "$_flow_dir/sd.cyclic")
paced=$(cat "$_flow_dir/sd.paced")
ktap_info "inter-arrival jitter added by the switch: cyclic $cyclic us, paced $paced us"
# a comparison with either run invalid (sched.sh) is no result
run_invalid=$invalid
flow_result "the jitter paced mode adds is under a third of what cyclic mode adds" \
	"$(awk -v p="$paced" -v c="$cyclic" 'BEGIN { exit !(p * 3 < c) }'; echo $?)"
ktap_end
