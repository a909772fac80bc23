# SPDX-License-Identifier: GPL-2.0
# rtcd natively, for the unit tests (selftests/unit/rtcd_*.sh): the script
# runs again in a network namespace of its own, where eth0 (10.0.0.1/24) is
# rtcd's link and eth0p its veth peer, on which a fake switch may listen.
# Source after ktap.sh; needs root (namespaces). Then:
#
#   start [ARGS...]      rtcd -i eth0 with $sock and $conf, until "ready:"
#   stop                 SIGTERM, its exit status kept in $bad_exits unless 0
#   cli ARGS...          rtcd's command line against it
#   hold_open WHO ARGS   an open held in the background, as WHO ("" root)
#   wait_conn DPORT      until a connection to DPORT is in the status
#   define NAME FILE     the number FILE #defines NAME to: a constant as built
#   use_rttr             librttr's sender, $send (the test skipped when it
#                        is not built)
#   fake_switch PLAN...  fake_switch.py on eth0p, until it listens: its
#                        output in $sw_out, its pid $sw
#   open_held SECS DPORT[,BURST[,MAXPKT]]...  for each DPORT, rtcd's open
#                        to 10.0.0.2:DPORT, 1mbit (with BURST and MAXPKT
#                        when given), held in the background (SECS at
#                        most): its output in ${out[DPORT]}, its pid
#                        ${opener[DPORT]}
#   ask JSON [SOCKET [WHO]]  JSON sent as it is on SOCKET ($sock), as WHO
#                        ("" root): the answer printed
#
# $dir (removed at exit) holds $sock, $conf and rtcd's stderr, $log.

[ "$(id -u)" = 0 ] || ktap_skip_all "needs root"
if [ -z "${RTCD_NATIVE_NS:-}" ]; then
	unshare -n true 2>/dev/null || ktap_skip_all "cannot create a network namespace"
	exec unshare -n env RTCD_NATIVE_NS=1 "$0" "$@"
fi

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rtcd=$top/rtcd/rtcd
dir=$(mktemp -d /tmp/rtcd_native.XXXXXX)
chmod 755 "$dir"
sock=$dir/eth0.sock
conf=$dir/rtcd.conf
log=$dir/rtcd.log
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT

ip link set lo up
ip link add eth0 type veth peer name eth0p
ip addr add 10.0.0.1/24 dev eth0
ip link set eth0 up
ip link set eth0p up

start() { # extra rtcd arguments
	: >"$log"
	"$rtcd" -i eth0 -S "$sock" -f "$conf" "$@" 2>>"$log" &
	pid=$!
	wait_line "$log" "ready:" "$pid"
}
# Every rtcd stopped must exit 0: a crash on the way out is a failure too.
bad_exits=
stop() {
	local rc
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	[ $rc = 0 ] || bad_exits="$bad_exits $rc"
	pid=
}
cli() { "$rtcd" -i eth0 -S "$sock" "$@"; }
# An open held in the background, as user $1 (a setpriv command line).
hold_open() {
	local who=$1
	shift
	$who "$rtcd" -i eth0 -S "$sock" open "$@" >/dev/null 2>&1 &
}
define() { sed -n "s/^#define $1[[:space:]]\+\([0-9]\+\).*/\1/p" "$2"; }
use_rttr() {
	send=$top/rttr/rttr-send
	[ -x "$send" ] || ktap_skip_all "rttr-send not built (make userspace)"
	export LD_LIBRARY_PATH=$top/rttr
}
sw_out=$dir/switch.out
fake_switch() {
	/usr/bin/python3 "$top/selftests/unit/fake_switch.py" eth0p "$@" >"$sw_out" 2>&1 &
	sw=$!
	wait_line "$sw_out" listening $sw
}
declare -A out opener
open_held() { # SECS DPORT[,BURST[,MAXPKT]]...
	local secs=$1 a p rest
	shift
	for a; do
		p=${a%%,*}
		rest=${a#"$p"}
		out[$p]=$dir/open.$p
		# A client that never hears from rtcd must not hang the test.
		timeout "$secs" "$rtcd" -i eth0 -S "$sock" open 10.0.0.2 "$p" 1mbit ${rest//,/ } \
			>"${out[$p]}" 2>&1 &
		opener[$p]=$!
	done
}
# What rtcd's own client would refuse to send, sent all the same.
ask() { # JSON [SOCKET [WHO]]
	${3:-} /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sys.argv[2]); s.send(sys.argv[1].encode()); print(s.recv(65536).decode())' \
		"$1" "${2:-$sock}"
}
# Until a connection to DPORT is there (root sees every one).
wait_conn() { # DPORT
	for _ in $(seq 40); do
		cli status | holds '.connections[] | select(.dport == $p)' --argjson p "$1" &&
			return 0
		sleep 0.05
	done
	return 1
}
