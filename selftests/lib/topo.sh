# SPDX-License-Identifier: GPL-2.0
# Build test topologies from a short description.
#
#   topo_create "sw1:h1,h2,h3,h4"                  one switch, four hosts
#   topo_create "sw1:h1,h2 sw2 sw3:h3 sw1-sw2 sw2-sw3"  a chain of three
#
# Words: swS[:hA,hB,...] declares switch S and the hosts on its ports;
# swS-swT is a trunk link. Every name below is deterministic:
#
#   host hN     namespace et-hN, interface eth0, MAC 02:e7:00:00:00:NN,
#               IPv4 10.0.0.N/24
#   switch swS  namespace et-swS, bridge br0 (MAC 02:e7:SS:00:00:00)
#               port to hN:  swpN (MAC 02:e7:SS:01:00:NN)
#               port to swT: trkT (MAC 02:e7:SS:02:00:TT)
#
# After a test destroyed part of a topology, under load:
#   topo_bridge swS    swS's bridge again, over the ports it had
#   topo_host swS hN   hN again, on a new port of swS (deleting a port
#                      deletes the host's end of its veth)
#
# NN, SS and TT are the numbers in two hex digits. IPv6 is off everywhere so
# that no background traffic disturbs measurements. Settings, from the
# environment at topo_create time:
#   TOPO_OFFLOAD=off   turn checksum and segmentation offloads off on every
#                      veth, so that receivers really verify checksums
#   TOPO_STP=1         run the kernel STP on the bridges
#   TOPO_TXQ=N         give the switches' ports N TX queues (taprio needs
#                      one per traffic class: tc-configs/peer taprio)
# Everything is removed at exit, also when the test fails (lib/ktap.sh defer).

TOPO_NS_PREFIX=et-
_topo_ns=()

# Names and addresses with no fork (a $(...) costs ~40 ms under emulation):
# the _topo_* forms set variables, the public ones print them.
# _topo_names NODE PEER: port (NODE's port toward PEER) and mac (its MAC),
# set in the caller's locals.
_topo_names() {
	case "$2" in
	h*) port=swp${2##*[a-z]}; printf -v mac '02:e7:%02x:01:00:%02x' "${1##*[a-z]}" "${2##*[a-z]}" ;;
	sw*) port=trk${2##*[a-z]}; printf -v mac '02:e7:%02x:02:00:%02x' "${1##*[a-z]}" "${2##*[a-z]}" ;;
	*) echo "topo: bad peer '$2'" >&2; return 1 ;;
	esac
}
_topo_host_mac() { printf -v "$1" '02:e7:00:00:00:%02x' "${2##*[a-z]}"; }	# VAR hN
_topo_bridge_mac() { printf -v "$1" '02:e7:%02x:00:00:00' "${2##*[a-z]}"; }	# VAR swS

ns_of() { echo "$TOPO_NS_PREFIX$1"; }	# ns_of h1 -> et-h1
# on NODE CMD...: CMD in NODE's namespace. ip, tc and bridge enter it
# themselves (-n): under emulation every exec saved is ~70 ms, and tests
# run these thousands of times. No $(ns_of): a fork each.
on() {
	local ns=$TOPO_NS_PREFIX$1
	shift
	case $1 in
	ip|tc|bridge) "$1" -n "$ns" "${@:2}" ;;
	*) ip netns exec "$ns" "$@" ;;
	esac
}
# on_bg NODE CMD...: CMD in NODE's namespace in the background, with $! its
# own pid (ip netns exec execs it), so that kill stops it. "on NODE CMD &"
# would leave $! a subshell, whose kill orphans CMD: it went on sending
# into the next tests, and pinned what it held. CMD's stdin is /dev/null
# (a background command's): for a heredoc, "on NODE CMD <<EOF &".
on_bg() {
	local ns=$TOPO_NS_PREFIX$1
	shift
	ip netns exec "$ns" "$@" &
}
host_ip() { echo "10.0.0.${1##*[a-z]}"; }
host_mac() { local m; _topo_host_mac m "$1"; echo "$m"; }
bridge_mac() { local m; _topo_bridge_mac m "$1"; echo "$m"; }
# port_of swS X / port_mac swS X: swS's port toward host or switch X, its MAC
port_of() { local port mac; _topo_names "$1" "$2" && echo "$port"; }
port_mac() { local port mac; _topo_names "$1" "$2" && echo "$mac"; }

_topo_ns_add() {
	local ns=$TOPO_NS_PREFIX$1
	ip netns add "$ns" || return 1
	_topo_ns+=("$ns")
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
}

_topo_offload() { # ns dev
	[ "${TOPO_OFFLOAD:-on}" = off ] || return 0
	ip netns exec "$1" ethtool -K "$2" tx off rx off tso off gso off \
		gro off >/dev/null 2>&1
}

# _topo_bridge_cmds VAR SW: in VAR, ip -batch's commands for SW's bridge
_topo_bridge_cmds() {
	local mac
	_topo_bridge_mac mac "$2"
	printf -v "$1" '%s\n' \
		"link add br0 address $mac type bridge stp_state ${TOPO_STP:-0} forward_delay 400" \
		"link set br0 up"
}

_topo_switch() {
	local sw=$1 ns=$TOPO_NS_PREFIX$1 br
	[ -e "/run/netns/$ns" ] && return 0
	_topo_ns_add "$sw" || return 1
	_topo_bridge_cmds br "$sw"
	ip -n "$ns" -batch - <<<"link set lo up
$br"
}

topo_bridge() {
	local ns=$TOPO_NS_PREFIX$1 br ports
	_topo_bridge_cmds br "$1"
	# its ports: every veth of the switch
	ports=$(ip -n "$ns" -o link show type veth | awk -F'[:@ ]+' '{ print "link set " $2 " master br0" }')
	ip -n "$ns" -batch - <<<"$br$ports"
}

topo_host() {
	ip netns del "$TOPO_NS_PREFIX$2" 2>/dev/null
	_topo_host "$1" "$2"
}

_topo_host() { # sw host
	local sw=$1 h=$2 sns=$TOPO_NS_PREFIX$1 hns=$TOPO_NS_PREFIX$2 port mac hmac
	_topo_names "$sw" "$h" || return 1
	_topo_host_mac hmac "$h"
	_topo_ns_add "$h" || return 1
	ip -n "$sns" -batch - <<-EOF || return 1
		link add $port address $mac numtxqueues ${TOPO_TXQ:-1} type veth peer name eth0 netns $hns address $hmac
		link set $port master br0 up
	EOF
	ip -n "$hns" -batch - <<-EOF
		link set lo up
		addr add 10.0.0.${h##*[a-z]}/24 brd + dev eth0
		link set eth0 up
	EOF
	_topo_offload "$sns" "$port"
	_topo_offload "$hns" eth0
}

_topo_trunk() { # swA swB
	local a=$1 b=$2 port mac pa ma
	_topo_names "$a" "$b" || return 1
	pa=$port; ma=$mac
	_topo_names "$b" "$a" || return 1
	ip -n "$TOPO_NS_PREFIX$a" link add "$pa" address "$ma" numtxqueues "${TOPO_TXQ:-1}" \
		type veth peer name "$port" netns "$TOPO_NS_PREFIX$b" address "$mac" \
		numtxqueues "${TOPO_TXQ:-1}" || return 1
	ip -n "$TOPO_NS_PREFIX$a" link set "$pa" master br0 up
	ip -n "$TOPO_NS_PREFIX$b" link set "$port" master br0 up
	_topo_offload "$TOPO_NS_PREFIX$a" "$pa"
	_topo_offload "$TOPO_NS_PREFIX$b" "$port"
}

topo_create() {
	local word sw hosts h
	defer topo_destroy
	for word in $*; do
		case "$word" in
		sw*-sw*)
			_topo_switch "${word%%-*}" && _topo_switch "${word#*-}" &&
				_topo_trunk "${word%%-*}" "${word#*-}" || return 1
			;;
		sw*)
			sw=${word%%:*}
			_topo_switch "$sw" || return 1
			[ "$word" = "$sw" ] && continue
			hosts=${word#*:}
			for h in ${hosts//,/ }; do
				_topo_host "$sw" "$h" || return 1
			done
			;;
		*) echo "topo_create: bad word '$word'" >&2; return 1 ;;
		esac
	done
}

topo_destroy() {
	local ns
	for ns in "${_topo_ns[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	_topo_ns=()
}

# topo_hosts: all hosts created, one per line
topo_hosts() {
	local ns
	for ns in "${_topo_ns[@]}"; do
		case "$ns" in "${TOPO_NS_PREFIX}h"*) echo "${ns#"$TOPO_NS_PREFIX"}" ;; esac
	done
}

# topo_switch_cpu SW...: the switches on a CPU of their own, as on a real
# network: RPS steers what arrives at every port of SW to the last CPU, and
# the script, with every host program it starts from then on, is pinned to
# CPU 0. Does nothing on one CPU.
topo_switch_cpu() {
	local sw last
	[ "$(nproc --all)" -ge 2 ] || return 0
	last=$(($(nproc --all) - 1))
	for sw in "$@"; do
		on "$sw" sh -c "for p in /sys/class/net/br0/brif/*; do
			printf %x $((1 << last)) >/sys/class/net/\${p##*/}/queues/rx-0/rps_cpus || exit 1
		done" || return 1
	done
	taskset -p -c 0 $BASHPID >/dev/null
}
