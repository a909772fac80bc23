# SPDX-License-Identifier: GPL-2.0
# librttr natively, with no switch behind it: in a network namespace of the
# caller's own (unshare -n), an eth0 that takes the proxy prefix and drops
# what it is given, and selftests/tools/fake_rtcd.py answering rtcd's
# socket. Source after ktap.sh. eth0 is a veth whose peer is down, which
# drops every frame and counts it (tx dropped), as a dummy device would:
# kernels without dummy have veth.
#
#   fake_link                   eth0, 10.0.0.1/24, 198.18.0.0/15 through it,
#                               03:09's proxy neighbour entry (as rtcd does)
#   fake_rtcd SOCK OUT [REPLY]  fake_rtcd.py on SOCK, what it prints to OUT;
#                               returns once it listens (FAKE_RTCD: its pid)
#   fake_rtcd_stop
#   fake_netns "$0" "$@"        the calling test run again, as root, in a
#                               network namespace of its own, with jq and
#                               the tree's librttr; skipped when it cannot be
#   fake_env NAME               in that namespace: fake_link, a scratch
#                               directory /tmp/NAME.* in $dir, rtcd's
#                               socket path in $sock; both go at exit

_fake_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

fake_link() {
	ip link set lo up &&
	ip link add eth0 type veth peer name eth0p &&
	ip addr add 10.0.0.1/24 dev eth0 &&
	ip link set eth0 up &&
	ip route add 198.18.0.0/15 dev eth0 &&
	ip neigh add 198.18.3.9 lladdr ff:ff:ff:ff:03:09 dev eth0 nud permanent
}

FAKE_RTCD=
fake_rtcd() {
	local sock=$1 out=$2
	shift 2
	# not an earlier one's "ready", nor its socket
	rm -f "$out" "$sock"
	"$_fake_top/selftests/tools/fake_rtcd.py" "$sock" "$@" >"$out" 2>&1 &
	FAKE_RTCD=$!
	wait_line "$out" '^ready' "$FAKE_RTCD"
}

fake_rtcd_stop() {
	[ -n "$FAKE_RTCD" ] || return 0
	kill "$FAKE_RTCD" 2>/dev/null
	wait "$FAKE_RTCD" 2>/dev/null
	FAKE_RTCD=
}

fake_netns() {
	[ "$(id -u)" = 0 ] || ktap_skip_all "needs root"
	command -v jq >/dev/null || ktap_skip_all "no jq"
	export LD_LIBRARY_PATH=$_fake_top/rttr
	[ -z "${FAKE_RTCD_NS:-}" ] || return 0
	unshare -n true 2>/dev/null || ktap_skip_all "cannot create a network namespace"
	exec unshare -n env FAKE_RTCD_NS=1 "$@"
}

fake_env() {
	dir=$(mktemp -d "/tmp/$1.XXXXXX") || ktap_skip_all "no scratch directory"
	sock=$dir/eth0.sock
	defer rm -rf "$dir"
	defer fake_rtcd_stop
	fake_link || ktap_skip_all "cannot make a dummy link"
}
