#!/bin/sh
# run.sh BUILD_DIR: runs every test suite against the binaries in BUILD_DIR
# and prints one closing line, "N passed, N failed".  Each suite prints its
# own "<suite>: N passed, N failed" line; a suite that dies without one
# counts as one failure.  Exits non-zero if anything failed.
set -u
build=${1:?usage: run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

passed=0
failed=0

# run_suite NAME CMD...: runs one suite, adds its counts to the totals.
run_suite() {
	name=$1
	shift
	"$@" >"$log" 2>&1
	status=$?
	cat "$log"
	line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed$" "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$name: no summary line (exit $status): counted as 1 failure"
		failed=$((failed + 1))
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed/\1/')
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: exit $status with no failed check: counted as 1 failure"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	suite=$(basename "$t" | sed 's/^test_//; s/_/-/g')
	run_suite "$suite" "$t"
done
run_suite http /usr/bin/python3 "$here/http/test_http.py" "$build/boardd"
run_suite live /usr/bin/python3 "$here/http/test_live.py" "$build/boardd"
run_suite players /usr/bin/python3 "$here/http/test_players.py" "$build/boardd"
run_suite games /usr/bin/python3 "$here/http/test_games.py" "$build/boardd"
run_suite quantum-cards-http /usr/bin/python3 "$here/http/test_quantum_cards.py" "$build/boardd"
run_suite break_review /usr/bin/python3 "$here/http/test_break_review.py" "$build/boardd"
run_suite idem /usr/bin/python3 "$here/http/test_idem.py" "$build/boardd"
run_suite webhooks /usr/bin/python3 "$here/http/test_webhooks.py" "$build/boardd"
run_suite abuse /usr/bin/python3 "$here/http/test_abuse.py" "$build/boardd"
run_suite framing /usr/bin/python3 "$here/http/test_framing.py" "$build/boardd"
run_suite faults /usr/bin/python3 "$here/http/test_faults.py" "$build/boardd"
run_suite properties-http /usr/bin/python3 "$here/http/test_properties.py" "$build/boardd"
run_suite bots-http /usr/bin/python3 "$here/http/test_bots.py" "$build/boardd"
run_suite contract /usr/bin/python3 "$here/http/test_contract.py" "$build/boardd"
run_suite limits-http /usr/bin/python3 "$here/http/test_limits.py" "$build/boardd"
run_suite clocks /usr/bin/python3 "$here/http/test_clocks.py" "$build/boardd"
run_suite notify /usr/bin/python3 "$here/http/test_notify.py" "$build/boardd"
run_suite lobby /usr/bin/python3 "$here/http/test_lobby.py" "$build/boardd"
run_suite display-http /usr/bin/python3 "$here/http/test_display.py" "$build/boardd"
run_suite ops /usr/bin/python3 "$here/http/test_ops.py" "$build/boardd"
run_suite history /usr/bin/python3 "$here/http/test_history.py" "$build/boardd"
run_suite records /usr/bin/python3 "$here/http/test_records.py" "$build/boardd"
# The spec through Redocly, swagger-parser and openapi-typescript (npm ci
# into tools/openapi-lint/node_modules on first use).
run_suite openapi-lint /bin/sh "$here/../tools/openapi-lint/lint.sh"
# The web client (web/): type-checked against the spec's generated types,
# then played in headless Chromium (npm ci into tests/web/node_modules and
# Debian's chromium on first use).
run_suite web /bin/sh "$here/web/run.sh" "$build/boardd"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
