#!/bin/sh
# cluster.sh start DIR | stop DIR | parent: a throw-away PostgreSQL cluster
# for the tests, from Debian's postgresql package (tools/deps.sh installs
# it).
#
# parent     prints the directory to make DIR in (as
#            "$(mktemp -d "$(sh cluster.sh parent)/boardd-pg.XXXXXX")"):
#            /dev/shm when it is a writable tmpfs with 1 GiB free, else
#            ${TMPDIR:-/tmp}.  The free space: Docker gives a container a
#            64 MB /dev/shm by default, which the cluster fills at its
#            third database ("No space left on device"); a whole run of
#            make test used at most about 170 MB of /dev/shm (sampled
#            every 5 s, 2026-12-07).
#            In memory, the suites' CREATE DATABASE and DROP DATABASE
#            (a few hundred files each, a database a test server) cost
#            the kernel little; on this machine's ext4 the inode
#            allocator's search (find_inode_bit, recently_deleted) took
#            most of the cluster's CPU: test_ops.py's 32 servers, 15 s
#            of the cluster's CPU on ext4 against 2.3 s on tmpfs
#            (tests/README.md, "make test's time").  Nothing the suites
#            check needs a disk: fsync is off (below).
# start DIR  creates DIR if missing, runs initdb in DIR/data and starts the
#            server; prints one line, the libpq keyword string of a
#            superuser connection:
#              host=DIR port=5432 user=postgres dbname=postgres
#            Exits non-zero with a sentence on stderr when PostgreSQL is not
#            installed or the server does not start (its log is shown).
#            A cluster already in DIR is stopped and replaced.  Clusters
#            left behind by a killed run (a sibling DIR named
#            boardd-pg.* whose owner process is gone) are stopped and
#            removed first.
# stop DIR   stops the server (fast, then immediate) and removes what start
#            made in DIR, then DIR itself if it is empty.  Safe to repeat;
#            nothing there: exits 0.
#
# The server: the highest /usr/lib/postgresql/*/bin (not a PATH symlink),
# run as Debian's unprivileged `postgres` user when called as root (DIR is
# chowned to it), as the caller otherwise.  It listens on a Unix socket in
# DIR only (listen_addresses=''), trusts that socket (no password) and
# rejects TCP; the superuser role is `postgres` either way.  fsync is
# BOARDD_PG_FSYNC (default off, for the test suites: what they check
# survives a crash of boardd or of PostgreSQL (SIGKILL, pg_ctl -m fast or
# immediate), whose writes are in the kernel's page cache, and none crashes
# the machine, the one failure fsync is for, as SQLite's --sync normal in
# tests/http/harness.py; synchronous_commit stays on, so a commit's WAL is
# written before it is acknowledged; and the checkpoints of CREATE DATABASE
# ... STRATEGY FILE_COPY, the harness's copy of the migrated template, cost
# no disk flush).  tests/bench.sh asks for on: its figures compare
# PostgreSQL with SQLite's --sync full.  shared_buffers is small; max_connections
# is BOARDD_PG_MAX_CONNECTIONS (default 400: each boardd opens a pool of
# threads + bot workers + write workers + 2 connections, the two-node suite
# runs two at once).
#
# Env: BOARDD_PG_FSYNC  on or off (default off): the server's fsync
#      BOARDD_PG_OWNER  the pid whose death marks this cluster stale
#                       (default: the caller, $PPID); run.sh passes its own.
set -eu

usage() {
	echo "usage: cluster.sh start DIR | stop DIR | parent" >&2
	exit 2
}
if [ "${1:-}" = parent ] && [ $# -eq 1 ]; then
	if [ -d /dev/shm ] && [ -w /dev/shm ] &&
		[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
		[ "$(stat -f -c '%a %S' /dev/shm 2>/dev/null |
			awk '{ print int($1 * $2 / 1048576) }')" -ge 1024 ] 2>/dev/null; then
		echo /dev/shm
	else
		echo "${TMPDIR:-/tmp}"
	fi
	exit 0
fi
[ $# -eq 2 ] || usage
cmd=$1
dir=$2
MARK=boardd-test-cluster  # the file that says start made this cluster
PORT=5432                 # names the socket file only: DIR is private

die() {
	echo "cluster.sh: $*" >&2
	exit 1
}

# The server's binaries: the highest installed major version.
bindir() {
	# the glob sorts 10 before 9: pick by number (/usr/lib/postgresql/N/bin)
	best=$(for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] &&
			echo "$d"
	done | sort -t/ -k4,4n | tail -n 1)
	[ -n "$best" ] ||
		die "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): install Debian's postgresql package (bash tools/deps.sh)"
	echo "$best"
}

# as_pg CMD...: runs CMD as the cluster's owner, in DIR (a cwd the
# unprivileged user can read).
as_pg() {
	if [ "$(id -u)" = 0 ]; then
		(cd "$dir" && runuser -u postgres -- "$@")
	else
		(cd "$dir" && "$@")
	fi
}

# stop_cluster D: stops the server of cluster D and removes its files.
stop_cluster() {
	d=$1
	[ -d "$d" ] || return 0
	if [ -f "$d/data/postmaster.pid" ]; then
		bin=$(bindir)
		dir=$d
		as_pg "$bin/pg_ctl" -D "$d/data" -w -t 30 -m fast stop >/dev/null 2>&1 ||
			as_pg "$bin/pg_ctl" -D "$d/data" -w -t 30 -m immediate stop \
				>/dev/null 2>&1 || true
		# a postmaster that survived both: kill it by the pid it wrote
		pid=$(head -n 1 "$d/data/postmaster.pid" 2>/dev/null || true)
		case "$pid" in
		'' | *[!0-9]*) ;;
		*)
			if [ -d "/proc/$pid" ] &&
				grep -q postgres "/proc/$pid/comm" 2>/dev/null; then
				kill -9 "$pid" 2>/dev/null || true
			fi
			;;
		esac
	fi
	# restart.log: pg_ctl's log of test_nodes_faults.py's restarts
	rm -rf "${d:?}/data" "$d/server.log" "$d/restart.log" "$d/owner" "${d:?}/$MARK"
	rmdir "$d" 2>/dev/null || true
}

# sweep PARENT: stops clusters under PARENT/boardd-pg.* whose owner is gone.
sweep() {
	for d in "$1"/boardd-pg.*; do
		[ -f "$d/$MARK" ] || continue
		[ "$d" = "$dir" ] && continue
		owner=$(cat "$d/owner" 2>/dev/null || true)
		case "$owner" in
		'' | *[!0-9]*) continue ;;
		esac
		[ -d "/proc/$owner" ] && continue
		echo "cluster.sh: removing stale cluster $d (owner $owner gone)" >&2
		(stop_cluster "$d")
	done
}

case "$cmd" in
start)
	bin=$(bindir)
	if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
		die "running as root needs the unprivileged 'postgres' user that Debian's postgresql package creates; it is missing"
	fi
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd -P)
	# the socket path must fit in sun_path (107 bytes)
	sock="$dir/.s.PGSQL.$PORT"
	[ ${#sock} -le 100 ] || die "DIR is too long for a Unix socket path: $sock"
	sweep "$(dirname "$dir")"
	(stop_cluster "$dir")
	mkdir -p "$dir"
	echo "${BOARDD_PG_OWNER:-$PPID}" >"$dir/owner"
	: >"$dir/$MARK"
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	# -N: initdb does not fsync its template files (a throw-away cluster).
	if ! as_pg "$bin/initdb" -D "$dir/data" -U postgres -E UTF8 --locale=C \
		--auth-local=trust --auth-host=reject -N >"$dir/initdb.log" 2>&1; then
		cat "$dir/initdb.log" >&2
		die "initdb failed in $dir/data"
	fi
	rm -f "$dir/initdb.log"
	cat >>"$dir/data/postgresql.conf" <<EOF
# cluster.sh (boardd tests)
listen_addresses = ''
unix_socket_directories = '$dir'
port = $PORT
fsync = ${BOARDD_PG_FSYNC:-off}
synchronous_commit = on
shared_buffers = 16MB
max_connections = ${BOARDD_PG_MAX_CONNECTIONS:-400}
log_line_prefix = '%m [%p] %d '
EOF
	if ! as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		start >/dev/null 2>&1; then
		cat "$dir/server.log" >&2 2>/dev/null || true
		die "the PostgreSQL server in $dir/data did not start"
	fi
	echo "host=$dir port=$PORT user=postgres dbname=postgres"
	;;
stop)
	[ -d "$dir" ] || exit 0
	[ -f "$dir/$MARK" ] || [ -d "$dir/data" ] || exit 0
	stop_cluster "$(cd "$dir" && pwd -P)"
	;;
*) usage ;;
esac
