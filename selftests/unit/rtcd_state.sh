#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtcd's state files (rtcd/state.c), corrupt or hostile, read by a new
# rtcd at start: each one that is not a whole saved connection within its
# bounds is ignored with a line in the log, and so is one whose ID is not
# its name's, every file read is removed
# (the connections taken back are written anew), a valid file of a live
# process is taken back, one of a dead process is dropped quietly, and
# rtcd starts and stops cleanly whatever it read. Natively; needs root.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/rtcd_ns.sh"

command -v jq >/dev/null || ktap_skip_all "no jq"
state=$dir/eth0.state
mkdir -m 700 "$state"
printf 'socket-group nogroup\n' >"$conf"

# A process whose connections are taken back, and a pid that is gone.
sleep 60 &
live=$!
sh -c 'exit 0' &
dead=$!
wait $dead

# save FILE DPORT [JQ-EXPR]: a saved connection to DPORT, as rtcd writes
# one, with JQ-EXPR applied (the corruption); id from FILE when it is hex.
save() {
	local id=$((16#${1//[!0-9a-f]/0}))
	jq -cn --argjson id "$id" --argjson dport "$2" --argjson pid "$live" "{id: \$id,
		cookie: 7, daddr: \"10.0.0.2\", dport: \$dport, rate: 1000000, burst: 3028,
		max_pkt: 1514, uid: 0, pid: \$pid, lifetime_ms: 2000, hops: 1, tol: 0,
		delay_bound_ns: 0, down: false, downs: 0} | ${3:-.}" >"$state/$1"
}
# corrupt FILE WHY [JQ-EXPR]: a corrupt file (with JQ-EXPR, one saved so
# corrupted; without, written by the caller) and why it is one
declare -A bad
corrupt() {
	bad[$1]=$2
	[ -z "${3:-}" ] || save "$1" 5000 "$3"
}
corrupt 0101 "not JSON"
printf 'garbage{' >"$state/0101"
corrupt 0102 "a field missing" 'del(.rate)'
corrupt 0104 "a rate below 1" '.rate = -1'
corrupt 0110 "a rate past ETHEREAL_RATE_MAX" '.rate = 10000000000001'
corrupt 0111 "a rate below ETHEREAL_RATE_MIN" '.rate = 999'
corrupt 0112 "a lifetime of 0 (a refresh every 10 ms)" '.lifetime_ms = 0'
corrupt 0113 "a lifetime past an hour" '.lifetime_ms = 4000000000'
corrupt 0114 "a frame past 65535 bytes" '.max_pkt = 70000'
corrupt 0115 "a burst below a frame" '.burst = 1000'
corrupt 0116 "a tolerance past the burst" '.tol = 4000'
corrupt 0117 "a tolerance below a frame" '.tol = 100'
corrupt 0105 "a port past 65535" '.dport = 70000'
corrupt 0106 "more than 255 hops" '.hops = 300'
corrupt 0107 "no IPv4 address" '.daddr = "not.an.address"'
corrupt 0108 "a negative number of downs" '.downs = -1'
corrupt 0109 "a tolerance past 32 bits" '.tol = 8589934592'
corrupt 010a "down not a boolean" '.down = "yes"'
corrupt 010b "a cookie past 32 bits" '.cookie = 4294967296'
corrupt 0001 "an id out of the range of connections" '.'
corrupt 010d "nesting 100000 deep"
head -c 100000 /dev/zero | tr '\0' '[' >"$state/010d"
corrupt 010e "a string for a number" '.burst = "3028"'
# Whole connections, but of another ID than their name (one through a
# link to a file elsewhere): not taken back, with a line in the log.
save 0103 5003 '.id = 260'
save 0200 5100 '.id = 512'
cp "$state/0200" "$dir/elsewhere"
ln -s "$dir/elsewhere" "$state/010f"
target=$(md5sum <"$dir/elsewhere")
# Names that are no connection's: not read, removed.
save zzzz 5015
save 10000 5016
# Valid: of the live process (taken back), and of a dead one (dropped).
save 0300 5300 '.id = 768 | .down = true | .downs = 2'
save 0301 5301 ".id = 769 | .pid = $dead"

ktap_begin 9
start -v
rc=$?
ktap_result "rtcd starts over the corrupt files" $rc "$(cat "$log")"
[ $rc = 0 ] || ktap_end
# logged DESC WHAT FILE...: the log has "FILE WHAT" for each FILE
logged() {
	local desc=$1 what=$2 f missing=
	shift 2
	for f; do
		grep -q "$state/$f $what" "$log" || missing+=" $f${bad[$f]:+ (${bad[$f]})}"
	done
	ktap_result "$desc" "$([ -z "$missing" ]; echo $?)"
	[ -z "$missing" ] || ktap_info "not logged:$missing"
}
logged "each corrupt file is ignored with a line in the log" \
	"is not a saved connection: ignored" "${!bad[@]}"
logged "a file holding another ID than its name's is ignored with a line in the log" \
	"holds connection [0-9]*, not the one its name says: ignored" 0103 010f
ktap_result "the file of a dead process is dropped without a complaint" \
	"$(! grep -q "$state/0301 " "$log"; echo $?)"
left=$(cd "$state" && ls -A | tr '\n' ' ')
ktap_result "every file read is removed, the one taken back written anew" \
	"$([ "$left" = "0200 0300 " ]; echo $?)"
[ "$left" = "0200 0300 " ] || ktap_info "left in $state: $left"
ktap_result "the link's target is untouched" \
	"$([ "$(md5sum <"$dir/elsewhere" 2>/dev/null)" = "$target" ]; echo $?)"
st=$(cli status)
ktap_result "a whole connection saved under another ID's name is not taken back" \
	"$(holds '.connections | length > 0 and all(.dport != 5003)' <<<"$st"; echo $?)"
ktap_result "status lists the two taken back, the down one down, and no other" \
	"$(holds '[.connections[] | .dport] | sort == [5100, 5300]' <<<"$st" &&
	   holds '.connections[] | select(.dport == 5300) | .state == "down" and .downs == 2' \
		<<<"$st"; echo $?)"
ktap_info "status: $(jq -c '[.connections[] | {dport, state}]' <<<"$st")"
stop
ktap_result "rtcd stops cleanly" "$([ -z "$bad_exits" ]; echo $?)"
kill $live 2>/dev/null
ktap_end
