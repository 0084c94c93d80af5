"""harness.py: runs boardd as a real process on a loopback port with a real
store, talks HTTP to it, and checks every response against
openapi/openapi.yaml.

The store is a fresh SQLite file by default.  With BOARDD_TEST_BACKEND=postgres
and BOARDD_TEST_PG set to a superuser connection string (tests/pg/cluster.sh
start prints one; tests/run.sh starts the cluster), each Server gets a fresh
PostgreSQL database of its own instead, kept across kill()/start() and
dropped at cleanup().  Server.query reads (or writes) the store on either
backend; a check that only means something for the SQLite file calls
sqlite_only(reason), which skips the test on PostgreSQL with the reason
printed (tests/README.md lists them).

Uses only Debian's /usr/bin/python3 with python3-yaml and python3-jsonschema
(and python3-psycopg2 on PostgreSQL), installed by tools/deps.sh.  Tests are
plain functions registered with @test; run_all() prints
"<suite>: N passed, N failed".
"""
import contextlib
import fcntl
import functools
import gzip
import hashlib
import http.client
import itertools
import json
import os
import re
import secrets
import select
import sqlite3
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import fastjsonschema
import jsonschema
import shlex
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# libyaml's safe loader (Debian's python3-yaml is built with it): the same
# document as yaml.safe_load, in a quarter of the CPU (0.09 s against 0.39
# s, paid by every suite's process).
with open(os.path.join(ROOT, "openapi", "openapi.yaml")) as _f:
    SPEC = yaml.load(_f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
# BOARDD_WRAP runs the server under a tool, e.g. "valgrind --error-exitcode=1"
# (make valgrind): slower, so starts and stops get more time.
WRAP = shlex.split(os.environ.get("BOARDD_WRAP", ""))
SLOW = 20 if WRAP else 1
START_SECONDS = 60  # longest a server may take to answer /healthz at start
# A server's drain after SIGTERM (--drain-seconds, default 10 s) would
# make every stop of every suite 10 s longer: off for every server these
# suites start (the environment is inherited), unless the caller set it;
# the tests of the drain pass --drain-seconds themselves (a flag wins).
os.environ.setdefault("BOARDD_DRAIN_SECONDS", "0")

# The store backend the suites run on: "sqlite" (a file per Server) or
# "postgres" (a database per Server on the cluster BOARDD_TEST_PG names).
BACKEND = os.environ.get("BOARDD_TEST_BACKEND", "sqlite")
POSTGRES = BACKEND == "postgres"
PG_ADMIN = os.environ.get("BOARDD_TEST_PG", "")
if BACKEND not in ("sqlite", "postgres"):
    sys.exit("harness: BOARDD_TEST_BACKEND must be sqlite or postgres, not %r"
             % BACKEND)
if POSTGRES and not PG_ADMIN:
    sys.exit("harness: BOARDD_TEST_BACKEND=postgres needs BOARDD_TEST_PG, a "
             "superuser connection string (sh tests/pg/cluster.sh start DIR "
             "prints one)")


class Failure(Exception):
    pass


class Skip(Exception):
    """Raised by sqlite_only: the test does not run on this backend."""


def sqlite_only(why):
    """Skips the calling test on PostgreSQL: what it checks is a property
    of the SQLite file (`why` says which); run_all prints the reason."""
    if POSTGRES:
        raise Skip("SQLite only: " + why)


def note(what):
    """Prints a line under the current test: a part of it that did not
    run, and why (never a silent skip)."""
    print("     " + what, flush=True)


def check(cond, what):
    """Fails the current test with `what` unless cond holds."""
    if not cond:
        raise Failure(what)


# The sockets that hold free_port's ports, until the process exits.
_held_ports = []


def free_port():
    """A loopback port for a listener the test starts later (a webhook
    receiver, an SMTP sink, a server of its own), or for one that must
    refuse connections meanwhile.  The port stays held by a socket of
    this process, bound with SO_REUSEADDR and never listening, until the
    process exits: a port released at once (as this did) could be taken
    by another suite's server binding port 0, or an outgoing connection,
    before the test's listener bound it (a clean-clone run failed so:
    web-push-testing's port, b5a0c51).  The kernel gives a held port to
    no port-0 bind nor connect; a connection to it is refused while
    nothing listens; a listener that sets SO_REUSEADDR (http.server,
    asyncio and aiosmtpd, node, boardd's libmicrohttpd) binds it beside
    the holder, as often as it likes."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    _held_ports.append(s)
    return s.getsockname()[1]


class Response:
    def __init__(self, status, headers, raw):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.raw = raw  # as sent: coded when Content-Encoding says so
        ctype = self.headers.get("content-type", "")
        body = raw
        if raw and self.headers.get("content-encoding") == "gzip":
            body = gzip.decompress(raw)
        elif raw and self.headers.get("content-encoding") == "br":
            import brotli  # Debian's python3-brotli (tools/deps.sh)
            body = brotli.decompress(raw)
        self.json = json.loads(body) if body and "json" in ctype else None

    def __repr__(self):
        return "<%d %s>" % (self.status, self.raw[:300])


# Every suite but test_limits.py creates games, players and moves faster
# than a person and opens many connections and streams from one address:
# those run with the rate limits, connection and stream budgets per client
# and waiting-game caps off
# (the global stream budget stays).  `extra` comes after, so a suite may
# still set one.
LIMITS_OFF = ["--rate-limit", "off", "--max-conns-per-addr", "0",
              "--max-streams-per-addr", "0",
              "--max-streams-per-token", "0", "--max-streams-anonymous", "0",
              "--max-streams-per-net", "0", "--waiting-per-player", "0",
              "--waiting-per-addr", "0"]


# ---- PostgreSQL: one database per Server ----

_pg_names = itertools.count()
# The key file of each database a Server made, by connection string: a
# Server given another's db= seals and opens secrets with the same key,
# as a second SQLite server finds DB.key beside the file.
_pg_keys = {}


def _pg_connect(conninfo):
    import psycopg2  # Debian's python3-psycopg2: only needed here
    con = psycopg2.connect(conninfo)
    con.autocommit = True
    return con


_admin = {"pid": None, "con": None}  # _pg_admin's session, by process
_admin_lock = threading.Lock()


def _pg_admin(sql):
    """Runs sql as the test cluster's superuser; its rows, if it has any.
    One session serves every call of a process (a session each cost the
    cluster a backend's start, about 32 ms of its CPU here, and a Server
    makes two calls: tests/README.md, "make test's time").  A session the
    cluster has closed (test_nodes_faults.py restarts it) is opened again
    and the statement sent once more."""
    import psycopg2
    with _admin_lock:
        for again in (False, True):
            con = _admin["con"] if _admin["pid"] == os.getpid() else None
            if con is None or con.closed:
                con = _pg_connect(PG_ADMIN)
                _admin.update(pid=os.getpid(), con=con)
            try:
                cur = con.cursor()
                cur.execute(sql)
                return cur.fetchall() if cur.description else None
            except (psycopg2.OperationalError, psycopg2.InterfaceError):
                if again or not con.closed:
                    raise


def pg_create_database(template=None):
    """Creates a fresh, uniquely named database on the test cluster (a
    copy of the database named template, if given: CREATE DATABASE ...
    TEMPLATE); returns its libpq keyword string (the admin string's host,
    port and user with dbname= the new name)."""
    import psycopg2.extensions
    name = "boardd_test_%d_%d_%s" % (os.getpid(), next(_pg_names),
                                     secrets.token_hex(3))
    # STRATEGY FILE_COPY: the template's files copied as they are (with
    # their hint bits and relation cache file), where the default WAL_LOG
    # writes every page to the WAL and the new database's first connection
    # then spends 0.2 s of CPU rebuilding its caches: 0.3 s of the
    # cluster's CPU a server start (tests/README.md, "make test's time").
    _pg_admin('CREATE DATABASE "%s"' % name +
              (' TEMPLATE "%s" STRATEGY FILE_COPY' % template if template else ""))
    return psycopg2.extensions.make_dsn(PG_ADMIN, dbname=name)


def pg_drop_database(conninfo):
    """Drops the database conninfo names, closing its sessions first."""
    import psycopg2.extensions
    name = psycopg2.extensions.parse_dsn(conninfo)["dbname"]
    _pg_admin('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name)


def store_query(db, sql, params=()):
    """Runs one SQL statement on the store `db` names (a SQLite path or,
    on PostgreSQL, a connection string), in a connection of its own, and
    returns its rows as a list of tuples ([] for a statement without rows).
    Write the SQL with ? placeholders and portable SQL: on PostgreSQL the
    ?s become %s, and bytea comes back as bytes, as SQLite's BLOB does."""
    if not POSTGRES:
        con = sqlite3.connect(db, isolation_level=None)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()
    con = _pg_connect(db)
    try:
        cur = con.cursor()
        cur.execute(sql.replace("%", "%%").replace("?", "%s"), tuple(params))
        rows = cur.fetchall() if cur.description is not None else []
        return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r)
                for r in rows]
    finally:
        con.close()


# ---- one migrated store per binary, copied for each Server ----

# A Server's fresh store is a copy of a template that the binary under
# test migrated once, not a store it migrates at its own start: migrating
# costs the ASan server about 0.28 s of CPU per start (0.67 s against
# 0.39 s for a start and stop), and the suites start several hundred
# servers (tests/README.md, "make test's time").  The template is made by
# starting that very binary on an empty store and stopping it, so it can
# never be older than the binary: it is named by the binary's path, size,
# modification time and inode, in build/<sanitizer>/test-templates/ (a
# SQLite file) or on the test cluster (a database, copied with CREATE
# DATABASE ... TEMPLATE).  It holds no key-dependent data (no webhook,
# no player), so each Server still makes its own key file.  The tests of
# migrating a new store pass Server(fresh=True); BOARDD_TEST_TEMPLATE=0
# makes every Server migrate its own store, as before.
TEMPLATE = os.environ.get("BOARDD_TEST_TEMPLATE", "1") != "0"
_templates = {}  # binary path -> its template (a file path or database name)


def _binary_stamp(binary):
    """A name for this build of binary: 16 hex digits of a hash of its
    real path, size, modification time and inode."""
    st = os.stat(binary)
    what = "%s\0%d\0%d\0%d" % (os.path.realpath(binary), st.st_size,
                                 st.st_mtime_ns, st.st_ino)
    return hashlib.sha256(what.encode()).hexdigest()[:16]


def migrated_template(binary):
    """The template of a fresh store for binary on this BACKEND: on
    SQLite the path of a migrated database file (copy it, never open it
    for writing), on PostgreSQL the name of a migrated database (CREATE
    DATABASE ... TEMPLATE it; never connect to it).  Made at the first
    call for this build of binary by any suite (an exclusive lock on
    test-templates/lock beside the binary: suites running at once make
    it once), under a temporary name renamed when whole, so a suite
    killed midway leaves no half-made template."""
    if binary in _templates:
        return _templates[binary]
    stamp = _binary_stamp(binary)
    d = os.path.join(os.path.dirname(os.path.abspath(binary)), "test-templates")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released by close
        if POSTGRES:
            made = "boardd_template_" + stamp
            if not _pg_admin("SELECT 1 FROM pg_database WHERE datname = '%s'" % made):
                import psycopg2.extensions
                s = Server(binary, fresh=True)
                try:
                    s.stop()
                    tmp = psycopg2.extensions.parse_dsn(s.db)["dbname"]
                    # the server's sessions may outlive its exit a moment
                    _pg_admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = '%s' AND pid <> pg_backend_pid()" % tmp)
                    _pg_rename_database(tmp, made)
                    s.own_db = False  # renamed: the template now
                finally:
                    s.cleanup()
        else:
            made = os.path.join(d, "sqlite-%s.db" % stamp)
            if not os.path.exists(made):
                tmp = os.path.join(d, "making-%d.db" % os.getpid())
                s = Server(binary, db=tmp, fresh=True)
                try:
                    s.stop()
                finally:
                    s.cleanup()
                for suffix in (".key", ".lock"):
                    if os.path.exists(tmp + suffix):
                        os.unlink(tmp + suffix)
                if os.path.exists(tmp + "-wal"):
                    raise Failure("the template's WAL outlived a clean stop: %s" % tmp)
                os.rename(tmp, made)
                # an older build's templates (the stamp changed)
                for name in os.listdir(d):
                    if name.startswith("sqlite-") and name != os.path.basename(made):
                        os.unlink(os.path.join(d, name))
    _templates[binary] = made
    return made


def _pg_rename_database(old, new):
    """ALTER DATABASE old RENAME TO new, waiting (up to 30 s) for the
    sessions of a stopped server to end: a rename needs none open."""
    import psycopg2.errors
    deadline = time.monotonic() + 30 * SLOW
    while True:
        try:
            _pg_admin('ALTER DATABASE "%s" RENAME TO "%s"' % (old, new))
            return
        except psycopg2.errors.ObjectInUse:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


# Keep-alive: Server.request sends each request on a connection the
# server already answered on (its idle ones kept in a small pool), not on
# a new connection each time.  A new connection costs the ASan server
# about 0.8 ms of CPU (libmicrohttpd maps and unmaps a 64 KiB pool for it,
# and the unmapping flushes every core's TLB) and the harness 0.15 ms;
# a GET of a game on a kept one 0.13 ms in all (tests/README.md, "make
# test's time").  A kept connection is used again only when it has been
# idle for under KEEPALIVE_IDLE_S (far below the server's 30 s idle
# timeout: the server cannot have closed it for idleness), when the
# server has not closed it (nothing to read on it), and only by a Server
# whose flags cannot make the server close idle connections early
# (--timeout, --max-conns, a config file, a file-descriptor limit, the
# default limits of test_limits.py).  BOARDD_TEST_KEEPALIVE=0 turns it
# off: one new connection per request, as before.
KEEPALIVE = os.environ.get("BOARDD_TEST_KEEPALIVE", "1") != "0"
KEEPALIVE_IDLE_S = 2.0
KEEPALIVE_POOL = 4  # idle connections kept per Server at most
_EARLY_CLOSE_FLAGS = ("--timeout", "--max-conns", "--max-conns-per-addr", "--config")
_EARLY_CLOSE_ENV = ("BOARDD_TIMEOUT", "BOARDD_MAX_CONNS", "BOARDD_CONFIG")


def _dropped(sock):
    """True when a kept connection is no use: closed (or sent something
    unasked: readable either way) or gone."""
    if sock is None:
        return True
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


class Server:
    """One boardd process on a fresh port; the database survives restarts.
    limits=True keeps the server's default limits (test_limits.py).
    self.db is the store: the SQLite file's path, or on PostgreSQL the
    database's connection string (a fresh database unless db= names
    another Server's)."""

    def __init__(self, binary, db=None, extra=(), limits=False, preexec=None,
                 quiet=True, fresh=False):
        """preexec: run in the child before exec (e.g. to set a
        resource limit), as subprocess's preexec_fn.  quiet=False keeps
        the access log (in self.log; test_ops.py reads it).  Without db,
        the store is a new copy of the binary's migrated template
        (migrated_template), or with fresh=True an empty one that the
        server migrates at its start (for a test of that)."""
        self.quiet = quiet
        self.binary = binary
        self.preexec = preexec
        template = (migrated_template(binary)
                    if db is None and TEMPLATE and not fresh else None)
        self.dir = tempfile.mkdtemp(prefix="boardd-test-")
        self.own_db = False  # on PostgreSQL: cleanup() drops the database
        if POSTGRES:
            if db is None:
                db = pg_create_database(template)
                _pg_keys[db] = os.path.join(self.dir, "server.key")
                self.own_db = True
        elif db is None and template:
            db = os.path.join(self.dir, "test.db")
            shutil.copyfile(template, db)
        self.db = db or os.path.join(self.dir, "test.db")
        # The server key file: beside a SQLite file (boardd's default);
        # for a PostgreSQL database, in the directory of the Server that
        # made it (passed with --secret-key).
        self.key = (_pg_keys.get(self.db, os.path.join(self.dir, "server.key"))
                    if POSTGRES else self.db + ".key")
        self.port = None  # the port the server bound; new at each start
        self.extra = ([] if limits else LIMITS_OFF) + list(extra)
        self.limits = limits
        self.proc = None
        self.log = os.path.join(self.dir, "server.log")
        self._idle = []  # kept connections: (HTTPConnection, port, idle since)
        self._idle_lock = threading.Lock()
        try:
            self.start()
        except BaseException:
            self.cleanup()  # nobody holds a Server that never started
            raise

    def start(self):
        """Starts the server with --port 0: it binds a free port itself
        (no race with another process for one picked here) and prints
        "boardd: listening on http://127.0.0.1:PORT" on stderr, which is
        read from the log; self.port is that port until the next start."""
        self.drop_connections()
        args = WRAP + [self.binary, "--addr", "127.0.0.1", "--port", "0"] + \
            self.store_args(sync="normal") + \
            (["--quiet"] if self.quiet else []) + \
            self.extra
        logf = open(self.log, "ab")
        start_at = logf.tell()
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                                     stderr=logf, preexec_fn=self.preexec)
        logf.close()
        self.port = None
        # A bound for a server that never starts, not a latency: an ASan
        # build starting beside other suites on two busy cores has taken
        # 10 s (2.5 s of CPU: the sanitizer's allocations), so far more.
        deadline = time.time() + START_SECONDS * SLOW
        while time.time() < deadline and self.proc.poll() is None:
            if self.port is None:
                with open(self.log, "rb") as f:
                    f.seek(start_at)
                    m = re.search(rb"listening on http://127\.0\.0\.1:(\d+)", f.read())
                if not m:
                    time.sleep(0.02)
                    continue
                self.port = int(m.group(1))
            try:
                if self.request("GET", "/healthz", validate=False).status == 200:
                    return
            except OSError:
                time.sleep(0.05)
        why = ("exited with %d" % self.proc.returncode if self.proc.poll() is not None
               else "no 200 from /healthz in %gs" % (START_SECONDS * SLOW))
        if self.proc.poll() is None:
            self.proc.kill()  # not left running behind a failed test
        self.proc.wait()
        raise RuntimeError("server did not start (%s): %s" % (why, open(self.log).read()))

    def client_connections(self):
        """The TCP connections the server holds on its port (accepted
        ones, in any state but LISTEN: a client's closed connection the
        server has not closed yet counts), from /proc: its sockets'
        inodes matched against /proc/net/tcp and tcp6.  Unlike a count of
        all its descriptors, it does not move when the store opens a
        connection or a file."""
        inodes = set()
        fds = "/proc/%d/fd" % self.proc.pid
        for fd in os.listdir(fds):
            try:
                target = os.readlink(os.path.join(fds, fd))
            except OSError:
                continue  # closed meanwhile
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
        n = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as f:
                for line in f.readlines()[1:]:
                    cols = line.split()
                    port = int(cols[1].rsplit(":", 1)[1], 16)
                    if port == self.port and cols[3] != "0A" and cols[9] in inodes:
                        n += 1
        return n

    def keepalive(self):
        """Whether request() may send on a kept connection (KEEPALIVE)."""
        own = self.extra[0 if self.limits else len(LIMITS_OFF):]
        return (KEEPALIVE and self.preexec is None and not self.limits and
                not any(f in own for f in _EARLY_CLOSE_FLAGS) and
                not any(e in os.environ for e in _EARLY_CLOSE_ENV))

    def drop_connections(self):
        """Closes request()'s kept connections (before a stop or a start,
        so that none is left open on a server that ends)."""
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for conn, _, _ in idle:
            conn.close()

    def _connection(self):
        """A kept connection to this server's port still fit to use, or
        a new one."""
        now = time.monotonic()
        while True:
            with self._idle_lock:
                if not self._idle:
                    break
                conn, port, since = self._idle.pop()
            if port == self.port and now - since < KEEPALIVE_IDLE_S and not _dropped(conn.sock):
                return conn
            conn.close()
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def _keep(self, conn):
        with self._idle_lock:
            if len(self._idle) < KEEPALIVE_POOL and conn.port == self.port:
                self._idle.append((conn, conn.port, time.monotonic()))
                return
        conn.close()

    def kill(self):
        """SIGKILL: no chance to clean up, as in a crash."""
        self.drop_connections()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        """SIGTERM and wait: a clean shutdown must exit 0 (ASan checks
        leaks at exit)."""
        self.drop_connections()
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                rc = self.proc.wait(timeout=20 * SLOW)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                rc = "timeout"
            if rc != 0:
                raise Failure("server exit %s: %s" % (rc, open(self.log).read()[-3000:]))

    def store_args(self, sync=None):
        """The store flags of a boardd on this Server's store, for a test
        that runs the binary itself: --db, and on PostgreSQL --secret-key
        with the key file (SQLite finds DB.key beside the file).
        sync="normal"/"full": SQLite's synchronous mode (--sync), which
        PostgreSQL does not take (it commits durably:
        synchronous_commit=on)."""
        if POSTGRES:
            return ["--db", self.db, "--secret-key", self.key]
        return ["--db", self.db] + (["--sync", sync] if sync else [])

    def store_bytes(self):
        """Every byte the store holds at rest, to search for what must not
        be there in the clear (call it after stop()).  SQLite: the file and
        its WAL.  PostgreSQL: after a CHECKPOINT, the database's own files
        (base/OID) and the cluster's WAL (pg_wal): what a copy of the data
        directory gives."""
        if not POSTGRES:
            return b"".join(open(p, "rb").read() for p in (self.db, self.db + "-wal")
                            if os.path.exists(p))
        self.query("CHECKPOINT")
        (data,), = self.query("SHOW data_directory")
        (oid,), = self.query("SELECT oid FROM pg_database "
                             "WHERE datname = current_database()")
        out = []
        for sub in (os.path.join("base", str(oid)), "pg_wal"):
            top = os.path.join(data, sub)
            for name in sorted(os.listdir(top)):
                path = os.path.join(top, name)
                if os.path.isfile(path):
                    with open(path, "rb") as f:
                        out.append(f.read())
        return b"".join(out)

    def break_store(self):
        """Takes the store away from under the running server, as a
        failed disk or database would: SQLite: the file, its WAL and
        shared memory are unlinked; PostgreSQL: the database refuses new
        connections and the server's sessions are terminated."""
        if not POSTGRES:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(self.db + suffix):
                    os.unlink(self.db + suffix)
            return
        import psycopg2.extensions
        name = psycopg2.extensions.parse_dsn(self.db)["dbname"]
        _pg_admin('ALTER DATABASE "%s" WITH ALLOW_CONNECTIONS false' % name)
        _pg_admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                  "WHERE datname = '%s' AND pid <> pg_backend_pid()" % name)
        # pg_terminate_backend only signals: wait until the sessions are
        # gone, so the server's next statement fails (not one that raced
        # the signal and succeeded).
        deadline = time.monotonic() + 30 * SLOW
        while _pg_admin("SELECT count(*) FROM pg_stat_activity WHERE datname = '%s' "
                        "AND pid <> pg_backend_pid()" % name)[0][0]:
            if time.monotonic() > deadline:
                raise Failure("the server's PostgreSQL sessions outlived pg_terminate_backend")
            time.sleep(0.05)

    def query(self, sql, params=()):
        """store_query on this Server's store: rows as a list of tuples."""
        return store_query(self.db, sql, params)

    @contextlib.contextmanager
    def write_lock_held(self):
        """Another client holds the store's write lock while the block
        runs (every write waits for it; reads go on); released, with
        nothing written, at the end.  SQLite: BEGIN IMMEDIATE on a
        connection of its own.  PostgreSQL: a transaction holding every
        table of the schema IN EXCLUSIVE MODE (which only plain reads,
        ACCESS SHARE, pass)."""
        if not POSTGRES:
            holder = sqlite3.connect(self.db, timeout=0, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
        else:
            holder = _pg_connect(self.db)
            holder.autocommit = False
            cur = holder.cursor()
            cur.execute("SELECT tablename FROM pg_tables "
                        "WHERE schemaname = current_schema() ORDER BY 1")
            tables = [r[0] for r in cur.fetchall()]
            cur.execute("LOCK TABLE %s IN EXCLUSIVE MODE"
                        % ", ".join('"%s"' % t for t in tables))
        try:
            yield
        finally:
            if not POSTGRES:
                holder.execute("ROLLBACK")
            else:
                holder.rollback()
            holder.close()

    def integrity(self):
        """The store's own consistency checks; returns what they found
        wrong ([]: nothing).  SQLite: PRAGMA integrity_check and
        foreign_key_check.  PostgreSQL (which enforces foreign keys on
        every write itself): amcheck's bt_index_check with heapallindexed
        on every B-tree index of the schema (each index agrees with
        itself and holds every row of its table)."""
        if not POSTGRES:
            bad = [r[0] for r in self.query("PRAGMA integrity_check")
                   if r[0] != "ok"]
            bad += ["foreign key: %r" % (r,)
                    for r in self.query("PRAGMA foreign_key_check")]
            return bad
        # One connection for every check: a connection each (store_query)
        # cost the cluster a backend's start per index, 92 of them, which
        # made the PostgreSQL backends' CPU twice test_abuse's own.
        con = _pg_connect(self.db)
        try:
            cur = con.cursor()
            cur.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
            cur.execute(
                "SELECT c.relname FROM pg_index i "
                "JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_am a ON a.oid = c.relam "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE a.amname = 'btree' AND n.nspname = current_schema() "
                "ORDER BY 1")
            bad = []
            for name, in cur.fetchall():
                try:  # autocommit: a failed check leaves the session usable
                    cur.execute("SELECT bt_index_check(%s::regclass, true)", (name,))
                except Exception as e:  # psycopg2.Error: amcheck found damage
                    bad.append("%s: %s" % (name, str(e).strip()))
            return bad
        finally:
            con.close()

    def cleanup(self):
        self.drop_connections()
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.own_db:
            if self.proc and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            pg_drop_database(self.db)
            _pg_keys.pop(self.db, None)
            self.own_db = False

    def request(self, method, path, body=None, token=None, headers=None,
                raw=None, validate=True):
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        keep = self.keepalive()
        conn = (self._connection() if keep else
                http.client.HTTPConnection("127.0.0.1", self.port, timeout=30))
        reusable = False
        try:
            try:
                conn.request(method, path, body=data, headers=h)
            except (BrokenPipeError, ConnectionResetError):
                # The server may answer before the body is all sent (an
                # early 413 for a declared oversized body) and close; the
                # answer is then in the socket's receive queue.  Read it
                # as curl does; with none there, getresponse raises.
                # A reset while connecting (a server killed mid-handshake)
                # leaves no socket to read: that is no answer at all.
                if conn.sock is None:
                    raise
            r = conn.getresponse()
            resp = Response(r.status, r.getheaders(), r.read())
            reusable = keep and not r.will_close
        finally:
            if reusable:
                self._keep(conn)
            else:
                conn.close()
        if validate:
            validate_response(method, path, resp)
        return resp


# ---- OpenAPI contract: every response must be documented ----

# Each path template of the spec as a pattern, in the spec's order.
_PATHS = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"),
           template, item) for template, item in SPEC["paths"].items()]


def _operation(method, path):
    path = path.split("?")[0]
    for rx, template, item in _PATHS:
        if rx.match(path):
            return item.get(method.lower()), template
    return None, None


def _resolve(obj):
    while isinstance(obj, dict) and "$ref" in obj:
        node = SPEC
        for part in obj["$ref"][2:].split("/"):
            node = node[part]
        obj = node
    return obj


# A request id as boardd sends it: 1-64 visible ASCII characters.
REQUEST_ID = re.compile(r"[\x21-\x7e]{1,64}$")


def validate_response(method, path, resp):
    """Checks resp against the spec: documented status, content type and
    body schema.  Problems must match the Problem schema whatever the
    route (404/405 are answered for paths the spec does not list)."""
    # Every answer boardd makes carries its request's id (openapi.yaml,
    # RequestId), which a problem repeats as `request_id`.
    if not is_library_refusal(resp):
        rid = resp.headers.get("x-request-id", "")
        check(REQUEST_ID.match(rid), "%s %s %d: X-Request-Id %r" % (method, path, resp.status, rid))
    if resp.headers.get("content-type") == "application/problem+json":
        _validate(resp.json, SPEC["components"]["schemas"]["Problem"])
        check(resp.json["status"] == resp.status, "problem status mismatch")
        check(resp.json["request_id"] == resp.headers.get("x-request-id"),
              "the problem's request_id is the header's: %r" % resp.json)
    op, _ = _operation(method, path)
    if op is None or resp.status in (405,) or method == "HEAD":
        return
    responses = op["responses"]
    key = str(resp.status)
    check(key in responses, "%s %s answered %d, not in the spec" % (method, path, resp.status))
    spec = _resolve(responses[key])
    content = spec.get("content")
    if not content:
        check(not resp.raw, "%s %s %d: body not in spec" % (method, path, resp.status))
        return
    ctype = resp.headers.get("content-type", "")
    check(ctype in content, "%s %s %d: content type %s not in spec" % (method, path, resp.status, ctype))
    if resp.json is not None:
        _validate(resp.json, content[ctype]["schema"])


# Responses are checked by fastjsonschema (Debian's python3-fastjsonschema),
# which compiles each schema to Python once: python3-jsonschema's
# interpreter took about 30 ms a Quantum view, most of the HTTP suites'
# CPU time (tests/README.md, "make test's time").  fastjsonschema knows
# draft 7, not the 2020-12 of OpenAPI 3.1, so each schema is rewritten
# into draft 7 first (draft7_of: the spec's only 2020-12 keyword,
# prefixItems, becomes draft 7's array `items` and `additionalItems`),
# and `format` stays an annotation as it is for python3-jsonschema
# without a format checker.  SCHEMA_CROSSCHECK (set by test_contract.py)
# also runs python3-jsonschema's Draft202012Validator on every response
# and fails when the two disagree.  use_default=False: fastjsonschema
# would otherwise write each absent property's `default` into the answer
# being checked.
SCHEMA_CROSSCHECK = False
_FORMATS = {f: (lambda _v: True) for f in ("date-time", "email", "uri", "hostname",
                                           "ipv4", "ipv6", "regex", "uuid")}
_ANNOTATIONS_2020 = ("contentSchema",)  # annotations draft 7 does not know


def draft7_of(node):
    """A copy of a 2020-12 schema (a SPEC node) as draft 7 says it.
    Raises ValueError on a 2020-12 keyword it does not rewrite, so that a
    new one in the spec cannot pass unchecked."""
    if isinstance(node, list):
        return [draft7_of(x) for x in node]
    if not isinstance(node, dict):
        return node
    unknown = {"$defs", "unevaluatedProperties", "unevaluatedItems", "dependentRequired",
               "dependentSchemas", "$dynamicRef", "$anchor", "minContains", "maxContains"} & set(node)
    if unknown:
        raise ValueError("2020-12 keywords draft7_of does not rewrite: %s" % sorted(unknown))
    out = {}
    for k, v in node.items():
        if k in _ANNOTATIONS_2020:
            continue
        if k == "$ref" and len(node) > 1:
            # 2020-12 applies $ref's siblings too; draft 7 ignores them
            out.setdefault("allOf", []).append({"$ref": v})
            continue
        out[k] = draft7_of(v)
    if "prefixItems" in out:
        rest = out.pop("items", True)
        out["items"] = out.pop("prefixItems")
        out["additionalItems"] = rest
    return out


# One compiled validator per schema object of SPEC (by identity: they
# live as long as SPEC), built at its first use.
_validators = {}
_draft7_components = None

# The spec's choices (a component schema with oneOf or anyOf: Action,
# QuantumAction, ...) cost fastjsonschema an exception for each branch an
# instance does not match (QuantumAction has 22), about 150 us an action:
# a third of test_display.py's CPU.  A check is a pure function of the
# instance (formats are annotations, use_default=False writes nothing),
# so each choice function of the generated code remembers the instances
# it found valid by their canonical JSON and passes them again at once;
# an instance it refused is checked again each time.  The generated
# functions call each other by their global names, which _compile
# rebinds.
_CHOICES = {"validate___components_schemas_" + re.sub(r"\W", "_", name.lower())
            for name, schema in SPEC["components"]["schemas"].items()
            if "oneOf" in schema or "anyOf" in schema}
_valid_seen = {}  # choice function name -> canonical JSON texts found valid


def _remembering(name, fn):
    seen = _valid_seen.setdefault(name, set())

    def check_choice(data, custom_formats={}, name_prefix=None):
        try:
            key = json.dumps(data, sort_keys=True, separators=(",", ":"))
        except (TypeError, ValueError):  # not JSON (bytes, keys not comparable)
            return fn(data, custom_formats, name_prefix)
        if key in seen:
            return data
        out = fn(data, custom_formats, name_prefix)
        if len(seen) >= 100000:
            seen.clear()
        seen.add(key)
        return out
    return check_choice


def _compile(full):
    """fastjsonschema.compile(full, formats=_FORMATS, use_default=False),
    its choice functions remembering what they passed (_CHOICES).
    fastjsonschema.compile's own steps (2.16: _factory, then exec of the
    generated code in its global state); compile itself if a later
    version has no _factory."""
    factory = getattr(fastjsonschema, "_factory", None)
    if factory is None:
        return fastjsonschema.compile(full, formats=_FORMATS, use_default=False)
    resolver, generator = factory(full, {}, _FORMATS, False)
    state = generator.global_state
    exec(generator.func_code, state)
    for name in _CHOICES & set(state):
        state[name] = _remembering(name, state[name])
    return functools.partial(state[resolver.get_scope_name()], custom_formats=_FORMATS)


def _validate(instance, schema):
    global _draft7_components
    v = _validators.get(id(schema))
    if v is None or v[0] is not schema:
        if _draft7_components is None:
            _draft7_components = draft7_of(SPEC["components"])
        full = draft7_of(schema)
        full["$schema"] = "http://json-schema.org/draft-07/schema#"
        full["components"] = _draft7_components
        slow = dict(schema)
        slow["components"] = SPEC["components"]
        v = _validators[id(schema)] = (schema, _compile(full),
                                       jsonschema.Draft202012Validator(slow))
    try:
        v[1](instance)
        fast = None
    except fastjsonschema.JsonSchemaValueException as e:
        fast = "schema: %s at %s" % (e.message, e.path)
    if SCHEMA_CROSSCHECK:
        slow = next(iter(v[2].iter_errors(instance)), None)
        check((slow is None) == (fast is None),
              "the two schema validators disagree: fastjsonschema %r, jsonschema %r on %.300r"
              % (fast, slow and slow.message, instance))
    if fast is not None:
        raise Failure(fast)


# ---- raw sockets: for what http.client will not send ----

# What libmicrohttpd answers by itself to a request it cannot parse, before
# boardd sees it (openapi.yaml, x-library-refusals): one of these statuses,
# no Content-Type (a short HTML body), and the connection closed.
LIBRARY_REFUSALS = SPEC["x-library-refusals"]["statuses"]


def is_library_refusal(resp):
    return (resp.status in LIBRARY_REFUSALS and "content-type" not in resp.headers
            and resp.headers.get("connection", "").lower() == "close")


def validate_raw(method, path, resp):
    """validate_response for an answer read off a raw socket, where the
    library's own refusals (documented in the spec) may come instead."""
    if not is_library_refusal(resp):
        validate_response(method, path, resp)


def raw_exchange(port, data, timeout=5):
    """Sends raw bytes on a fresh connection to 127.0.0.1:port and reads
    every byte the server sends until it closes the connection or
    `timeout` seconds pass.  Returns (bytes, closed): closed is False
    when the server still held the connection open."""
    c = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    out, closed = b"", False
    try:
        c.sendall(data)
        while True:
            b = c.recv(65536)
            if not b:
                closed = True
                break
            out += b
    except socket.timeout:
        pass
    finally:
        c.close()
    return out, closed


def parse_responses(data, methods=()):
    """Splits the bytes a connection sent into Responses, in order;
    methods[i] is the method of the i-th request ("HEAD" answers have no
    body).  Returns (responses, bytes left over: a partial response)."""
    out = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return out, data
        head = data[:end].decode("latin-1").split("\r\n")
        m = re.match(r"HTTP/1\.[01] (\d{3}) ", head[0] + " ")
        check(m, "not a status line: %r" % head[0])
        status = int(m.group(1))
        headers = [tuple(x.strip() for x in line.split(":", 1)) for line in head[1:]]
        hmap = {k.lower(): v for k, v in headers}
        rest = data[end + 4:]
        if status < 200:
            data = rest  # 100 Continue: the answer follows
            continue
        method = methods[len(out)] if len(out) < len(methods) else "GET"
        if method == "HEAD" or status in (204, 304):
            body = b""
        elif hmap.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                nl = rest.find(b"\r\n")
                if nl < 0:
                    return out, data
                n = int(rest[:nl], 16)
                if len(rest) < nl + 2 + n + 2:
                    return out, data
                body += rest[nl + 2:nl + 2 + n]
                rest = rest[nl + 2 + n + 2:]
                if n == 0:
                    break
        elif "content-length" in hmap:
            n = int(hmap["content-length"])
            if len(rest) < n:
                return out, data
            body, rest = rest[:n], rest[n:]
        else:
            body, rest = rest, b""  # to the close
        out.append(Response(status, headers, body))
        data = rest


# ---- the tiny runner ----

_tests = []


def test(fn):
    _tests.append(fn)
    return fn


def run_all(suite, suffix=True):
    """Runs the registered tests (or those named after the binary) and
    prints the closing line; on PostgreSQL the suite is named
    <suite>-pg (tests/run.sh runs each HTTP suite on both backends),
    unless suffix=False (a suite that runs on PostgreSQL only)."""
    if POSTGRES and suffix:
        suite += "-pg"
    binary = sys.argv[1]
    passed = failed = 0
    skipped = []
    only = sys.argv[2:] or None
    for fn in _tests:
        if only and fn.__name__ not in only:
            continue
        t0 = time.time()
        try:
            fn(binary)
            passed += 1
            print("ok   %s (%.1fs)" % (fn.__name__, time.time() - t0), flush=True)
        except Skip as e:
            skipped.append(fn.__name__)
            print("skip %s on %s: %s" % (fn.__name__, BACKEND, e), flush=True)
        except Exception as e:  # a failed check or a crash of the test
            failed += 1
            print("FAIL %s: %s" % (fn.__name__, e), flush=True)
            if not isinstance(e, Failure):
                traceback.print_exc()
    if skipped:
        print("%s: %d skipped on %s (not counted): %s"
              % (suite, len(skipped), BACKEND, ", ".join(skipped)))
    print("%s: %d passed, %d failed" % (suite, passed, failed))
    sys.exit(1 if failed else 0)
