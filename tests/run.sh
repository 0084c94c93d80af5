#!/bin/bash
# run.sh BUILD_DIR [SQLITE_BUILD_DIR]: runs every test suite against the
# binaries in BUILD_DIR, the SQLite pass of the HTTP suites against those
# in SQLITE_BUILD_DIR (default BUILD_DIR; make test gives its UBSan-only
# build, the Makefile says why), and prints one closing line, "N passed,
# N failed".  Each suite prints its own "<suite>: N passed, N failed"
# line; a suite that dies without one counts as one failure.  Exits
# non-zero if anything failed.
#
# Suites run BOARDD_TEST_JOBS at a time (default 4), and beside them up to
# BOARDD_TEST_WAITING_JOBS (default 2; 0: none beside) of those that
# mostly wait (below, start_queued): each has its own
# servers (--port 0), temporary files and PostgreSQL databases, and most
# of their time is spent waiting (timeouts, streams, restarts), so the
# run takes about a third of the time one at a time took.  Each suite's
# output is kept apart and printed whole, in the order the suites were
# started, as soon as it and every suite before it have ended.
# nodes-faults, which restarts its cluster, has a cluster of its own.
set -u
build=${1:?usage: run.sh BUILD_DIR [SQLITE_BUILD_DIR]}
sqlite_build=${2:-$build}
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
outdir=$(mktemp -d)
jobs_max=${BOARDD_TEST_JOBS:-4}
# One throw-away PostgreSQL cluster for the whole run (tests/pg/cluster.sh),
# stopped on exit: BOARDD_TEST_PG, its superuser connection string, is
# exported to every suite (the PostgreSQL unit tests and the -pg pass).
# A second one is nodes-faults' own: it restarts its cluster and stops
# its backends, so it runs beside the others on a cluster none of them use.
pgparent=$(sh "$here/pg/cluster.sh" parent) # /dev/shm: cluster.sh says why
pgdir=$(mktemp -d "$pgparent/boardd-pg.XXXXXX")
pgdir_faults=$pgparent/boardd-pg.none # made once the first cluster runs
# Every suite's temporary files (its servers' SQLite files and keys, the
# browsers' profiles, the harness's) in a directory of this run's own,
# beside the cluster and for the same reason: on this machine's ext4 each
# new file cost the kernel's inode allocator a search (test_ops.py, test_http.py
# 4-7 % less CPU in memory; tests/README.md, "make test's time").
# Mode 1777 as /tmp's: the cluster's tools run as the postgres user.
# Named after this run's pid: a run killed by SIGKILL cannot remove its
# own, which in /dev/shm holds memory until a reboot, so the next run
# removes those whose run is gone (as cluster.sh start its clusters).
for d in "$pgparent"/boardd-tests.[0-9]*.*; do
	pid=${d##*/boardd-tests.}
	pid=${pid%%.*}
	case $pid in '' | *[!0-9]*) continue ;; esac
	[ -d "$d" ] && [ ! -d "/proc/$pid" ] && rm -rf "$d" 2>/dev/null # another user's: not ours to remove
done
TMPDIR=$(mktemp -d "$pgparent/boardd-tests.$$.XXXXXX") && chmod 1777 "$TMPDIR"
export TMPDIR
# On exit, the suites still running (each a subshell and its suite) end
# first.
stop_suites() {
	for job in $(jobs -p); do
		pkill -TERM -P "$job" 2>/dev/null
		kill "$job" 2>/dev/null
	done
	wait
}
trap 'stop_suites; sh "$here/pg/cluster.sh" stop "$pgdir"; sh "$here/pg/cluster.sh" stop "$pgdir_faults"; rm -rf "$log" "$outdir" "$TMPDIR"' EXIT
trap 'exit 130' INT TERM HUP # through the EXIT trap: the cluster stops

passed=0
failed=0
# busy_ticks: the machine's CPU time in use (user, nice, system, irq,
# softirq; /proc/stat's first line, in clock ticks) since it started.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat; }
busy_at_start=$(busy_ticks)

if BOARDD_TEST_PG=$(BOARDD_PG_OWNER=$$ sh "$here/pg/cluster.sh" start "$pgdir" 2>"$log"); then
	export BOARDD_TEST_PG
else
	cat "$log"
	echo "pg-cluster: no PostgreSQL cluster: counted as 1 failure; the -pg suites do not run"
	failed=1
	unset BOARDD_TEST_PG
fi
pg_faults=
if [ -n "${BOARDD_TEST_PG:-}" ]; then
	if pgdir_faults=$(mktemp -d "$pgparent/boardd-pg.XXXXXX") &&
		pg_faults=$(BOARDD_PG_OWNER=$$ sh "$here/pg/cluster.sh" start "$pgdir_faults" 2>"$log"); then
		:
	else
		cat "$log"
		echo "pg-cluster: no second PostgreSQL cluster: counted as 1 failure; nodes-faults does not run"
		failed=$((failed + 1))
		pg_faults=
	fi
fi

# count_suite NAME STATUS OUTPUT: prints one suite's output and adds its
# counts to the totals.
count_suite() {
	local name=$1 status=$2 line p f
	cat "$3"
	line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed$" "$3" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$name: no summary line (exit $status): counted as 1 failure"
		echo "$name: no summary line (exit $status); its last line: $(tail -n 1 "$3" | cut -c1-200)" >>"$outdir/failures"
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
	# the failed checks again at the end, where a cut log still shows them
	[ "$f" -eq 0 ] || grep -E "^FAIL|FAILED|^Traceback" "$3" | head -n 5 |
		cut -c1-240 | sed "s/^/$name: /" >>"$outdir/failures"
}

# timed NAME OUT CMD...: runs CMD with its output in OUT and returns its
# status; appends "NAME WALL CPU" (seconds: wall clock, and user+sys of CMD
# and every process it waited for, boardd servers included; PostgreSQL's
# own backends are not) to $outdir/times.  Called in a subshell of its own.
timed() {
	local name=$1 out=$2 start rc
	shift 2
	start=$EPOCHREALTIME
	"$@" >"$out" 2>&1 </dev/null
	rc=$?
	# times (in this shell: a pipe would run it in a child, whose
	# children's times are zero): line 2 is the children's user and sys
	# time, "1m2.345s 0m0.678s"
	times >"$out.times"
	sed -n 2p "$out.times" | awk -v n="$name" -v s="$start" -v e="$EPOCHREALTIME" '
		function sec(t) { split(t, a, /[ms]/); return a[1] * 60 + a[2] }
		{ printf "%s %.1f %.1f\n", n, e - s, sec($1) + sec($2) }' \
		>>"$outdir/times"
	rm -f "$out.times"
	return $rc
}

# start_suite NAME CMD...: starts one suite in the background at once;
# its output goes to $outdir/NAME.out, its exit status to $outdir/NAME.rc
# (written as it ends: a started suite without one is still running,
# unless its subshell is gone, killed before it wrote it: ended below).
started=()
declare -A started_pid=()
start_suite() {
	local name=$1
	shift
	(timed "$name" "$outdir/$name.out" "$@"
	 echo $? >"$outdir/$name.rc.tmp" && mv "$outdir/$name.rc.tmp" "$outdir/$name.rc") &
	started+=("$name")
	started_pid[$name]=$!
}

# ended NAME: whether started suite NAME has ended: its status written, or
# its subshell gone without writing it (a SIGKILL), which would otherwise
# hold its place in start_queued forever and stop print_ended before it.
ended() {
	[ -f "$outdir/$1.rc" ] || [ ! -d "/proc/${started_pid[$1]}" ]
}

# print_ended: counts the started suites that have ended, in the order
# they were started, up to the first one still running.
printed=0
print_ended() {
	local name
	while [ "$printed" -lt "${#started[@]}" ]; do
		name=${started[$printed]}
		ended "$name" || return 0
		[ -f "$outdir/$name.rc" ] || {
			echo "$name: its subshell was killed before it wrote the suite's exit status"
			echo 1 >"$outdir/$name.rc"
		}
		count_suite "$name" "$(cat "$outdir/$name.rc")" "$outdir/$name.out"
		printed=$((printed + 1))
	done
}

# wait_all: waits for every started suite and counts them all.
wait_all() {
	wait
	print_ended
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# queue_suite NAME CMD...: adds a suite to the list; start_queued starts
# them all, the longest first.
queued_names=()
queued_cmds=()
queue_suite() {
	queued_names+=("$1")
	shift
	queued_cmds+=("$(printf '%q ' "$@")")
}

# Two kinds of suite by tests/suite-times.txt ("name wall cpu", a run's
# BOARDD_TEST_TIMES): a waiting one, whose CPU time was under a fifth of
# its wall time (clocks, notify, webhooks, nodes, ...: deadlines,
# restarts, receivers), and a working one (any other, and one the file
# does not name). jobs_max working suites run at once, and beside them
# light_max waiting ones, which would otherwise hold a working suite's
# place while the cores idle (the run of 455302f: 508 s of the 1,561 s
# the suites ran were waiting suites', 70 s of CPU; tests/README.md,
# "make test's time").  BOARDD_TEST_WAITING_JOBS=0: no places of their
# own, every suite takes a working one (BOARDD_TEST_JOBS=1 with it: one
# suite at a time).
light_max=${BOARDD_TEST_WAITING_JOBS:-2}
[ "$jobs_max" -ge 1 ] || jobs_max=1
[ "$light_max" = 0 ] || [ "$light_max" -ge 1 ] || light_max=1
declare -A waiting=()
# a line without both numbers (a blank one, a name alone) names no kind
[ "$light_max" = 0 ] || for name in $(awk '
	$2 ~ /^[0-9]+(\.[0-9]*)?$/ && $3 ~ /^[0-9]+(\.[0-9]*)?$/ && $3 < $2 / 5 { print $1 }' \
	"$here/suite-times.txt" 2>/dev/null); do
	waiting[$name]=1
done

# count_running: sets working_now and waiting_now, how many started
# suites of each kind have not ended; once per look of start_queued,
# which starts at most one suite a look.
count_running() {
	local name
	working_now=0
	waiting_now=0
	for name in "${started[@]}"; do
		ended "$name" && continue
		if [ -n "${waiting[$name]:-}" ]; then
			waiting_now=$((waiting_now + 1))
		else
			working_now=$((working_now + 1))
		fi
	done
}

# room NAME: whether NAME's kind has a free place (by count_running's
# counts).
room() {
	if [ -n "${waiting[$1]:-}" ]; then
		[ "$waiting_now" -lt "$light_max" ]
	else
		[ "$working_now" -lt "$jobs_max" ]
	fi
}

# start_queued: starts the queued suites, the longest first by
# tests/suite-times.txt: a long suite started late outlasts the rest of
# the run, two cores finishing it alone (tests/README.md, "make test's
# time"); suites the file does not name follow in the order they were
# queued. Each time a place is free, the first suite of its kind in that
# order starts; with no place free, it waits for a suite to end.
start_queued() {
	local i name order pending=() rest launched
	order=$( (sort -k2,2nr "$here/suite-times.txt" 2>/dev/null | awk '{ print $1 }'
		printf '%s\n' "${queued_names[@]}") | awk '!seen[$0]++')
	for name in $order; do
		for i in "${!queued_names[@]}"; do
			[ "${queued_names[$i]}" = "$name" ] && pending+=("$i") && break
		done
	done
	while [ "${#pending[@]}" -gt 0 ]; do
		count_running
		rest=()
		launched=0
		for i in "${pending[@]}"; do
			if [ "$launched" -eq 0 ] && room "${queued_names[$i]}"; then
				eval "start_suite \"\${queued_names[\$i]}\" ${queued_cmds[$i]}"
				launched=1
			else
				rest+=("$i")
			fi
		done
		pending=(${rest[@]+"${rest[@]}"})
		if [ "$launched" -eq 0 ]; then
			wait -n
			print_ended
		fi
	done
}

# Every tests/unit/test_*.c is one suite, test_cases among them: the rule
# cases of tests/cases/<game>/*.json, read by that one runner (suite
# "cases").
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	suite=$(basename "$t" | sed 's/^test_//; s/_/-/g')
	queue_suite "$suite" "$t"
done
# Layers call down: no two files of a layer's folder use each other both
# ways (tests/callgraph.py over the objects just built; the pairs not yet
# undone are listed in tests/callgraph-known.txt).
queue_suite callgraph /usr/bin/python3 "$here/callgraph.py" "$build"
# The harness's own stream reader (tests/http/streams.py), cut at every
# byte offset: every HTTP suite reads its streams with it.
queue_suite streams /usr/bin/python3 "$here/http/test_streams.py" "$build/boardd"
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
compression test_compression.py
limits-http test_limits.py
clocks test_clocks.py
notify test_notify.py
lobby test_lobby.py
display-http test_display.py
ops test_ops.py
deploy test_deploy.py
history test_history.py
records test_records.py
chat test_chat.py
rematch test_rematch.py
seeks test_seeks.py
push-http test_push.py
mail test_mail.py
vacation test_vacation.py
admin test_admin.py
ratings test_ratings.py
"

# The suites whose SQLite pass runs against BUILD_DIR all the same: faults'
# checks are SQLite's own (a full disk, a file size limit, the file
# unlinked or replaced), skipped on PostgreSQL, so that the error paths
# they reach above the store are under ASan in make test.
asan_sqlite=" faults "

# http_pass SUFFIX DIR: runs every HTTP suite once against DIR/boardd (or
# BUILD_DIR's, for asan_sqlite's), its name followed by SUFFIX.
http_pass() {
	local suffix=$1 dir=$2 d
	set -f
	# shellcheck disable=SC2086 # word splitting into name/script pairs
	set -- $http_suites
	set +f
	while [ $# -ge 2 ]; do
		d=$dir
		case "$asan_sqlite" in *" $1$suffix "*) d=$build ;; esac
		queue_suite "$1$suffix" env ${backend:+BOARDD_TEST_BACKEND=$backend} \
			/usr/bin/python3 "$here/http/$2" "$d/boardd"
		shift 2
	done
}

backend=
http_pass "" "$sqlite_build"
# The same suites on PostgreSQL: a database of their own per harness.Server.
if [ -n "${BOARDD_TEST_PG:-}" ]; then
	backend=postgres
	http_pass -pg "$build"
fi
# src/rating against npm's glicko2 and openskill (tests/rating/: npm ci
# into tests/rating/node_modules on first use).
queue_suite rating-oracle /bin/sh "$here/rating/run.sh" "$build/rating/rating_cli"
# The spec through Redocly, swagger-parser and openapi-typescript (npm ci
# into tools/openapi-lint/node_modules on first use).
queue_suite openapi-lint /bin/sh "$here/../tools/openapi-lint/lint.sh"
# The web client (web/): type-checked against the spec's generated types,
# then played in headless Chromium (npm ci into tests/web/node_modules and
# Debian's chromium on first use).
queue_suite web /bin/sh "$here/web/run.sh" "$build/boardd"
if [ -n "${BOARDD_TEST_PG:-}" ]; then
	# Two nodes on one database (PostgreSQL only): it kills a node of its
	# own under load.
	queue_suite nodes /usr/bin/python3 "$here/http/test_nodes.py" "$build/boardd"
fi
if [ -n "$pg_faults" ]; then
	# ... and when things go wrong, on the second cluster, which it
	# restarts (BOARDD_PG_DIR, for pg_ctl).
	queue_suite nodes-faults env BOARDD_TEST_PG="$pg_faults" BOARDD_PG_DIR="$pgdir_faults" \
		/usr/bin/python3 "$here/http/test_nodes_faults.py" "$build/boardd"
fi
start_queued
wait_all
# pg_ticks: the test cluster's CPU time so far (its postmaster and the
# backends that have ended, /proc/PID/stat's utime, stime, cutime and
# cstime, in clock ticks): the suites' times do not hold it.
pg_ticks() {
	local pid
	pid=$(head -n 1 "$pgdir/data/postmaster.pid" 2>/dev/null) &&
		awk '{ sub(/.*\) /, ""); print $12 + $13 + $14 + $15 }' "/proc/$pid/stat" 2>/dev/null
}
[ -z "${BOARDD_TEST_PG:-}" ] || pg_cpu=$(pg_ticks)

# The ten suites that took longest, and the sums, for whoever makes the run
# faster (tests/README.md, "make test's time").
echo "slowest suites (wall s, cpu s = user+sys of the suite and its servers):"
sort -k2,2nr "$outdir/times" | head -n 10 | awk '{ printf "  %-24s %7.1f %7.1f\n", $1, $2, $3 }'
awk '{ c += $3 } END { printf "suites: %d, cpu %.1f s in all; run wall %d s\n", NR, c, '"$SECONDS"' }' "$outdir/times"
# What the suites' times leave out: the PostgreSQL cluster's CPU (the
# first one's), and the whole machine's, whatever else ran beside the run
# (tests/README.md, "make test's time").
tick=$(getconf CLK_TCK)
[ -z "${pg_cpu:-}" ] || echo "PostgreSQL cluster: cpu $((pg_cpu / tick)) s (its postmaster and the backends that ended)"
echo "machine: cpu $((($(busy_ticks) - busy_at_start) / tick)) s busy of $((SECONDS * $(nproc))) s on $(nproc) cores"
# BOARDD_TEST_TIMES=FILE keeps every suite's line.
[ -z "${BOARDD_TEST_TIMES:-}" ] || cp "$outdir/times" "$BOARDD_TEST_TIMES"
if [ -s "$outdir/failures" ]; then
	echo "failed checks (the first 5 lines of each suite's):"
	sed 's/^/  /' "$outdir/failures"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
