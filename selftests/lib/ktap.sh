# SPDX-License-Identifier: GPL-2.0
# KTAP output for shell tests, in the manner of the kernel's kselftest.
#
#   ktap_begin N             header and plan
#   ktap_ok DESC / ktap_fail DESC [WHY] / ktap_skip DESC WHY
#   ktap_check DESC CMD...   ok when CMD succeeds, its output shown otherwise
#   ktap_explain DESC STATUS CMD...  ok when STATUS is 0, else CMD says why
#   ktap_end                 exit 0 (all passed), 1 (any failed), 4 (all skipped)
#   ktap_info MSG...         a diagnostic line
#   defer CMD...             run CMD at exit, last deferred first
#   wait_line FILE REGEX PID a process PID's FILE has a line matching REGEX
#                            (its "ready" or "listening"): slow 10 s at
#                            most; fails at once if PID exits
#   ktap_skip_all WHY        skip the whole test (exit 4)
#   ktap_once N DESC         N checks of what no kernel changes (stock
#                            qdiscs, userspace): true on make check's first
#                            kernel; on the others (ETHEREAL_SKIP_ONCE=1,
#                            from selftests/run --skip-once) false, the N
#                            reported skipped, as "# once" does for a test
#   slow N                   N times the kernel's slowness (ETHEREAL_SLOW,
#                            4 on a debug kernel, from selftests/run): for
#                            how long a test waits for something to happen,
#                            and how long its hosts may stall
#   machine_rate BITS        a rate the emulated machine's senders can offer:
#                            BITS on the supported kernels, BITS / slow on a
#                            debug kernel (it cannot generate 10 Mbit/s of
#                            datagrams); the timed tests run their links and
#                            flows at it, their assertions relative to it
#   holds [-s] FILTER [JQ-ARGS...] [FILE...]
#                            jq -e that needs JSON: 0 when there is input and
#                            FILTER's last output is neither false nor null,
#                            else 1 (no input, no output, a jq error); reads
#                            stdin without FILE, prints nothing but jq's
#                            errors; -s: FILTER of all inputs as one array
#                            (jq -s), false without input. jq 1.6's -e exits
#                            0 on empty input: a check of a crashed tool's
#                            missing JSON passed

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

_ktap_n=0
_ktap_plan=0
_ktap_pass=0
_ktap_fail=0
_ktap_skip=0
_ktap_deferred=()

ktap_info() { echo "# $*"; }

slow() { echo $(($1 * ${ETHEREAL_SLOW:-1})); }
machine_rate() { echo $(($1 / ${ETHEREAL_SLOW:-1})); }

# " # Ns" after a check that took 2 s or more since the one before: where a
# test spends its time (bash's SECONDS: no fork).
_ktap_t=0
_ktap_took() {
	local d=$((SECONDS - _ktap_t))
	_ktap_t=$SECONDS
	_ktap_dt=
	[ $d -ge 2 ] && _ktap_dt=" # ${d}s"
}

ktap_begin() {
	_ktap_plan=$1
	echo "TAP version 13"
	echo "1..$_ktap_plan"
}

ktap_ok() {
	_ktap_n=$((_ktap_n + 1)); _ktap_pass=$((_ktap_pass + 1))
	_ktap_took
	echo "ok $_ktap_n $1$_ktap_dt"
}

ktap_fail() {
	_ktap_n=$((_ktap_n + 1)); _ktap_fail=$((_ktap_fail + 1))
	[ -n "${2:-}" ] && ktap_info "$2"
	_ktap_took
	echo "not ok $_ktap_n $1$_ktap_dt"
}

ktap_skip() {
	_ktap_n=$((_ktap_n + 1)); _ktap_skip=$((_ktap_skip + 1))
	echo "ok $_ktap_n $1 # SKIP ${2:-}"
}

# ktap_result DESC STATUS [WHY]: ok when STATUS is 0.
ktap_result() {
	if [ "$2" -eq 0 ]; then ktap_ok "$1"; else ktap_fail "$1" "${3:-}"; fi
}

# Diagnostics that cost seconds (every counter on a path) only on failure.
ktap_explain() {
	local desc=$1 rc=$2
	shift 2
	if [ "$rc" -eq 0 ]; then ktap_ok "$desc"; else ktap_fail "$desc" "$("$@" 2>&1)"; fi
}

ktap_check() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ $rc -eq 0 ]; then
		ktap_ok "$desc"
	else
		[ -n "$out" ] && echo "$out" | sed 's/^/# /'
		ktap_fail "$desc" "command failed ($rc): $*"
	fi
}

# FILTER between newlines: a comment at its end ends there. jq takes its
# options after the program too (JQ-ARGS: --arg, --argjson, --slurpfile).
holds() {
	local f
	if [ "${1:-}" = -s ]; then
		f=$'[inputs] | length > 0 and ([(\n'"$2"$'\n)] | last | . != null and . != false)'
		shift
	else
		f=$'[inputs | (\n'"$1"$'\n)] | length > 0 and (last | . != null and . != false)'
	fi
	shift
	jq -n -e "$f" "$@" >/dev/null || return 1
}

ktap_once() {
	local i
	[ "${ETHEREAL_SKIP_ONCE:-0}" = 1 ] || return 0
	for ((i = 0; i < $1; i++)); do
		ktap_skip "$2" "run once per make check, on its first kernel"
	done
	return 1
}

ktap_skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

ktap_end() {
	if [ "$_ktap_n" -ne "$_ktap_plan" ]; then
		ktap_info "planned $_ktap_plan checks, ran $_ktap_n"
		_ktap_fail=$((_ktap_fail + 1))
	fi
	ktap_info "Totals: pass:$_ktap_pass fail:$_ktap_fail skip:$_ktap_skip"
	if [ "$_ktap_fail" -gt 0 ]; then exit $KSFT_FAIL; fi
	if [ "$_ktap_pass" -eq 0 ] && [ "$_ktap_skip" -gt 0 ]; then exit $KSFT_SKIP; fi
	exit $KSFT_PASS
}

wait_line() {
	local i
	for i in $(seq "$(slow 200)"); do
		grep -qs "$2" "$1" && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

defer() {
	_ktap_deferred+=("$(printf '%q ' "$@")")
}

_ktap_run_deferred() {
	local i
	for ((i = ${#_ktap_deferred[@]} - 1; i >= 0; i--)); do
		eval "${_ktap_deferred[i]}" >/dev/null 2>&1 || true
	done
	_ktap_deferred=()
}
trap _ktap_run_deferred EXIT
