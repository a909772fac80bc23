# SPDX-License-Identifier: GPL-2.0
# Waiting for an effect in the VM tests. Source after ktap.sh (slow).
# No bench scenario sources it (bench/commit leaves it out of the stamp).
#
#   eventually N CMD...
#        run CMD every 50 ms until it succeeds, at most N times (scaled
#        by slow); CMD's last status. For an expected effect (a counter
#        that rises, a route that goes) instead of a fixed sleep, which a
#        stall of the emulated machine can outlast. Only a check that
#        nothing happens needs a fixed wait.

eventually() {
	local i n
	n=$(slow "$1")
	shift
	for ((i = 1; ; i++)); do
		"$@" && return 0
		((i < n)) || return 1
		sleep 0.05
	done
}
