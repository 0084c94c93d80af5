#!/bin/sh
# bench.sh BUILD_DIR: the figures `make bench` prints (tests/README.md,
# "## make bench").  Speed is never asserted: this exits non-zero only when
# a figure could not be measured (a tool missing, the server not starting,
# answers that were errors).
#
# 0. The reference: bench/ref_server, libmicrohttpd alone answering a fixed
#    60-byte JSON body, run exactly as boardd runs it (same threads, same
#    pinning), measured with wrk first and again last.  Every figure of the
#    summary is printed with its ratio to the reference (the mean of its two
#    measurements): a rate divided by the reference's req/s, a p50 or p99
#    divided by the reference's p50 or p99, any other time divided by the
#    time of one reference request (1 / its req/s).  A ratio of 0.7 for a
#    GET means boardd answers 70% as many requests as bare libmicrohttpd.
# 1. bench/bench_engine: Agent Avenue in process; then, for every game,
#    random playouts through the native interface and the JSON path
#    ("playouts GAME N games/s", "playouts-json GAME N games/s"), moves/s,
#    MCTS iterations/s, and the replay time of a 1,000-move Quantum log.
# 1b. bench/bench_log: what a game's reads cost at 1,000 and 100,000 moves
#    (cold load, the full replay it replaced, a /moves page, an /events
#    resume), in process on a tmpfs (BENCH_LOG_MOVES sets the sizes).
# 2. The release server on a loopback port with a temp database:
#    GET /v1/games/{id} (Agent Avenue as a seat and as a spectator, its
#    actions, If-None-Match -> 304, a Quantum game as a seat) and
#    GET /v1/catalog with wrk, the long-poll wake-up time, then POST moves
#    with bench/bench_http, with --sync normal and once more with --sync
#    full (rate limits off: one client posting as fast as it can is a
#    flood); then POST /v1/games (creates) with --sync full.  Both write
#    figures use 64 clients on distinct games (issue 13's durable writes).
# 3. GET /healthz and GET /v1/games/{id} while one address asks for ten
#    times its stream budget and 500 other streams are open
#    (bench/stream_flood.py), and the same two without that load.
# 4. How long 10,000 timed games whose deadlines fall in the same second
#    take to be played out by the clock scheduler (bench/clock_flood.py).
# 5. Webhook deliveries per second to a local receiver
#    (bench/bench_webhooks.py).
# BENCH_QUICK=1 leaves out 3-5 (the stream flood, the clock flood and the
# webhooks: minutes, and not about the read and write paths);
# 7. Scale, in process (bench/bench_scale.c): BENCH_SCALE_GAMES (100,000)
#    games in progress resident in memory (RSS per game, p50/p99 of hot
#    reads), and a database of BENCH_SCALE_DB (1,000,000) games written by
#    direct SQL (p50/p99 of the listings, my games, my turn), and a
#    leaderboard of BENCH_SCALE_DB ratings (p50/p99 of its top page, any
#    page and a player's rank; issue 33 goal 4: 10 ms at p99).  7b: the
#    same RSS per resident game measured on a real boardd over HTTP
#    (bench/resident_memory.py): the average over the first
#    BENCH_RSS_FIRST (10,000) games and the marginal cost over
#    BENCH_RSS_NEXT (30,000) more, with one answer cached per game and
#    with all five (both seats' views and actions, a spectator's).
# 8. Two boardd nodes on one PostgreSQL database (a throw-away cluster of
#    tests/pg/cluster.sh, stopped on exit) against one node on SQLite
#    (--sync full: PostgreSQL commits durably too, BOARDD_PG_FSYNC=on): GET /v1/games/{id} as a
#    seat, mid-game, and POST moves, the clients split evenly over the two
#    nodes (two wrk of half the connections each; one bench_http whose
#    connections alternate between the ports), with each two-node figure's
#    ratio to the SQLite one; then how soon a long-poll on node b is
#    answered by a move posted to node a (median and max over 40 rounds,
#    tests/bench/longpoll_wake.py; issue 15's goal: 100 ms).  The
#    PostgreSQL server is pinned with boardd to the server cores, so both
#    sides get the same CPU.
# BENCH_LOG_MOVES=none leaves out 1b.  BENCH_ONLY=writes runs the
# reference (first and last) and the --sync full write figures only;
# BENCH_ONLY=scale the reference and 7 only; BENCH_ONLY=nodes the
# reference and 8 only.
# Server and load generator are pinned to different cores with taskset
# when there are 2 or more; every figure is a warm-up then the median of
# 3 runs.  BENCH_SECONDS sets the length of one measured run (default 3).
set -eu
build=${1:?usage: bench.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
run_secs=${BENCH_SECONDS:-3}
warm_secs=2
conns=32 # connections of wrk (issue 13 measured with wrk -t1 -c32)
writers=64 # connections of bench_http: 64 clients on distinct games
get_moves=10 # moves played into the game the GETs read

die() {
	echo "bench: $*" >&2
	exit 1
}

needed="boardd bench/bench_http"
[ -n "${BENCH_ONLY:-}" ] || needed="$needed bench/bench_engine"
[ "${BENCH_ONLY:-scale}" != scale ] || needed="$needed bench/bench_scale"
for f in $needed; do
	[ -x "$build/$f" ] || die "$build/$f is missing (run make bench)"
done

# wrk: only the benchmark needs it (tools/deps.sh group bench).
command -v wrk >/dev/null 2>&1 || "$here/../tools/deps.sh" bench ||
	die "wrk is missing; run as root or apt-get install wrk"
[ -x "$build/bench/ref_server" ] ||
	die "$build/bench/ref_server is missing (run make bench)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boardd-bench.XXXXXX")
summary="$tmp/summary"
: >"$summary"
server_pid=""
node_pids="" # section 8's second node
pgdir=""     # section 8's PostgreSQL cluster
cleanup() {
	for p in $server_pid $node_pids; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	[ -z "$pgdir" ] || sh "$here/pg/cluster.sh" stop "$pgdir" || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Pinning: the server gets every core but the last (one worker thread per
# core), the load generators the last one.
ncpu=$(nproc 2>/dev/null || echo 1)
if [ "$ncpu" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
	last=$((ncpu - 1))
	srv_cpus="0-$((last - 1))"
	[ "$last" -eq 1 ] && srv_cpus=0
	srv_pin="taskset -c $srv_cpus"
	load_pin="taskset -c $last"
	threads=$last
	pinning="server on cpu $srv_cpus ($threads worker thread(s)), load generator on cpu $last"
else
	srv_pin=""
	load_pin=""
	threads=$ncpu
	pinning="not pinned (1 cpu): server and load generator share it"
fi

# start_server SYNC [FLAGS...]: boardd on a free loopback port with a fresh
# database.  start_server ref: the reference server instead.
# start_server pg-NAME DB [FLAGS...]: boardd node NAME on database DB (a
# PostgreSQL one: section 8), --sync full.  Each picks its own port
# (--port 0) and prints it; $port is what it printed.
start_server() {
	log="$tmp/server-$1.log"
	sync=$1
	shift
	db="$tmp/bench-$sync.db"
	case $sync in
	pg-*)
		db=$1
		sync=full
		shift
		;;
	esac
	if [ "$sync" = ref ]; then
		$srv_pin "$build/bench/ref_server" --port 0 --threads "$threads" \
			2>"$log" &
	else
		$srv_pin "$build/boardd" --addr 127.0.0.1 --port 0 \
			--db "$db" --sync "$sync" --quiet \
			--threads "$threads" "$@" 2>"$log" &
	fi
	server_pid=$!
	await_port
}

# await_port: waits until the server $server_pid wrote "listening on" into
# $log; sets $port to the port it printed.
await_port() {
	port=""
	i=0
	while [ -z "$port" ]; do
		kill -0 "$server_pid" 2>/dev/null ||
			die "the server did not start: $(cat "$log")"
		[ "$i" -lt 100 ] || die "the server did not start in 10 s"
		sleep 0.1
		i=$((i + 1))
		port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$log")
	done
}

stop_server() {
	kill "$server_pid"
	wait "$server_pid" || die "the server exited badly: $(cat "$log")"
	server_pid=""
}

# median FILE: the median of the numbers in FILE, one a line.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# print_run LABEL RUN LINE NOTE: prints run RUN of a figure from a line
# "WRK req/s p50_us p99_us errors", with NOTE after it.
print_run() {
	echo "$3" | awk -v l="$1" -v k="$2" -v e="$4" '{
		printf "  %s: run %d: %8.0f req/s     p50 %7.3f ms   p99 %7.3f ms%s\n",
			l, k, $2, $3 / 1000, $4 / 1000, e }'
}

# new_runs: a figure's runs begin; keep_run LINE adds one run's req/s,
# p50 and p99 (ms); report_runs LABEL prints their medians and adds them
# to the summary.
new_runs() {
	: >"$tmp/rps"
	: >"$tmp/p50"
	: >"$tmp/p99"
}
keep_run() {
	echo "$1" | awk '{ print $2 }' >>"$tmp/rps"
	echo "$1" | awk '{ print $3 / 1000 }' >>"$tmp/p50"
	echo "$1" | awk '{ print $4 / 1000 }' >>"$tmp/p99"
}
report_runs() {
	rps=$(median "$tmp/rps")
	p50=$(median "$tmp/p50")
	p99=$(median "$tmp/p99")
	printf '  %s: median %.0f req/s, p50 %.3f ms, p99 %.3f ms\n' \
		"$1" "$rps" "$p50" "$p99"
	printf '%s req/s\t%s\treq/s\n%s p50\t%s\tms\n%s p99\t%s\tms\n' \
		"$1" "$rps" "$1" "$p50" "$1" "$p99" >>"$summary"
}

# prepare_curl GAME MOVES: creates a 2-seat game of GAME with a token per
# seat and plays MOVES moves into it, each the first action the seat to act
# lists; prints "GAME_ID SEAT0_TOKEN".
prepare_curl() {
	base="http://127.0.0.1:$port/v1/games"
	created=$(curl -sf -H 'Content-Type: application/json' \
		-d "{\"game\":\"$1\",\"seats\":2}" "$base") || return 1
	g=$(echo "$created" | jq -r .id)
	t0=$(echo "$created" | jq -r '.seats[0].token')
	t1=$(echo "$created" | jq -r '.seats[1].token')
	m=0
	while [ "$m" -lt "$2" ]; do
		seat=$(curl -sf -H "Authorization: Bearer $t0" "$base/$g" |
			jq -r '.to_act[0] // empty')
		[ -n "$seat" ] || break # over
		t=$t0
		[ "$seat" = 1 ] && t=$t1
		act=$(curl -sf -H "Authorization: Bearer $t" "$base/$g/actions" |
			jq -c '.actions[0]') || return 1
		curl -sf -o /dev/null -H "Authorization: Bearer $t" \
			-H 'Content-Type: application/json' \
			-d "{\"action\":$act}" "$base/$g/moves" || return 1
		m=$((m + 1))
	done
	echo "$g $t0"
}

# wrk_figure LABEL PATH [wrk options]: a warm-up, then 3 runs; prints
# each run and the medians and adds them to the summary.
wrk_figure() {
	label=$1
	url="http://127.0.0.1:$port$2"
	shift 2
	new_runs
	for k in 0 1 2 3; do
		secs=$run_secs
		[ "$k" -eq 0 ] && secs=$warm_secs
		$load_pin wrk -t1 -c"$conns" -d"${secs}s" --timeout 5s \
			-s "$here/bench/report.lua" "$@" "$url" >"$tmp/wrk.out" 2>&1 ||
			die "wrk failed: $(cat "$tmp/wrk.out")"
		line=$(grep '^WRK ' "$tmp/wrk.out") ||
			die "wrk printed no figures: $(cat "$tmp/wrk.out")"
		errors=$(echo "$line" | awk '{ print $5 }')
		[ "$errors" -eq 0 ] ||
			die "$label: $errors errors or non-2xx answers: $(cat "$tmp/wrk.out")"
		[ "$k" -eq 0 ] && continue
		print_run "$label" "$k" "$line" ""
		keep_run "$line"
	done
	report_runs "$label"
}

echo "bench: $(date -u '+%Y-%m-%d %H:%M UTC'); $ncpu cpu(s)," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "bench: $pinning; each figure: warm-up, then median of 3 runs" \
	"($run_secs s each for HTTP)"
echo "bench: load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)" \
	"(anything else running skews every figure)"
echo

# reference LABEL: wrk on the reference server.
reference() {
	start_server ref
	wrk_figure "$1" /
	stop_server
}

echo "== 0. reference: bare libmicrohttpd, fixed 60-byte JSON body, $conns connections =="
reference "reference (bare libmicrohttpd), first"
echo

if [ -z "${BENCH_ONLY:-}" ]; then
echo "== 1. engine, in process =="
$load_pin "$build/bench/bench_engine" -o "$summary" ||
	die "bench_engine failed"
echo

if [ "${BENCH_LOG_MOVES:-}" != none ]; then
echo "== 1b. log length: reads of a game of ${BENCH_LOG_MOVES:-1000 100000} moves, in process =="
logdir=$tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && logdir=$(mktemp -d /dev/shm/boardd-bench.XXXXXX)
# shellcheck disable=SC2086
[ -x "$build/bench/bench_log" ] || die "$build/bench/bench_log is missing"
$load_pin "$build/bench/bench_log" -o "$summary" "$logdir" ${BENCH_LOG_MOVES:-1000 100000} ||
	die "bench_log failed"
[ "$logdir" = "$tmp" ] || rm -rf "$logdir"
echo
fi

echo "== 2. HTTP, release server, --sync normal, $conns connections =="
start_server normal --rate-limit off
game=$("$build/bench/bench_http" -p "$port" prepare "$get_moves") ||
	die "could not prepare a game"
gid=${game% *}
tok=${game#* }
wrk_figure "GET /v1/games/{id} (Agent Avenue, $get_moves moves, seat token)" \
	"/v1/games/$gid" -H "Authorization: Bearer $tok"
wrk_figure "GET /v1/games/{id} (Agent Avenue, $get_moves moves, spectator)" \
	"/v1/games/$gid"
wrk_figure "GET /v1/games/{id}/actions (Agent Avenue, seat token)" \
	"/v1/games/$gid/actions" -H "Authorization: Bearer $tok"
etag=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $tok" \
	"http://127.0.0.1:$port/v1/games/$gid" | tr -d '\r' |
	sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
[ -n "$etag" ] || die "no ETag on the game view"
wrk_figure "GET /v1/games/{id} If-None-Match -> 304 (seat token)" \
	"/v1/games/$gid" -H "Authorization: Bearer $tok" -H "If-None-Match: $etag"
qgame=$(prepare_curl quantum "$get_moves") || die "could not prepare a Quantum game"
wrk_figure "GET /v1/games/{id} (Quantum, $get_moves moves, seat token)" \
	"/v1/games/${qgame% *}" -H "Authorization: Bearer ${qgame#* }"
wrk_figure "GET /v1/catalog" /v1/catalog
$load_pin python3 "$here/bench/longpoll_wake.py" "$port" "$summary" ||
	die "the long-poll figure failed"
$load_pin "$build/bench/bench_http" -p "$port" -c "$writers" -d "$run_secs" \
	-o "$summary" -l "POST moves (sync normal, $writers clients)" moves ||
	die "the moves figure failed"
stop_server
echo
fi # BENCH_ONLY

# Group commit batches the writes that are in flight together.  Writes
# run on the write workers (--write-workers, 64) while their connection is
# suspended, so the reads' --threads batches them too; the write figures
# are measured with the reads' --threads and again with one HTTP thread
# per client, to show what more HTTP threads still add.
# A write costs the load generator far less than the server (bench_http
# is about a tenth of a core at the figures here), so the write figures are
# measured a third time with the server on every core, the load generator
# sharing the last one: what the whole machine does, as the issue 13
# baseline was measured.  Reads are not: wrk needs as much CPU as the
# server, and sharing would measure the scheduler.
if [ "${BENCH_ONLY:-writes}" = writes ]; then
pinned_srv_pin=$srv_pin
write_runs="$threads:pinned $writers:pinned"
[ -n "$srv_pin" ] && write_runs="$write_runs $ncpu:every"
for run in $write_runs; do
wthreads=${run%:*}
where=""
srv_pin=$pinned_srv_pin
if [ "${run#*:}" = every ]; then
	srv_pin="taskset -c 0-$last"
	where=", server on every cpu"
fi
echo "== 3. HTTP, release server, --sync full (durable acks), $writers clients, --threads $wthreads$where =="
start_server full --rate-limit off --threads "$wthreads"
$load_pin "$build/bench/bench_http" -p "$port" -c "$writers" -d "$run_secs" \
	-o "$summary" -l "POST moves (sync full, $writers clients, $wthreads threads$where)" moves ||
	die "the moves figure failed"
$load_pin "$build/bench/bench_http" -p "$port" -c "$writers" -d "$run_secs" \
	-o "$summary" -l "POST /v1/games (sync full, $writers clients, $wthreads threads$where)" creates ||
	die "the creates figure failed"
stop_server
sed -n 's/^boardd: group commit: /  group commit: /p' "$log"
echo
done
srv_pin=$pinned_srv_pin
fi # BENCH_ONLY

if [ -z "${BENCH_QUICK:-}" ] && [ -z "${BENCH_ONLY:-}" ]; then
echo "== 4. stream budget: one address asks for 10x its budget, 500 other streams open =="
# --max-conns 2048: a global stream budget of 1024, so the 500 streams and
# the attacker's 32 fit; the attacker's other 288 are refused (429).  The
# anonymous share and its per-network cap are off: the 500 stand-ins for
# other clients are all anonymous and share one /24 (the unit test and
# test_limits.py's anonymous_flood_leaves_players_room test those).
start_server normal --max-conns 2048 --rate-limit off \
	--max-streams-anonymous 0 --max-streams-per-net 0
game=$("$build/bench/bench_http" -p "$port" prepare "$get_moves") ||
	die "could not prepare a game"
gid=${game% *}
tok=${game#* }
wrk_figure "GET /healthz (no streams)" /healthz
wrk_figure "GET /v1/games/{id} (no streams)" "/v1/games/$gid" \
	-H "Authorization: Bearer $tok"
$load_pin python3 "$here/bench/stream_flood.py" "$port" "$gid" "$tmp/ready" &
flood_pid=$!
i=0
while [ ! -e "$tmp/ready" ]; do
	kill -0 "$flood_pid" 2>/dev/null || die "stream_flood.py failed"
	[ "$i" -lt 300 ] || die "the streams did not open in 30 s"
	sleep 0.1
	i=$((i + 1))
done
wrk_figure "GET /healthz (500 streams, 10x flood)" /healthz
wrk_figure "GET /v1/games/{id} (500 streams, 10x flood)" "/v1/games/$gid" \
	-H "Authorization: Bearer $tok"
kill "$flood_pid"
wait "$flood_pid" || die "stream_flood.py exited badly"
stop_server
echo

echo "== clock timeouts: 10,000 games, one deadline (bench/clock_flood.py) =="
clock_line=$(python3 "$here/bench/clock_flood.py" "$build/boardd" 10000 2>/dev/null) ||
	die "clock_flood.py failed"
echo "$clock_line"
echo "$clock_line" | sed -E 's/.* in ([0-9.]+) s after it \(([0-9]+) timeouts.*/10,000 games with one deadline played out	\1	s\n10,000-deadline timeouts per second	\2	timeouts\/s/' >>"$summary"
echo "== 5. webhooks: delivery rate to a local receiver (release server) =="
$srv_pin /usr/bin/python3 "$here/bench/bench_webhooks.py" "$build/boardd" \
	"$summary" || die "the webhook figure failed"
echo

fi # BENCH_QUICK

if [ "${BENCH_ONLY:-nodes}" = nodes ]; then
echo "== 8. two nodes on PostgreSQL vs one on SQLite (sync full), GET as a seat and POST moves =="
# wrk2_figure LABEL PATH PORT_A PORT_B [wrk options]: wrk_figure with half
# the connections on each node at once: req/s is the sum of the two, p50
# and p99 the slower node's.
wrk2_figure() {
	label=$1
	path=$2
	pa=$3
	pb=$4
	shift 4
	new_runs
	for k in 0 1 2 3; do
		secs=$run_secs
		[ "$k" -eq 0 ] && secs=$warm_secs
		wrk_pids=""
		for pp in "$pa" "$pb"; do
			$load_pin wrk -t1 -c"$((conns / 2))" -d"${secs}s" --timeout 5s \
				-s "$here/bench/report.lua" "$@" \
				"http://127.0.0.1:$pp$path" >"$tmp/wrk-$pp.out" 2>&1 &
			wrk_pids="$wrk_pids $!"
		done
		wait_ok=0
		for wp in $wrk_pids; do
			wait "$wp" || wait_ok=1
		done
		[ "$wait_ok" -eq 0 ] ||
			die "wrk failed: $(cat "$tmp/wrk-$pa.out" "$tmp/wrk-$pb.out")"
		line=$(cat "$tmp/wrk-$pa.out" "$tmp/wrk-$pb.out" | awk '
			/^WRK / { r += $2; if ($3 > a) a = $3; if ($4 > b) b = $4;
				e += $5; n++ }
			END { if (n == 2) printf "WRK %f %f %f %d\n", r, a, b, e }')
		[ -n "$line" ] || die "wrk printed no figures: $(cat "$tmp/wrk-$pa.out" "$tmp/wrk-$pb.out")"
		errors=$(echo "$line" | awk '{ print $5 }')
		[ "$errors" -eq 0 ] ||
			die "$label: $errors errors or non-2xx answers"
		[ "$k" -eq 0 ] && continue
		each=$(cat "$tmp/wrk-$pa.out" "$tmp/wrk-$pb.out" | awk '
			/^WRK / { printf "%s%.0f req/s p50 %.3f ms", n++ ? "; b " : "a ",
				$2, $3 / 1000 }')
		print_run "$label" "$k" "$line" "   (node a, which made the game: $each)"
		keep_run "$line"
	done
	report_runs "$label"
}
# figure LABEL: a summary row's value.
figure() {
	awk -F '\t' -v l="$1" '$1 == l { print $2 }' "$summary"
}
sq_get="GET /v1/games/{id} (seat, $get_moves moves; SQLite, 1 node)"
pg_get="GET /v1/games/{id} (seat, $get_moves moves; PostgreSQL, 2 nodes)"
sq_mv="POST moves ($writers clients; SQLite, 1 node)"
pg_mv="POST moves ($writers clients; PostgreSQL, 2 nodes)"

start_server full --rate-limit off
game=$("$build/bench/bench_http" -p "$port" prepare "$get_moves") ||
	die "could not prepare a game"
wrk_figure "$sq_get" "/v1/games/${game% *}" -H "Authorization: Bearer ${game#* }"
$load_pin "$build/bench/bench_http" -p "$port" -c "$writers" -d "$run_secs" \
	-o "$summary" -l "$sq_mv" moves || die "the moves figure failed"
stop_server

# The cluster's directory must be short (a Unix socket path) and named
# boardd-pg.* (cluster.sh sweeps stale siblings of that name).
pgdir=$(mktemp -d /tmp/boardd-pg.XXXXXX)
pg=$(BOARDD_PG_FSYNC=on sh "$here/pg/cluster.sh" start "$pgdir") ||
	die "no PostgreSQL cluster (tools/deps.sh installs postgresql)"
# the postmaster and what it runs now; backends it forks later inherit
pm=$(head -n 1 "$pgdir/data/postmaster.pid")
if [ -n "$srv_pin" ]; then
	for p in $pm $(pgrep -P "$pm"); do
		taskset -a -p -c "$srv_cpus" "$p" >/dev/null
	done
fi
# Two nodes, one key file: the first creates it, the second reads it.
# Each node: --threads as above; its read pool is capped at 16
# connections, plus the writer and the listener.
start_server pg-a "$pg" --secret-key "$tmp/pg.key" --rate-limit off
pa=$port
pid_a=$server_pid
start_server pg-b "$pg" --secret-key "$tmp/pg.key" --rate-limit off
pb=$port
node_pids=$pid_a # stop_server stops the second; cleanup the first
game=$("$build/bench/bench_http" -p "$pa" prepare "$get_moves") ||
	die "could not prepare a game"
wrk2_figure "$pg_get" "/v1/games/${game% *}" "$pa" "$pb" \
	-H "Authorization: Bearer ${game#* }"
$load_pin "$build/bench/bench_http" -p "$pa,$pb" -c "$writers" -d "$run_secs" \
	-o "$summary" -l "$pg_mv" moves || die "the two-node moves figure failed"
# A long-poll on node b answered by a move posted to node a (NOTIFY;
# goal: 100 ms), beside the same figure on one node (node a alone).
$load_pin python3 "$here/bench/longpoll_wake.py" "$pa" "$summary" "$pb" ||
	die "a long-poll on node b was not answered by node a's move"
stop_server
server_pid=$pid_a
log="$tmp/server-pg-a.log"
node_pids=""
stop_server
sh "$here/pg/cluster.sh" stop "$pgdir"
pgdir=""
# The speed goal is the ratio to SQLite's figure, measured just before.
for f in get mv; do
	if [ "$f" = get ]; then
		a=$(figure "$pg_get req/s")
		b=$(figure "$sq_get req/s")
		what="GET as a seat"
	else
		a=$(figure "$pg_mv moves/s")
		b=$(figure "$sq_mv moves/s")
		what="POST moves"
	fi
	x=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
	echo "  two PostgreSQL nodes / one SQLite node, $what: ${x}x"
	printf 'two PostgreSQL nodes / one SQLite node, %s\t%s\tx SQLite\n' \
		"$what" "$x" >>"$summary"
done
echo
fi

if [ "${BENCH_ONLY:-scale}" = scale ]; then
scale_games=${BENCH_SCALE_GAMES:-100000}
scale_db=${BENCH_SCALE_DB:-1000000}
echo "== 7. scale, in process: $scale_games games resident, a database of $scale_db games =="
scaledir=$tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && scaledir=$(mktemp -d /dev/shm/boardd-bench.XXXXXX)
$load_pin "$build/bench/bench_scale" resident "$scale_games" "$scaledir" "$summary" ||
	die "bench_scale resident failed"
rm -f "$scaledir"/resident.db*
$load_pin "$build/bench/bench_scale" listing "$scale_db" "$scaledir" "$summary" ||
	die "bench_scale listing failed"
rm -f "$scaledir"/listing.db*
$load_pin "$build/bench/bench_scale" ratings "$scale_db" "$scaledir" "$summary" ||
	die "bench_scale ratings failed"
rm -f "$scaledir"/ratings.db*
[ "$scaledir" = "$tmp" ] || rm -rf "$scaledir"
echo "== 7b. memory per resident game, a real server over HTTP (bench/resident_memory.py) =="
for views in one all; do
	/usr/bin/python3 "$here/bench/resident_memory.py" "$build/boardd" "$summary" \
		"${BENCH_RSS_FIRST:-10000}" "${BENCH_RSS_NEXT:-30000}" "$views" ||
		die "resident_memory.py failed"
done
echo
fi

echo "== 6. reference again =="
reference "reference (bare libmicrohttpd), last"
echo

echo "== summary (medians; never asserted; x = ratio to the reference) =="
echo "  (load average after: $(cut -d ' ' -f 1-3 /proc/loadavg))"
awk -F '\t' '
	/^reference .*req\/s\t/ { rps += $2; nr++ }
	/^reference .* p50\t/ { p50 += $2; n50++ }
	/^reference .* p99\t/ { p99 += $2; n99++ }
	{ row[NR] = $0 }
	END {
		rps /= nr; p50 /= n50; p99 /= n99
		us = 1e6 / rps # one reference request, microseconds
		printf "  reference: %.0f req/s, p50 %.3f ms, p99 %.3f ms (mean of 2 runs)\n",
			rps, p50, p99
		for (i = 1; i <= NR; i++) {
			split(row[i], f, "\t")
			v = f[2] + 0
			x = ""
			if (f[1] ~ / p50$/) x = v / p50
			else if (f[1] ~ / p99$/) x = v / p99
			else if (f[3] ~ /\/s$/) x = v / rps
			else if (f[3] == "ms") x = v * 1e3 / us
			else if (f[3] == "us" || f[3] == "\302\265s") x = v / us
			else if (f[3] == "s") x = v * 1e6 / us
			fm = v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f"
			xs = x == "" ? "-" : sprintf(x >= 100 ? "%.0fx" : x >= 10 ? "%.1fx" : "%.3fx", x)
			printf "  %-62s %12s  %-14s %9s\n", f[1], sprintf(fm, v), f[3], xs
		}
	}' "$summary"
