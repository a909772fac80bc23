#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rttr-recv's sequence report natively, on a loopback: datagrams numbered
# as rttr-send numbers them (a u64 first, host byte order) arrive with
# numbers skipped and one late; the report names how many were skipped,
# in how many gaps, the first and last gap, and the late one. What a lost
# frame's test prints to say when in the stream it was lost. Needs nothing
# but python3.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"

recv=$top/rttr/rttr-recv
[ -x "$recv" ] || ktap_skip_all "rttr-recv not built (make userspace)"
command -v jq >/dev/null || ktap_skip_all "no jq"
dir=$(mktemp -d /tmp/rttr_recv_seq.XXXXXX) || ktap_skip_all "no scratch directory"
defer rm -rf "$dir"
# A port of its own, well away from the others' (5000s).
port=$((40000 + $$ % 20000))

ktap_begin 2
"$recv" -j -n 9 -t 10 -b 127.0.0.1 $port >"$dir/rx" 2>"$dir/rxerr" &
rx=$!
wait_line "$dir/rxerr" listening $rx || ktap_skip_all "receiver: $(cat "$dir/rxerr")"
# 0 1 2 _ 4 _ _ 7 3 8 9 _ _ 12: gaps 3, 5-6, 10-11; 3 late.
python3 - $port <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for n in (0, 1, 2, 4, 7, 3, 8, 9, 12):
    s.sendto(struct.pack("=Q", n) + b"x" * 100, ("127.0.0.1", int(sys.argv[1])))
PY
wait $rx
ktap_result "numbers skipped: 5 in 3 gaps, first 3-3, last 10-11, 1 late, next 13" \
	"$(holds '.count == 9 and .seq == {"next": 13, "gaps": 3, "skipped": 5, "late": 1,
		  "first_gap": [3, 3], "last_gap": [10, 11]}' "$dir/rx"; echo $?)" \
	"$(cat "$dir/rx")"

"$recv" -j -n 2 -t 10 -b 127.0.0.1 $port >"$dir/rx" 2>"$dir/rxerr" &
rx=$!
wait_line "$dir/rxerr" listening $rx || ktap_skip_all "receiver: $(cat "$dir/rxerr")"
python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for b in (b"abc", b"de"):
    s.sendto(b, ("127.0.0.1", int(sys.argv[1])))' $port
wait $rx
ktap_result "datagrams too short to be numbered: no sequence report" \
	"$(holds '.count == 2 and .seq == null' "$dir/rx"; echo $?)" "$(cat "$dir/rx")"
ktap_end
