#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tc-configs/peer natively: every bad argument is refused before any tc
# runs, saying what is wrong (rate, cycle, jitter, flow, kind), with exit
# status 2.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"

# refused NAME MESSAGE ARGS...: peer ARGS exits 2 saying MESSAGE
refused() {
	local name=$1 text=$2 out rc
	shift 2
	out=$("$top/tc-configs/peer" "$@" 2>&1)
	rc=$?
	ktap_result "$name" "$([ $rc = 2 ] && [[ $out == *"$text"* ]]; echo $?)" "exit $rc: $out"
}

ktap_begin 7
refused "unknown kind" "unknown kind 'turbo'" turbo br0
refused "rate not a rate" "bad rate 'fast'" -r fast prio br0
refused "cycle too short" "bad cycle '10us'" -c 10us prio br0
refused "jitter over a second" "bad jitter '2s' (0 to 1s" -j 2s prio br0
refused "jitter not a time" "bad jitter 'soon'" -j soon prio br0
refused "flow without a rate" "bad flow '10.0.0.2:5000'" prio br0 10.0.0.2:5000
refused "flows over the link" "the flows ask for 12000000 bit/s, the link has 10000000" \
	-r 10mbit htb br0 10.0.0.2:5000:6mbit 10.0.0.3:5000:6mbit
ktap_end
