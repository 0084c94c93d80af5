#!/bin/sh
# run.sh BUILD_DIR: runs every test suite against the binaries in BUILD_DIR
# and prints one closing line, "N passed, N failed".  Each suite prints its
# own "<suite>: N passed, N failed" line; a suite that dies without one
# counts as one failure.  Exits non-zero if anything failed.
set -u
build=${1:?usage: run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
# One throw-away PostgreSQL cluster for the whole run (tests/pg/cluster.sh),
# stopped on exit: BOARDD_TEST_PG, its superuser connection string, is
# exported to every suite (the PostgreSQL unit tests and the -pg pass).
pgdir=$(mktemp -d /tmp/boardd-pg.XXXXXX)
trap 'sh "$here/pg/cluster.sh" stop "$pgdir"; rm -f "$log"' EXIT
trap 'exit 130' INT TERM HUP # through the EXIT trap: the cluster stops

passed=0
failed=0

if BOARDD_TEST_PG=$(BOARDD_PG_OWNER=$$ sh "$here/pg/cluster.sh" start "$pgdir" 2>"$log"); then
	export BOARDD_TEST_PG
else
	cat "$log"
	echo "pg-cluster: no PostgreSQL cluster: counted as 1 failure; the -pg suites do not run"
	failed=1
	unset BOARDD_TEST_PG
fi

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
# The HTTP suites, "name script" a line: run on SQLite, then again on
# PostgreSQL as <name>-pg (the harness's BOARDD_TEST_BACKEND=postgres).
http_suites="
http test_http.py
live test_live.py
players test_players.py
games test_games.py
quantum-cards-http test_quantum_cards.py
break_review test_break_review.py
idem test_idem.py
webhooks test_webhooks.py
abuse test_abuse.py
framing test_framing.py
faults test_faults.py
properties-http test_properties.py
bots-http test_bots.py
contract test_contract.py
limits-http test_limits.py
clocks test_clocks.py
notify test_notify.py
lobby test_lobby.py
display-http test_display.py
ops test_ops.py
history test_history.py
records test_records.py
"

# http_pass SUFFIX: runs every HTTP suite once, its name followed by SUFFIX.
http_pass() {
	suffix=$1
	set -f
	# shellcheck disable=SC2086 # word splitting into name/script pairs
	set -- $http_suites
	set +f
	while [ $# -ge 2 ]; do
		run_suite "$1$suffix" /usr/bin/python3 "$here/http/$2" "$build/boardd" </dev/null
		shift 2
	done
}

http_pass ""
# The same suites on PostgreSQL: a database of their own per harness.Server.
if [ -n "${BOARDD_TEST_PG:-}" ]; then
	BOARDD_TEST_BACKEND=postgres
	export BOARDD_TEST_BACKEND
	http_pass -pg
	unset BOARDD_TEST_BACKEND
	# Two nodes on one database (PostgreSQL only).
	run_suite nodes /usr/bin/python3 "$here/http/test_nodes.py" "$build/boardd" </dev/null
	# ... and when things go wrong (it restarts the cluster: last)
	BOARDD_PG_DIR=$pgdir
	export BOARDD_PG_DIR
	run_suite nodes-faults /usr/bin/python3 \
		"$here/http/test_nodes_faults.py" "$build/boardd" </dev/null
fi
# The spec through Redocly, swagger-parser and openapi-typescript (npm ci
# into tools/openapi-lint/node_modules on first use).
run_suite openapi-lint /bin/sh "$here/../tools/openapi-lint/lint.sh"
# The web client (web/): type-checked against the spec's generated types,
# then played in headless Chromium (npm ci into tests/web/node_modules and
# Debian's chromium on first use).
run_suite web /bin/sh "$here/web/run.sh" "$build/boardd"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
