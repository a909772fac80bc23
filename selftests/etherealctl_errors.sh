#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# etherealctl says what is wrong with every bad argument, and exits as ip(8)
# does: 1 for a bad command line (or no such device, no module), 2 for an
# operation the kernel refused, with its message.
# timeout=200
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/topo.sh"
. "$(dirname "$0")/lib/rt.sh"
. "$(dirname "$0")/lib/ethereal.sh"

# expect NAME CODE MESSAGE -- ARGS...: etherealctl in sw1 exits with CODE
# and its stderr contains MESSAGE.
expect() {
	local name=$1 code=$2 text=$3 out rc
	shift 4
	out=$(on sw1 etherealctl "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc = "$code" ] && [[ "$out" == *"$text"* ]]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "exit $rc, said: $out"
	fi
}

CONN="out swp2 lladdr 02:e7:00:00:00:02 rate 1mbit"

ktap_begin 51
topo_create "sw1:h1,h2" || ktap_skip_all "cannot build topology"
ethereal_unload
expect "module not loaded" 1 "the ethereal module is not loaded" -- show
ethereal_load || ktap_skip_all "cannot load ethereal.ko"

expect "unknown command" 1 "unknown object or command 'frobnicate'" -- frobnicate
expect "attach without bridge" 1 "attach needs a bridge" -- attach
expect "unknown bridge" 1 "no device named 'br9'" -- attach br9
expect "not a bridge" 2 "Device is not a bridge" -- attach swp1
expect "port of a plain bridge" 2 "Device is not a port of an EtheReal switch" -- \
	conn add dev swp1 id 03:09 $CONN
ctl sw1 attach br0
expect "attach twice" 2 "already an EtheReal switch" -- attach br0
expect "unknown port" 1 "no device named 'swp9'" -- conn add dev swp9 id 03:09 $CONN
expect "ID not an ID" 1 "'3:9' is not a connection ID" -- conn add dev swp1 id 3:9 $CONN
expect "ID above 16 bits" 1 "is not a connection ID" -- conn add dev swp1 id 0x10000 $CONN
expect "ID in the control range" 1 "id 00:05 is reserved (00:00 to 00:0a are control IDs)" -- \
	conn add dev swp1 id 00:05 $CONN
expect "ID ff:ff" 1 "broadcast" -- conn add dev swp1 id ff:ff $CONN
expect "output ID reserved" 1 "outid 0x0001 is reserved" -- \
	conn add dev swp1 id 03:09 out swp2 outid 0x0001 rate 1mbit
expect "zero rate" 1 "rate must be from 1kbit to 10tbit" -- \
	conn add dev swp1 id 03:09 out swp2 outid 07:78 rate 0
expect "rate below 1kbit" 1 "rate must be from 1kbit to 10tbit" -- \
	conn add dev swp1 id 03:09 out swp2 outid 07:78 rate 999bit
expect "rate above 10tbit" 1 "rate must be from 1kbit to 10tbit" -- \
	conn add dev swp1 id 03:09 out swp2 outid 07:78 rate 11tbit
expect "rate not a rate" 1 "rate 'fast' is not a rate" -- \
	conn add dev swp1 id 03:09 out swp2 outid 07:78 rate fast
expect "rate above the port's" 2 "Rate exceeds the output port's link rate" -- \
	conn add dev swp1 id 03:09 out swp2 outid 07:78 rate 40gbit
expect "both outid and lladdr" 1 "either 'outid ID'" -- \
	conn add dev swp1 id 03:09 out swp2 outid 07:78 lladdr 02:00:00:00:00:01 rate 1mbit
expect "multicast receiver MAC" 1 "must be unicast" -- \
	conn add dev swp1 id 03:09 out swp2 lladdr 03:00:00:00:00:01 rate 1mbit
expect "swap without daddr" 1 "swap needs 'daddr ADDR'" -- \
	conn add dev swp1 id 03:09 $CONN swap
expect "maxpkt out of range" 1 "maxpkt '20' must be 60 to 65535 bytes" -- \
	conn add dev swp1 id 03:09 $CONN maxpkt 20
expect "same input and output port" 2 "Input and output port are the same" -- \
	conn add dev swp1 id 03:09 out swp1 outid 07:78 rate 1mbit
ctl sw1 conn add dev swp1 id 03:09 $CONN
expect "duplicate ID" 2 "Connection ID already in use on the input port" -- \
	conn add dev swp1 id 03:09 $CONN
expect "delete what is not there" 2 "No connection with this ID on the port" -- \
	conn del dev swp1 id 03:0a
expect "set without a setting" 1 "set br0: nothing to set (lifetime TIME)" -- set br0
expect "host-conns out of range" 1 "host-conns '70000': must be 0 (no quota) to 65524" -- \
	port set dev swp1 host-conns 70000
expect "host-rate below 1kbit" 1 "host-rate '5': must be 0 (no quota) or 1kbit to 10tbit" -- \
	port set dev swp1 host-rate 5
KEYF=$(mktemp)
defer rm -f "$KEYF"
echo 0011223344556677 >"$KEYF"
expect "a key of 8 bytes" 1 "must hold 16 to 64 bytes in hex on its first line" -- \
	port set dev swp1 key "$KEYF"
expect "a key file that is not there" 1 "key /nonexistent/key: No such file or directory" -- \
	port set dev swp1 key /nonexistent/key
expect "port set with nothing to change" 1 "nothing to change (role, host-conns, host-rate, key)" -- \
	port set dev swp1
expect "neigh add without lladdr" 1 "neigh add needs 'lladdr MAC'" -- neigh add 10.0.0.9 dev swp1
expect "neigh add, multicast MAC" 1 "a host's MAC is unicast" -- \
	neigh add 10.0.0.9 lladdr 01:00:5e:00:00:01 dev swp1
expect "neigh add, broadcast address" 2 "Not a host's unicast IPv4 address" -- \
	neigh add 255.255.255.255 lladdr 02:00:00:00:00:09 dev swp1
expect "set an unknown setting" 1 "set: unknown setting 'speed' (lifetime)" -- set br0 speed 1
expect "lifetime below 100ms" 1 "lifetime '50ms': a time from 100ms to 1h" -- \
	set br0 lifetime 50ms
expect "lifetime not a time" 1 "lifetime 'soon': a time from 100ms to 1h" -- \
	set br0 lifetime soon
on sw1 ip link add br1 type bridge
expect "set on a bridge not attached" 2 "Device is not an EtheReal switch" -- \
	set br1 lifetime 5s

out=$(on sw1 setpriv --reuid=65534 --regid=65534 --clear-groups \
	etherealctl conn add dev swp1 id 03:0a $CONN 2>&1)
rc=$?
ktap_result "not permitted" "$([ $rc = 2 ] && [[ "$out" == *"needs CAP_NET_ADMIN"* ]]; echo $?)" \
	"exit $rc, said: $out"
out=$(on sw1 setpriv --reuid=65534 --regid=65534 --clear-groups etherealctl conn show 2>&1)
ktap_result "reading is permitted to anyone" "$([[ "$out" == *"id 03:09"* ]]; echo $?)" "$out"

# --- in ip's manner: abbreviations, -d, batch ---
out=$(ctl sw1 c s br0)
ktap_result "abbreviated: 'c s br0' is 'conn show br0'" \
	"$([[ "$out" == *"id 03:09"* ]] && [ "$out" = "$(ctl sw1 conn show br0)" ]; echo $?)" "$out"
ctl sw1 p se dev swp2 ro t
ktap_result "abbreviated: 'p se dev swp2 ro t' makes swp2 a trunk" \
	"$([ "$(ctl sw1 -j port show dev swp2 | jq -r '.[0].role')" = trunk ]; echo $?)"
ctl sw1 port set dev swp2 role peripheral
expect "an option abbreviated to nothing known" 1 "option '-x' is unknown" -- -x show
idx=$(on sw1 ip -j link show swp1 | jq '.[0].ifindex')
out=$(ctl sw1 -d port show dev swp1)
ktap_result "-d: a port's index, and its quota though it has none" \
	"$([[ "$out" == *" host-conns 0 host-rate 0 index $idx"* ]] &&
	   [ "$(ctl sw1 -j -d port show dev swp1 | jq '.[0].ifindex')" = "$idx" ]; echo $?)" "$out"
out=$(ctl sw1 -details show br0)
ktap_result "-details: what the switch's signaling holds" \
	"$([[ "$out" == *" pending 0 neighbours "* ]]; echo $?)" "$out"

batch=$(mktemp)
cat >"$batch" <<'EOB'
# a comment, and a blank line

neigh add 10.0.0.21 lladdr 02:00:00:00:00:21 dev swp1   # static
conn del dev swp1 id 03:0a
neigh add 10.0.0.22 lladdr 02:00:00:00:00:22 \
	dev "swp1"
EOB
out=$(on sw1 etherealctl -b "$batch" 2>&1)
rc=$?
ktap_result "batch: a refused command is named by its line, exit 2, the rest not run" \
	"$([ $rc = 2 ] && [[ "$out" == *"No connection with this ID"*"Command failed $batch:4"* ]] &&
	   ctl sw1 neigh show dev swp1 | grep -q '^10.0.0.21 ' &&
	   ! ctl sw1 neigh show dev swp1 | grep -q '^10.0.0.22 '; echo $?)" "exit $rc, said: $out"
ctl sw1 neigh del 10.0.0.21 dev swp1
out=$(on sw1 etherealctl -force -b - <"$batch" 2>&1)
rc=$?
ktap_result "batch -force: on after it, quotes and a continuation line read" \
	"$([ $rc = 2 ] && [[ "$out" == *"Command failed -:4"* ]] &&
	   [ "$(ctl sw1 -j neigh show dev swp1 | jq '[.[] | select(.static)] | length')" = 2 ]; echo $?)" \
	"exit $rc, said: $out"
ctl sw1 neigh del 10.0.0.21 dev swp1
ctl sw1 neigh del 10.0.0.22 dev swp1
out=$(printf 'conn show br0\nconn add "dev swp1\nshow\n' | on sw1 etherealctl -b - 2>&1)
rc=$?
ktap_result "batch: an unterminated quote is a wrong command line, exit 1" \
	"$([ $rc = 1 ] && [[ "$out" == *"id 03:09"* ]] &&
	   [[ "$out" == *"unterminated quoted string"*"Command failed -:2"* ]] &&
	   [[ "$out" != *"ports 2"* ]]; echo $?)" "exit $rc, said: $out"
rm -f "$batch"

# --- showconf: the operator's configuration, as commands, replayed ---
ctl sw1 set br0 lifetime 1500ms
ctl sw1 port set dev swp2 role trunk
ctl sw1 port set dev swp1 host-conns 3 host-rate 1234567bit
ctl sw1 neigh add 10.0.0.31 lladdr 02:00:00:00:00:31 dev swp1
ctl sw1 conn add dev swp1 id 03:0b out swp2 outid 07:79 rate 1234567bit burst 5000 maxpkt 1000
conf=$(ctl sw1 showconf br0)
ktap_info "showconf br0:"
sed 's/^/#   /' <<<"$conf"
want="attach br0
set br0 lifetime 1500ms
port set dev swp1 role peripheral host-conns 3 host-rate 1234567bit
port set dev swp2 role trunk host-conns 0 host-rate 0
neigh add 10.0.0.31 lladdr 02:00:00:00:00:31 dev swp1
conn add dev swp1 id 03:0b out swp2 outid 07:79 rate 1234567bit burst 5000b maxpkt 1000"
missing=$(grep -vxF -f <(echo "$conf") <<<"$want")
ktap_result "showconf: attach, lifetime, ports, static neighbours and connections, exact" \
	"$([ -z "$missing" ] && [ "$(grep -c '^neigh ' <<<"$conf")" = 1 ] &&
	   grep -q '^conn add dev swp1 id 03:09 out swp2 lladdr 02:e7:00:00:00:02 rate 1Mbit burst [0-9]*b maxpkt 1514$' \
		<<<"$conf"; echo $?)" "missing: $missing"
# The connections as the switch has them; a queue to a host is allocated anew.
conns() { ctl sw1 -j conn show br0 | jq -c 'map(del(.queue)) | sort_by(.id)'; }
conns=$(conns)
ctl sw1 detach br0
out=$(ctl sw1 -b - <<<"$conf" 2>&1)
rc=$?
ktap_result "showconf: replayed with -batch after detach, the same configuration" \
	"$([ $rc = 0 ] && [ "$(ctl sw1 showconf br0 | sort)" = "$(sort <<<"$conf")" ] &&
	   [ "$(conns)" = "$conns" ]; echo $?)" "exit $rc, said: $out"
expect "showconf has no JSON" 1 "showconf writes commands for -batch, not JSON" -- -j showconf
ktap_end
