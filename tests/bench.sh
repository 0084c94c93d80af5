#!/bin/sh
# bench.sh BUILD_DIR: the figures `make bench` prints (tests/README.md,
# "## make bench").  Speed is never asserted: this exits non-zero only when
# a figure could not be measured (a tool missing, the server not starting,
# answers that were errors).
#
# 1. bench/bench_engine: Agent Avenue in process; then, for every game,
#    random playouts through the native interface and the JSON path
#    ("playouts GAME N games/s", "playouts-json GAME N games/s"), moves/s,
#    MCTS iterations/s, and the replay time of a 1,000-move Quantum log.
# 2. The release server on a loopback port with a temp database:
#    GET /v1/games/{id} and GET /v1/catalog with wrk, then POST moves with
#    bench/bench_http, with --sync normal and once more with --sync full
#    (rate limits off: one client posting as fast as it can is a flood).
# 3. GET /healthz and GET /v1/games/{id} while one address asks for ten
#    times its stream budget and 500 other streams are open
#    (bench/stream_flood.py), and the same two without that load.
# 4. How long 10,000 timed games whose deadlines fall in the same second
#    take to be played out by the clock scheduler (bench/clock_flood.py).
# 4. Webhook deliveries per second to a local receiver (printed as
#    section 5; bench/bench_webhooks.py).
# Server and load generator are pinned to different cores with taskset
# when there are 2 or more; every figure is a warm-up then the median of
# 3 runs.  BENCH_SECONDS sets the length of one measured run (default 3).
set -eu
build=${1:?usage: bench.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
run_secs=${BENCH_SECONDS:-3}
warm_secs=2
conns=16 # connections of wrk and of bench_http
get_moves=10 # moves played into the game the GETs read

die() {
	echo "bench: $*" >&2
	exit 1
}

for f in boardd bench/bench_engine bench/bench_http; do
	[ -x "$build/$f" ] || die "$build/$f is missing (run make bench)"
done

# wrk: only the benchmark needs it, so tools/deps.sh leaves it out.
if ! command -v wrk >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || die "wrk is missing; run as root or apt-get install wrk"
	echo "bench: installing wrk" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends wrk >/dev/null
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boardd-bench.XXXXXX")
summary="$tmp/summary"
: >"$summary"
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
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
# database.
start_server() {
	log="$tmp/server-$1.log"
	sync=$1
	shift
	$srv_pin "$build/boardd" --addr 127.0.0.1 --port 0 \
		--db "$tmp/bench-$sync.db" --sync "$sync" --quiet --threads "$threads" \
		"$@" 2>"$log" &
	server_pid=$!
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

# wrk_figure LABEL PATH [wrk options]: a warm-up, then 3 runs; prints
# each run and the medians and adds them to the summary.
wrk_figure() {
	label=$1
	url="http://127.0.0.1:$port$2"
	shift 2
	: >"$tmp/rps"
	: >"$tmp/p50"
	: >"$tmp/p99"
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
		echo "$line" | awk -v l="$label" -v k="$k" '{
			printf "  %s: run %d: %8.0f req/s     p50 %7.3f ms   p99 %7.3f ms\n",
				l, k, $2, $3 / 1000, $4 / 1000 }'
		echo "$line" | awk '{ print $2 }' >>"$tmp/rps"
		echo "$line" | awk '{ print $3 / 1000 }' >>"$tmp/p50"
		echo "$line" | awk '{ print $4 / 1000 }' >>"$tmp/p99"
	done
	rps=$(median "$tmp/rps")
	p50=$(median "$tmp/p50")
	p99=$(median "$tmp/p99")
	printf '  %s: median %.0f req/s, p50 %.3f ms, p99 %.3f ms\n' \
		"$label" "$rps" "$p50" "$p99"
	printf '%s req/s\t%s\treq/s\n%s p50\t%s\tms\n%s p99\t%s\tms\n' \
		"$label" "$rps" "$label" "$p50" "$label" "$p99" >>"$summary"
}

echo "bench: $(date -u '+%Y-%m-%d %H:%M UTC'); $ncpu cpu(s)," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "bench: $pinning; each figure: warm-up, then median of 3 runs" \
	"($run_secs s each for HTTP)"
echo "bench: load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)" \
	"(anything else running skews every figure)"
echo

echo "== 1. engine, in process =="
$load_pin "$build/bench/bench_engine" -o "$summary" ||
	die "bench_engine failed"
echo

echo "== 2. HTTP, release server, --sync normal, $conns connections =="
start_server normal --rate-limit off
game=$("$build/bench/bench_http" -p "$port" prepare "$get_moves") ||
	die "could not prepare a game"
gid=${game% *}
tok=${game#* }
wrk_figure "GET /v1/games/{id} ($get_moves moves, cached, seat token)" \
	"/v1/games/$gid" -H "Authorization: Bearer $tok"
wrk_figure "GET /v1/catalog" /v1/catalog
$load_pin "$build/bench/bench_http" -p "$port" -c "$conns" -d "$run_secs" \
	-o "$summary" -l "POST moves (sync normal)" moves ||
	die "the moves figure failed"
stop_server
echo

echo "== 3. HTTP, release server, --sync full (fsync per commit) =="
start_server full --rate-limit off
$load_pin "$build/bench/bench_http" -p "$port" -c "$conns" -d "$run_secs" \
	-o "$summary" -l "POST moves (sync full)" moves ||
	die "the moves figure failed"
stop_server
echo

echo "== 4. stream budget: one address asks for 10x its budget, 500 other streams open =="
# --max-conns 2048: a global stream budget of 1024, so the 500 streams and
# the attacker's 32 fit; the attacker's other 288 are refused (429).
start_server normal --max-conns 2048 --rate-limit off
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

echo "== summary (medians; never asserted) =="
echo "  (load average after: $(cut -d ' ' -f 1-3 /proc/loadavg))"
awk -F '\t' '{
	v = $2 + 0
	f = v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f"
	printf "  %-58s %12s  %s\n", $1, sprintf(f, v), $3 }' "$summary"
