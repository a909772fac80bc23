#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtcd natively, in a network namespace of its own with no switch behind
# its link: who may use which socket, rtcd.conf's limits, status without
# other users' destinations, running out of descriptors, SIGHUP, running as
# rtcd@.service runs it, the link going down and up, and a bad
# configuration. Opens stay pending (nothing answers their SETUP), which is
# all a limit needs to count them. Needs root (namespaces, other users).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/wait.sh"

. "$top/selftests/lib/rtcd_ns.sh"

# The socket group: one that nobody is in, and that daemon (uid 1) is not in either.
group=nogroup
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
daemon_="setpriv --reuid=1 --regid=1 --clear-groups"
# nobody in the socket group, daemon not.
nobody_in="setpriv --reuid=65534 --regid=65534 --groups=$(getent group $group | cut -d: -f3)"

# Nothing answers a SETUP: a pending open gives up after 3 s, so each check
# opens what it counts right before it (wait_conn).

ktap_begin 21

cat >"$conf" <<EOF
socket-group $group
limit user * connections 1 rate 10mbit
EOF
start || { cat "$log"; ktap_fail "rtcd starts"; ktap_end; }

# 1-2: the control socket is the group's, the status socket anyone's.
ktap_result "control socket 0660 in the socket-group" \
	"$([ "$(stat -c %a:%G "$sock")" = "660:$group" ]; echo $?)" "$(stat -c %a:%G "$sock")"
ktap_result "status socket 0666" \
	"$([ "$(stat -c %a "$dir/eth0.ro.sock")" = 666 ]; echo $?)"

# 3: outside the group: no open, but a status through the status socket.
out=$($daemon_ "$rtcd" -i eth0 -S "$sock" open 10.0.0.2 5000 1mbit 2>&1)
rc=$?
ktap_result "outside the group: open refused" \
	"$([ $rc = 1 ] && echo "$out" | grep -q "Permission denied"; echo $?)" "$rc: $out"
out=$($daemon_ "$rtcd" -i eth0 -S "$sock" status -j 2>&1)
ktap_result "outside the group: status through the status socket" \
	"$(echo "$out" | holds .ok; echo $?)" "$out"
# 5: the status socket takes nothing else.
out=$(ask '{"op":"close","id":"03:09"}' "$dir/eth0.ro.sock" "$daemon_" 2>&1)
ktap_result "status socket refuses close" \
	"$(echo "$out" | holds '.error == "permission"'; echo $?)" "$out"

# 6-7: "user *": one connection and 10mbit each.
hold_open "$nobody_in" 10.0.0.2 5000 1mbit
wait_conn 5000
out=$($nobody_in "$rtcd" -i eth0 -S "$sock" open 10.0.0.2 5001 1mbit 2>&1)
ktap_result "a second connection refused by each user's limit" \
	"$(echo "$out" | grep -q "limit: each user's limit of 1 connection (rtcd.conf line 2) is reached"; echo $?)" "$out"
hold_open "" 10.0.0.3 6000 50mbit
wait_conn 6000
ktap_result "root is not held to user *" $? "$(cli status)"

# 8-9: status shows a user the destinations of its own connections only.
out=$($nobody_in "$rtcd" -i eth0 -S "$sock" status 2>&1)
ktap_result "a user sees where its own connection goes" \
	"$(echo "$out" | holds '[.connections[] | select(.daddr == "10.0.0.2" and .uid == 65534)] | length == 1'; echo $?)" "$out"
ktap_result "and not where root's goes" \
	"$(echo "$out" | holds '[.connections[] | select(.rate == 50000000)] | .[0] | has("daddr") or has("pid") | not'; echo $?)" "$out"

# 10: SIGHUP reads the file again; a broken file changes nothing.
echo "limit user * connection 2" >>"$conf"
# Wait for rtcd's own line, not a fixed time: a stalled machine reloads late.
kill -HUP "$pid"
wait_line "$log" "SIGHUP: $conf:3: unknown limit 'connection'.*unchanged" "$pid"
bad_kept=$?
cat >"$conf" <<EOF
socket-group $group
limit user nobody rate 5mbit
EOF
kill -HUP "$pid"
wait_line "$log" "SIGHUP: $conf read again" "$pid"
hold_open "$nobody_in" 10.0.0.2 5003 1mbit
wait_conn 5003
out=$($nobody_in "$rtcd" -i eth0 -S "$sock" open 10.0.0.2 5002 5mbit 2>&1)
ktap_result "SIGHUP: a broken file is ignored, a good one applies" \
	"$([ $bad_kept = 0 ] && echo "$out" | grep -q "user nobody limit of 5Mbit (rtcd.conf line 2) would be exceeded: [0-9]*Mbit held, 5Mbit asked"; echo $?)" "$out"

# 11-12: out of descriptors: no busy loop, and clients again once some leave.
stop
jobs -p | xargs -r kill 2>/dev/null
wait 2>/dev/null
start_nofile() {
	: >"$log"
	prlimit --nofile=24:24 "$rtcd" -i eth0 -S "$sock" -f "$conf" 2>>"$log" &
	pid=$!
	for _ in $(seq 100); do grep -q "ready:" "$log" && return 0; sleep 0.05; done
	return 1
}
start_nofile
/usr/bin/python3 - "$sock" "$dir/holders.pid" <<'EOF' &
import os, socket, sys, time
socks = []
for _ in range(40):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(sys.argv[1])
    socks.append(s)
open(sys.argv[2], "w").write(str(os.getpid()))
time.sleep(30)
EOF
holders=$!
sleep 0.5
t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
sleep 2
t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
lines=$(grep -c "accept:" "$log")
ktap_result "out of descriptors: no busy loop" \
	"$([ $((t1 - t0)) -lt 20 ] && [ "$lines" -le 3 ]; echo $?)" \
	"cpu ticks in 2 s: $((t1 - t0)), accept lines: $lines"
kill "$holders"
wait "$holders" 2>/dev/null
out=$(cli status 2>&1)
ktap_result "clients accepted again once descriptors are free" \
	"$(echo "$out" | holds .ok; echo $?)" "$out"
stop

# 13-15: as rtcd@.service runs it: not root, in the socket group, with
# CAP_NET_ADMIN and CAP_NET_RAW alone, telling systemd when it is ready.
gid=$(getent group $group | cut -d: -f3)
chown 61000 "$dir"
rm -rf "$dir"/eth0.*
printf 'socket-group %s\n' "$group" >"$conf"
/usr/bin/python3 - "$dir/notify" "$dir/notified" <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
with open(sys.argv[2], "w") as f:
    while True:
        f.write(s.recv(4096).decode() + "\n")
        f.flush()
EOF
notifier=$!
for _ in $(seq 40); do [ -S "$dir/notify" ] && break; sleep 0.05; done
chmod 666 "$dir/notify"
: >"$log"
NOTIFY_SOCKET=$dir/notify setpriv --reuid=61000 --regid=61000 --groups="$gid" \
	--inh-caps=-all,+net_admin,+net_raw --ambient-caps=-all,+net_admin,+net_raw \
	--bounding-set=-all,+net_admin,+net_raw \
	"$rtcd" -i eth0 -S "$sock" -f "$conf" 2>>"$log" &
pid=$!
for _ in $(seq 100); do grep -q "READY=1" "$dir/notified" 2>/dev/null && break; sleep 0.05; done
ktap_result "unprivileged with two capabilities: ready, READY=1 told" \
	"$(grep -q "READY=1" "$dir/notified" && [ -S "$sock" ]; echo $?)" "$(cat "$log" "$dir/notified")"
ktap_result "its control socket is in the socket group" \
	"$([ "$(stat -c %a:%G "$sock")" = "660:$group" ]; echo $?)" "$(stat -c %a:%G:%U "$sock")"
out=$($nobody_in "$rtcd" -i eth0 -S "$sock" open 10.0.0.2 5000 1mbit 2>&1)
stop
ktap_result "an open reaches the switch (times out: none there); STOPPING=1 told" \
	"$(echo "$out" | grep -q "timeout: no answer from the switch" &&
	   grep -q "STOPPING=1" "$dir/notified"; echo $?)" "$out $(cat "$log")"
kill "$notifier" 2>/dev/null
wait "$notifier" 2>/dev/null
chown 0 "$dir"

# 16-18: link down and up: clients told, rtcd's route and entries put back.
printf 'socket-group %s\n' "$group" >"$conf"
start
hold_out=$dir/hold.out
"$rtcd" -i eth0 -S "$sock" open 10.0.0.2 5000 1mbit >"$hold_out" 2>&1 &
wait_conn 5000
ip link set eth0 down
no_route() { ! ip route show proto 0xe7 dev eth0 | grep -q .; }
eventually 40 no_route
gone=$(ip route show proto 0xe7 dev eth0 | wc -l)
ip link set eth0 up
put_back() {
	ip route show proto 0xe7 dev eth0 | grep -q . &&
		ip neigh show dev eth0 | grep -q "ff:ff:ff:ff:00:01 PERMANENT"
}
eventually 40 put_back
ktap_result "link down and up: the route and the control entry are put back" \
	"$([ "$gone" = 0 ] && ip route show proto 0xe7 dev eth0 | grep -q 198.18.0.0/15 &&
	   ip neigh show dev eth0 | grep -q "198.18.0.1 lladdr ff:ff:ff:ff:00:01 PERMANENT"; echo $?)" \
	"$(ip route show dev eth0; ip neigh show dev eth0; cat "$log")"
ktap_result "a client with a connection is told of the link going down and up" \
	"$(grep -q '"event":"link","ifname":"eth0","up":false' "$hold_out" &&
	   grep -q '"event":"link","ifname":"eth0","up":true' "$hold_out"; echo $?)" "$(cat "$hold_out")"
ip neigh del 198.18.0.1 dev eth0
for _ in $(seq 40); do
	ip neigh show dev eth0 | grep -q "198.18.0.1 .*PERMANENT" && break
	sleep 0.05
done
ktap_result "an entry deleted by hand is put back" \
	"$(ip neigh show dev eth0 | grep -q "198.18.0.1 lladdr ff:ff:ff:ff:00:01 PERMANENT"; echo $?)" \
	"$(ip neigh show dev eth0; tail -5 "$log")"
stop

# 19-20: a bad configuration is exit status 2, with the file and line.
printf 'socket-group %s\nlimit user no-such-user-xyz connections 1\n' "$group" >"$conf"
out=$("$rtcd" -i eth0 -S "$sock" -f "$conf" 2>&1)
rc=$?
ktap_result "a bad configuration: exit 2, file and line named" \
	"$([ $rc = 2 ] && echo "$out" | grep -q "$conf:2: no user 'no-such-user-xyz'"; echo $?)" "$rc: $out"
out=$("$rtcd" -i eth0 -S "$sock" -f "$dir/none.conf" 2>&1)
rc=$?
ktap_result "-f of a missing file: exit 2" \
	"$([ $rc = 2 ] && echo "$out" | grep -q "none.conf: No such file"; echo $?)" "$rc: $out"

ktap_result "every rtcd stopped exited 0" "$([ -z "$bad_exits" ]; echo $?)" "exit statuses:$bad_exits"
ktap_end
