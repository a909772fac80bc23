#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Mutated generic netlink and tc requests (tools/nlfuzz): every numeric
# attribute of every command and of the qdisc's options at its edge values
# (in its width and in a wrong one), then random requests, some with their
# bytes overwritten, while traffic crosses the switch. Every request is
# answered, the policies reject what they must (with their reason counted
# per errno), nothing warns or leaks (the runner checks dmesg), and the
# switch forwards as before afterwards. 10^5 requests (about 30 s);
# NLFUZZ_COUNT and NLFUZZ_SEED make a longer or a repeated run.
# timeout=600
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

CFG="$(dirname "$0")/../tc-configs"
COUNT=${NLFUZZ_COUNT:-100000}
SEED=${NLFUZZ_SEED:-$(date +%s)}

ktap_begin 4
ethereal_load || ktap_skip_all "cannot load ethereal.ko"
topo_create "sw1:h1,h2,h3" || ktap_skip_all "cannot build topology"
"$CFG/ethereal-switch" -n "$(ns_of sw1)" -r 10mbit br0 ||
	ktap_skip_all "cannot make the switch"
ports=$(for h in h1 h2 h3; do port_of sw1 $h; done)

# Frames cross the switch while its configuration changes under them.
on_bg h1 ping -q -i 0.02 -w 600 "$(host_ip h2)" >/dev/null 2>&1
pinger=$!
defer kill $pinger

t0=$(date +%s)
# shellcheck disable=SC2086 # one argument per port
res=$(on sw1 nlfuzz "$COUNT" "$SEED" br0 $ports)
rc=$?
ktap_info "$res ($(( $(date +%s) - t0 )) s, seed $SEED)"
ktap_result "every request answered, none hung" $rc
ktap_result "at least $COUNT requests, the edge sweep among them" \
	"$(awk -v n="$COUNT" '{ for (i = 1; i <= NF; i++) { split($i, kv, "=")
		v[kv[1]] = kv[2] } } END { exit !(v["requests"] >= n && v["sweep"] > 5000) }' \
		<<<"$res"; echo $?)"
ktap_result "the policies rejected bad values (EINVAL, ERANGE) and others passed" \
	"$([[ "$res" == *" EINVAL="* ]] && [[ "$res" == *" ERANGE="* ]] &&
	   [[ "$res" != *" ok=0 "* ]]; echo $?)"

# Afterwards: the switch set up again from scratch forwards real time.
kill $pinger 2>/dev/null
ctl sw1 detach br0 2>/dev/null
for p in $ports; do on sw1 tc qdisc del dev "$p" root 2>/dev/null; done
"$CFG/ethereal-switch" -n "$(ns_of sw1)" -r 10mbit br0 &&
ctl sw1 conn add dev "$(port_of sw1 h1)" id 03:09 out "$(port_of sw1 h2)" \
	lladdr "$(host_mac h2)" daddr "$(host_ip h2)" swap rate 1mbit &&
host_proxy h1 03:09
res=$(udp_flow h1 h2 "$(proxy_ip 03:09)" 50 100 200)
rc=$?
# Where the frames went, if they did not arrive.
[ $rc = 0 ] || ktap_info "$(ctl sw1 -s conn show; ctl sw1 -s port show
	on h2 nstat -az | grep -E 'Ip(InHdr|InAddr|InDiscards)|Udp(InErrors|NoPorts|InCsumErrors|RcvbufErrors)')"
ktap_result "afterwards the switch forwards real time as before" $rc "$res"
ktap_end
