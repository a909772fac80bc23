#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rtcd restarted (SIGTERM, then a new one) under a librttr stream, natively
# against a fake first switch: the proxy's neighbour entry never goes, every
# datagram sent leaves on the link, and the sender neither stalls nor loses
# its connection while the new rtcd is slow to answer its claim (frozen
# 1.5 s once ready: librttr waited for the answer in rttr_send(), 240 ms
# for a 300 ms freeze, and after a second claimed again on a new socket,
# whose first one's close then tore the connection down). Frames are counted
# and timed on the link's peer by the kernel (SO_TIMESTAMPNS). Needs root.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"
. "$top/selftests/lib/rtcd_ns.sh"

use_rttr
command -v jq >/dev/null || ktap_skip_all "no jq"
secs=5
freeze=1.5

printf 'socket-group nogroup\n' >"$conf"
start -v || ktap_skip_all "rtcd does not start: $(cat "$log")"
ktap_begin 4

fake_switch "5000=accept@0"
# The receiver's own entry: its address resolved, as a switch's would be.
ip neigh add 10.0.0.2 lladdr 02:00:00:00:00:02 dev eth0
ip monitor neigh dev eth0 >"$dir/neigh" 2>&1 &
mon=$!
# The connection's frames (to FF:FF:FF:FF:X:Y, not the control MAC
# FF:FF:FF:FF:00:01) reaching the peer: their number and largest gap.
/usr/bin/python3 - eth0p >"$dir/cap" <<'PY' &
import json, socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
s.setsockopt(socket.SOL_SOCKET, 35, 1)  # SO_TIMESTAMPNS
s.bind((sys.argv[1], 0x0800))
s.settimeout(2)
print("listening", flush=True)
n, last, gap = 0, None, 0
try:
    while True:
        data, anc, _, addr = s.recvmsg(2048, socket.CMSG_SPACE(16))
        if addr[2] == 4 or data[:4] != b"\xff" * 4 or data[4:6] == b"\0\1":
            continue
        t = None
        for level, ctype, c in anc:
            if level == socket.SOL_SOCKET and ctype == 35:
                sec, ns = struct.unpack("qq", c[:16])
                t = sec * 10**9 + ns
        if t is not None and last is not None:
            gap = max(gap, t - last)
        n, last = n + 1, t
except socket.timeout:
    pass
print(json.dumps({"frames": n, "max_gap_ms": round(gap / 1e6, 1)}), flush=True)
PY
cap=$!
wait_line "$dir/cap" listening $cap
"$send" -S "$sock" -j -m 1514 10.0.0.2 5000 5mbit -s 1472 -t $secs >"$dir/tx" 2>"$dir/tx.err" &
tx=$!
for _ in $(seq 40); do grep -q ": up" "$log" && break; sleep 0.05; done
sleep 1
stop
start -v
kill -STOP "$pid"
sleep $freeze
kill -CONT "$pid"
# the claim answered, the stream still on: its close will delete the entry
sleep 0.5
kill $mon
wait $tx
wait $cap
kill $sw 2>/dev/null
stop

proxy=$(sed -n 's/^rttr-send: connection .*, proxy //p' "$dir/tx.err")
sent=$(jq .sent "$dir/tx" 2>/dev/null)
frames=$(tail -n 1 "$dir/cap" | jq .frames)
gap=$(tail -n 1 "$dir/cap" | jq .max_gap_ms)
ktap_info "sent ${sent:-nothing}, on the link $frames, largest gap $gap ms;" \
	"sender $(jq -c '.info | {send_max_ns, late_max_ns, unused_ns}' "$dir/tx" 2>/dev/null)"
why() { echo "$(cat "$dir/tx.err"); $(grep -v "refresh\|->\|<-" "$log")"; }

ktap_result "the proxy's neighbour entry was never deleted" \
	"$([ -n "$proxy" ] && ! grep -q "^Deleted $proxy " "$dir/neigh"; echo $?)" \
	"proxy ${proxy:-unknown}: $(cat "$dir/neigh")"
ktap_result "the connection is taken back, the stream runs its $secs s" \
	"$(grep -q "claimed by pid" "$log" &&
	   holds '.seconds >= $s - 0.1' --argjson s "$secs" "$dir/tx"; echo $?)" "$(why)"
ktap_result "every datagram sent left on the link" \
	"$([ -n "$sent" ] && [ "$frames" = "$sent" ]; echo $?)" "sent $sent, on the link $frames"
# A frame time is 2.4 ms; a loaded machine wakes the sender tens of ms late
# at worst, never a third of the freeze.
ktap_result "the sender did not wait for the frozen rtcd: no gap of $freeze s / 3" \
	"$(awk -v g="$gap" -v f=$freeze 'BEGIN { exit !(g < f * 1000 / 3) }'; echo $?)" \
	"largest gap $gap ms"
ktap_end
