# SPDX-License-Identifier: GPL-2.0
# settle: wait, 10 s at most, until the CPUs were 80% idle over half a
# second; SETTLED the seconds it waited. The kernel tears a test's or a
# bench scenario's namespaces down in the background after it ends
# (seconds of CPU under TCG): what comes next, maybe timed, must not start
# its first measurement on top of that; nor wait longer than it takes.
# Used by selftests/run between tests and bench/run between scenarios.
# shellcheck shell=bash

_settle_jiffies() { # -> idle and total jiffies, all CPUs
	local cpu user nice sys idle iowait irq softirq steal rest
	read -r cpu user nice sys idle iowait irq softirq steal rest </proc/stat
	_settle_idle=$((idle + iowait))
	_settle_total=$((user + nice + sys + idle + iowait + irq + softirq + steal))
}
settle() {
	local i i0 t0 start=$SECONDS
	for ((i = 0; i < 20; i++)); do
		_settle_jiffies; i0=$_settle_idle; t0=$_settle_total
		sleep 0.5
		_settle_jiffies
		[ $((_settle_total - t0)) -gt 0 ] &&
			[ $(((_settle_idle - i0) * 100 / (_settle_total - t0))) -ge 80 ] && break
	done
	SETTLED=$((SECONDS - start))
}
