"""test_deploy.py: what deploy/ and docs/operations.md promise an operator
(issue 35), each with a real boardd process:

- the config file (--config): settings come from it, a flag and the
  environment beat it, a bad file refuses to start with a sentence
  naming the file and line (and creates nothing), SIGHUP reloads the
  live settings, says which restart-only ones changed, and keeps every
  setting when the new file is bad;
- systemd's notify protocol: with NOTIFY_SOCKET a socket this suite
  reads, READY=1 arrives once the server listens, WATCHDOG=1 at half of
  WATCHDOG_USEC, RELOADING=1/READY=1 around SIGHUP, STOPPING=1 at the
  stop; the units of deploy/ verify with systemd-analyze and the
  server's is rated 3.0 or lower by `systemd-analyze security`;
- deploy/boardd-backup: a backup (with the key file, encrypted with age
  when a recipient is given) restores into a fresh place, a server
  starts on it, and the games go on.

Part of tests/run.sh (make test), on SQLite and on PostgreSQL."""
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from gamehelp import actions, create, game, move, server
from webhookhelp import new_player
import harness
from harness import POSTGRES, SLOW, Server, Skip, WRAP, check, run_all, test

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEPLOY = os.path.join(ROOT, "deploy")


def wait_until(what, cond, seconds=30):
    """Polls cond() (a bound for something that must happen, not a
    latency) and returns its first true value."""
    end = time.monotonic() + seconds * SLOW
    while True:
        v = cond()
        if v:
            return v
        check(time.monotonic() < end, "%s: not within %d s" % (what, seconds * SLOW))
        time.sleep(0.05)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


class Process:
    """A boardd started by this suite with exactly the arguments and
    environment given (no --port or --db of the harness's), its stderr
    in self.log."""

    def __init__(self, binary, args, env=None, directory=None):
        self.dir = directory or tempfile.mkdtemp(prefix="boardd-deploy-")
        self.log = os.path.join(self.dir, "stderr.%d.log" % time.monotonic_ns())
        e = dict(os.environ)
        e.update(env or {})
        for k in [k for k, v in e.items() if v is None]:
            del e[k]
        with open(self.log, "wb") as f:
            self.proc = subprocess.Popen(WRAP + [binary] + list(args), env=e,
                                         stdout=subprocess.DEVNULL, stderr=f)
        self.port = None

    def lines(self):
        return read(self.log).splitlines()

    def started(self):
        """Waits for the "listening on" line; self.port."""
        def port():
            check(self.proc.poll() is None, "exited %s: %s" % (self.proc.poll(), read(self.log)))
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", read(self.log))
            return int(m.group(1)) if m else None
        self.port = wait_until("the listening line", port, 60)
        return self

    def get(self, path):
        import http.client
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.read()
        finally:
            c.close()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout=60 * SLOW)
        check(rc == 0, "exit %r: %s" % (rc, read(self.log)[-2000:]))

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def store_lines(s):
    """The config file lines naming Server s's store (db, and on
    PostgreSQL the key file): the store comes from the file too."""
    args = s.store_args()
    out = []
    for i in range(0, len(args), 2):
        out.append("%s = %s" % (args[i][2:], args[i + 1]))
    return out


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


@contextlib.contextmanager
def harness_store(binary):
    """A stopped Server: a migrated store (SQLite file or PostgreSQL
    database) and its key, for a Process to start on; removed after."""
    s = Server(binary)
    try:
        s.stop()
        yield s
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
        s.cleanup()


# ---- the config file ----

@test
def config_file_settings_apply(binary):
    """Every setting from the file alone: port 0 (not the default 8080),
    the store, the JSON log format, /metrics off, the access log on; a
    comment, a blank line and blanks around '=' are fine."""
    with harness_store(binary) as s:
        conf = os.path.join(s.dir, "boardd.conf")
        write(conf, ["# boardd's settings", "", "addr = 127.0.0.1", "port=0"] +
              store_lines(s) + ["log-format   =  json", "metrics = off", "quiet = false",
                                "drain-seconds = 0"])
        p = Process(binary, ["--config", conf], env={"BOARDD_DRAIN_SECONDS": None},
                    directory=s.dir)
        try:
            p.started()
            check(p.port != 8080, "port 0 from the file: %d" % p.port)
            status, _ = p.get("/metrics")
            check(status == 404, "metrics = off: %d" % status)
            check(p.get("/v1/catalog")[0] == 200, "served")
            p.stop()
            objs = [json.loads(l) for l in p.lines()]
            check(any(o.get("type") == "access" and o.get("path") == "/v1/catalog" for o in objs),
                  "a JSON access line: %r" % objs[-4:])
        finally:
            p.kill()


@test
def a_flag_and_the_environment_beat_the_file(binary):
    """The file says metrics off and log-format json; --metrics any on
    the command line and BOARDD_LOG_FORMAT=text in the environment win.
    BOARDD_CONFIG names the file as --config does."""
    with harness_store(binary) as s:
        conf = os.path.join(s.dir, "boardd.conf")
        write(conf, ["port = 0"] + store_lines(s) + ["metrics = off", "log-format = json"])
        p = Process(binary, ["--metrics", "any"],
                    env={"BOARDD_CONFIG": conf, "BOARDD_LOG_FORMAT": "text"}, directory=s.dir)
        try:
            p.started()
            status, body = p.get("/metrics")
            check(status == 200 and b"boardd_build_info" in body, "--metrics any won: %d" % status)
            p.stop()
            check(all(not l.startswith("{") for l in p.lines()) and
                  "boardd: stopped cleanly, exit 0" in p.lines(),
                  "BOARDD_LOG_FORMAT=text won: %r" % p.lines()[-3:])
        finally:
            p.kill()


@test
def the_shipped_example_file_is_taken(binary):
    """deploy/boardd.conf as shipped starts a server (its db and port
    overridden by flags, which win)."""
    with harness_store(binary) as s:
        p = Process(binary, ["--config", os.path.join(DEPLOY, "boardd.conf"), "--port", "0"] +
                    s.store_args(), directory=s.dir)
        try:
            p.started()
            check(p.get("/readyz")[0] == 200, "ready")
            p.stop()
        finally:
            p.kill()
    check("--config /etc/boardd/boardd.conf" in read(os.path.join(DEPLOY, "boardd.service")),
          "the unit reads it")


@test
def every_flag_is_a_setting_of_the_file(binary):
    """Each flag boardd --help lists (but --config and the commands) is
    taken as a line of the file: `boardd --config F --version` reads F
    before it prints the version, so an unknown name would exit 2.  The
    README's flag table names the same flags."""
    d = tempfile.mkdtemp(prefix="boardd-deploy-")
    try:
        help_text = subprocess.run([binary, "--help"], capture_output=True, text=True,
                                   timeout=60 * SLOW).stdout
        flags = sorted(set(re.findall(r"--([a-z][a-z-]+)", help_text)) -
                       {"config", "version", "help"})
        check(len(flags) >= 40, "the flags: %r" % flags)
        readme = read(os.path.join(ROOT, "README.md"))
        conf = os.path.join(d, "one.conf")
        for name in flags:
            switch = name in ("quiet", "webhook-allow-private")
            write(conf, ["%s = %s" % (name, "true" if switch else "1")])
            r = subprocess.run([binary, "--config", conf, "--version"], capture_output=True,
                               text=True, timeout=60 * SLOW)
            check(r.returncode == 0 and r.stdout.startswith("boardd "),
                  "%s: %d %s" % (name, r.returncode, r.stderr))
            check("`--%s" % name in readme, "README.md's table lacks --%s" % name)
        check("`--config PATH`" in readme, "README.md names --config")
    finally:
        shutil.rmtree(d, ignore_errors=True)


@test
def a_bad_file_refuses_to_start(binary):
    """Each fault: exit 2, one sentence naming the file and the line,
    and no database made (bad input changes nothing)."""
    d = tempfile.mkdtemp(prefix="boardd-deploy-")
    db = os.path.join(d, "never.db")
    try:
        cases = [
            (["port = 0", "prot = 8081"], r":2: unknown setting \"prot\""),
            (["port = 0", "just words"], r":2: not a setting \(expected name = value\)"),
            (["port = 0", "port = 1"], r":2: \"port\" is set twice"),
            (["quiet = yes"], r":1: \"quiet\" is a switch: true or false"),
            (["threads ="], r":1: a setting without a value"),
            (["config = other.conf"], r":1: unknown setting \"config\""),
            (["--port = 0"], r":1: unknown setting \"--port\""),
        ]
        for lines, want in cases:
            conf = os.path.join(d, "bad.conf")
            write(conf, ["db = " + db] + lines)
            p = Process(binary, ["--config", conf], directory=d)
            rc = p.proc.wait(timeout=60 * SLOW)
            out = read(p.log)
            check(rc == 2, "%r: exit %r: %s" % (lines, rc, out))
            # the line numbers count the db line first
            n = int(re.search(r":(\d+):", want).group(1)) + 1
            check(re.search(re.escape(conf) + ":%d:" % n + want.split(":", 2)[2], out),
                  "%r: the message: %s" % (lines, out))
            check(not os.path.exists(db), "%r: a database was made" % lines)
        # a value the flags would refuse is refused from the file too
        write(os.path.join(d, "bad.conf"), ["db = " + db, "port = 70000"])
        p = Process(binary, ["--config", os.path.join(d, "bad.conf")], directory=d)
        check(p.proc.wait(timeout=60 * SLOW) == 2 and "out of range" in read(p.log) and
              os.path.join(d, "bad.conf") in read(p.log), "port 70000: %s" % read(p.log))
        # a file that is not there
        p = Process(binary, ["--config", os.path.join(d, "missing.conf")], directory=d)
        check(p.proc.wait(timeout=60 * SLOW) == 2 and
              re.search(r"missing\.conf: cannot read the config file: No such file", read(p.log)),
              "missing: %s" % read(p.log))
        check(not os.path.exists(db), "a database was made")
    finally:
        shutil.rmtree(d, ignore_errors=True)


@test
def sighup_reloads_the_live_settings(binary):
    """At log-level info a /healthz is not logged; after the file says
    debug and SIGHUP, it is, and the log says so; a restart-only change
    (threads) is named as such and a flag-set one as unchanged.  A file
    made bad meanwhile: SIGHUP says so, every setting stays (debug
    still), the server goes on."""
    with harness_store(binary) as s:
        conf = os.path.join(s.dir, "boardd.conf")
        base = ["port = 0"] + store_lines(s) + ["quiet = false"]
        write(conf, base + ["log-level = info", "threads = 2", "metrics = off"])
        p = Process(binary, ["--config", conf, "--metrics", "loopback"], directory=s.dir)
        try:
            p.started()
            p.get("/healthz")
            p.get("/v1/catalog")
            wait_until("the catalog's line", lambda: any("GET /v1/catalog 200" in l for l in p.lines()))
            check(not any("GET /healthz" in l for l in p.lines()), "a probe at info: %r" % p.lines())
            write(conf, base + ["log-level = debug", "threads = 3", "metrics = any"])
            p.proc.send_signal(signal.SIGHUP)
            wait_until("the reload's lines", lambda: any("SIGHUP: no --log-file" in l for l in p.lines()))
            said = "\n".join(p.lines())
            check("SIGHUP: log-level is now debug" in said, "live: %s" % said)
            check(re.search(r"SIGHUP: threads changed in .*boardd\.conf; it takes effect at the "
                            r"next restart only", said), "restart-only: %s" % said)
            check(re.search(r"SIGHUP: metrics changed in .*, but a flag or the environment sets "
                            r"it: unchanged", said), "flag-set: %s" % said)
            p.get("/healthz")
            wait_until("a probe's line at debug", lambda: any("GET /healthz 200" in l for l in p.lines()))
            check(p.get("/metrics")[0] == 200, "--metrics loopback still")
            with open(conf, "a") as f:
                f.write("no equals sign here\n")
            p.proc.send_signal(signal.SIGHUP)
            wait_until("the refusal", lambda: any("every setting stays as it was" in l
                                                  for l in p.lines()))
            check(any(re.search(r"boardd\.conf:%d: not a setting" % (len(base) + 4), l)
                      for l in p.lines()), "names the line: %r" % p.lines()[-4:])
            n = sum("GET /healthz 200" in l for l in p.lines())
            p.get("/healthz")
            wait_until("debug kept", lambda: sum("GET /healthz 200" in l for l in p.lines()) > n)
            p.stop()
        finally:
            p.kill()


# ---- systemd ----

class NotifySocket:
    """A datagram socket standing in for systemd's NOTIFY_SOCKET: every
    datagram's lines, with the time it came, in self.got."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.2)
        self.got = []  # (time.monotonic(), "NAME=value")
        self.done = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        while not self.done:
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            now = time.monotonic()
            self.got.extend((now, l) for l in data.decode().split("\n") if l)

    def names(self):
        return [l for _, l in list(self.got)]

    def close(self):
        self.done = True
        self.t.join()
        self.sock.close()


@test
def the_server_tells_systemd_ready_watchdog_reloading_stopping(binary):
    """NOTIFY_SOCKET and WATCHDOG_USEC=1 s as systemd sets them: READY=1
    arrives once the server listens (after its migration lines), then
    WATCHDOG=1 about every half second while /healthz answers;
    RELOADING=1 and READY=1 around a SIGHUP; STOPPING=1 at SIGTERM.  On
    SQLite, once the database file is gone (/healthz 503) the pings
    stop, so systemd would restart it."""
    d = tempfile.mkdtemp(prefix="boardd-notify-")
    ns = NotifySocket(d)
    saved = {k: os.environ.get(k) for k in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    os.environ.update(NOTIFY_SOCKET=ns.path, WATCHDOG_USEC="1000000")
    try:
        s = Server(binary, quiet=False, fresh=True)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        wait_until("READY=1", lambda: "READY=1" in ns.names())
        log = read(s.log)
        check("listening on" in log and "migration 1 " in log,
              "READY=1 after migrating and listening: %s" % log[-500:])
        wait_until("three WATCHDOG=1", lambda: ns.names().count("WATCHDOG=1") >= 3)
        pings = [t for t, l in ns.got if l == "WATCHDOG=1"]
        check(all(b - a < 5 * SLOW for a, b in zip(pings, pings[1:])),
              "pings at about half of WATCHDOG_USEC: %r" % pings)
        s.proc.send_signal(signal.SIGHUP)
        wait_until("RELOADING=1 then READY=1", lambda: ns.names().count("READY=1") >= 2)
        names = ns.names()
        check("RELOADING=1" in names and names.index("RELOADING=1") <
              len(names) - 1 - names[::-1].index("READY=1"), "the order: %r" % names)
        if not POSTGRES:
            s.break_store()
            wait_until("/healthz 503", lambda: s.request("GET", "/healthz", validate=False)
                       .status == 503)
            time.sleep(0.6 * SLOW)  # a ping already under way may still arrive
            n = ns.names().count("WATCHDOG=1")
            time.sleep(3)
            check(ns.names().count("WATCHDOG=1") == n, "no WATCHDOG=1 while unhealthy")
            check(any("watchdog: GET /healthz failed" in l for l in read(s.log).splitlines()),
                  "the log says why")
            s.proc.send_signal(signal.SIGTERM)
            s.proc.wait(timeout=60 * SLOW)
        else:
            s.stop()
        wait_until("STOPPING=1", lambda: "STOPPING=1" in ns.names())
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait()
        s.cleanup()
        ns.close()
        shutil.rmtree(d, ignore_errors=True)


def units_in(directory, binary):
    """deploy/'s units copied into directory with their programs pointed
    at this build's binary and this tree's scripts (systemd-analyze
    verify checks that they exist and are executable)."""
    names = sorted(n for n in os.listdir(DEPLOY) if n.endswith((".service", ".timer")))
    for n in names:
        text = read(os.path.join(DEPLOY, n))
        text = text.replace("/usr/local/bin/boardd", os.path.abspath(binary))
        text = text.replace("/usr/local/sbin/boardd-backup",
                            os.path.join(DEPLOY, "boardd-backup"))
        with open(os.path.join(directory, n), "w") as f:
            f.write(text)
    return names


def systemd_analyze():
    tool = shutil.which("systemd-analyze")
    if not tool:
        raise Skip("no systemd-analyze on this machine")
    return tool


@test
def the_units_verify(binary):
    """systemd-analyze verify finds nothing to say about any unit of
    deploy/ (the template as an instance), and does find a unit with an
    unknown option (so the check can fail)."""
    tool = systemd_analyze()
    d = tempfile.mkdtemp(prefix="boardd-units-")
    try:
        names = [n.replace("@.", "@8081.") for n in units_in(d, binary)]
        check("boardd.service" in names and "boardd-backup.timer" in names, "units: %r" % names)
        r = subprocess.run([tool, "verify"] + names, cwd=d, capture_output=True, text=True,
                           timeout=120)
        check(r.returncode == 0 and not r.stdout.strip() and not r.stderr.strip(),
              "verify: %d %s %s" % (r.returncode, r.stdout, r.stderr))
        with open(os.path.join(d, "boardd.service"), "a") as f:
            f.write("\n[Service]\nWatchdogSecs=1\n")
        r = subprocess.run([tool, "verify", "boardd.service"], cwd=d, capture_output=True,
                           text=True, timeout=120)
        check("WatchdogSecs" in r.stderr, "a bad unit is found: %s" % r.stderr)
    finally:
        shutil.rmtree(d, ignore_errors=True)


@test
def the_server_units_are_rated_3_or_lower(binary):
    """systemd-analyze security --offline=yes rates boardd.service and
    boardd@.service 3.0 or lower (issue 35: it was 8.3 "EXPOSED"), and
    still says Type=notify with a watchdog."""
    tool = systemd_analyze()
    d = tempfile.mkdtemp(prefix="boardd-units-")
    try:
        units_in(d, binary)
        for unit in ("boardd.service", "boardd@.service"):
            r = subprocess.run([tool, "security", "--offline=yes", "--no-pager",
                                os.path.join(d, unit)], capture_output=True, text=True,
                               timeout=120)
            if "Unknown option" in r.stderr or "unrecognized option" in r.stderr:
                raise Skip("this systemd-analyze has no --offline")
            m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", r.stdout)
            check(m and float(m.group(1)) <= 3.0, "%s: %s %s" % (unit, r.stdout[-300:],
                                                                r.stderr))
            text = read(os.path.join(DEPLOY, unit))
            check(re.search(r"^Type=notify$", text, re.M) and
                  re.search(r"^WatchdogSec=\d+", text, re.M), "%s: notify, watchdog" % unit)
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---- backups ----

BACKUP = os.path.join(DEPLOY, "boardd-backup")


def run_backup(args, env, ok=True):
    """deploy/boardd-backup with args and env (added to ours); its
    CompletedProcess, checked to exit 0 when ok."""
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run(["sh", BACKUP] + args, env=e, capture_output=True, text=True,
                       timeout=300 * SLOW)
    if ok:
        check(r.returncode == 0, "boardd-backup %s: %d %s %s" % (args, r.returncode, r.stdout,
                                                                 r.stderr))
    return r


def store_env(db, key):
    return {"BOARDD_DB": db, "BOARDD_SECRET_KEY": key}


@test
def a_backup_restores_elsewhere_and_games_go_on(binary):
    """deploy/boardd-backup while the server runs, encrypted to an age
    recipient: one .tar.age holding neither the key nor the database in
    the clear; restored (with the age identity) into a fresh place, a
    server starts on it, the game's moves and the player's token and
    sealed webhook secret are there, and the game goes on.  Restoring
    over the restored files is refused and changes nothing.  Without a
    recipient the archive is a plain tar holding the key file."""
    for tool in ("age", "age-keygen", "sqlite3", "pg_dump", "pg_restore"):
        if not shutil.which(tool):
            raise Skip("no %s (tools/deps.sh installs it)" % tool)
    work = tempfile.mkdtemp(prefix="boardd-backup-")
    ident = os.path.join(work, "identity.txt")
    subprocess.run(["age-keygen", "-o", ident], check=True, capture_output=True)
    recipient = subprocess.run(["age-keygen", "-y", ident], check=True, capture_output=True,
                               text=True).stdout.strip()
    out = os.path.join(work, "backups")
    restored_db = None
    try:
        with server(binary) as s:
            gid, tokens = create(s)
            first = None
            for tok in tokens:
                a = actions(s, gid, tok)
                if a:
                    first = move(s, gid, tok, a[0])
                    break
            check(first is not None and first.status == 201, "a move: %r" % first)
            seq = game(s, gid, tokens[0])["seq"]
            url = "https://93.184.216.34/hooks/boardd"
            _, ptok = new_player(s, "Ada")
            r = s.request("PUT", "/v1/players/me/webhook", {"url": url}, token=ptok)
            check(r.status in (200, 201), "webhook: %r" % r)
            env = dict(store_env(s.db, s.key), BACKUP_DIR=out, BACKUP_AGE_RECIPIENT=recipient)
            r = run_backup(["backup"], env)
            check(s.request("GET", "/healthz").status == 200, "served meanwhile")
            names = os.listdir(out)
            check(len(names) == 1 and re.match(r"boardd-\d{8}T\d{6}Z\.tar\.age$", names[0]),
                  "one encrypted archive: %r %s" % (names, r.stdout))
            archive = os.path.join(out, names[0])
            check(os.stat(archive).st_mode & 0o077 == 0, "mode 0600")
            blob = open(archive, "rb").read()
            key = open(s.key, "rb").read()
            check(key not in blob and b"secret.key" not in blob and b"SQLite format" not in blob
                  and b"PGDMP" not in blob, "encrypted: nothing in the clear")
            plain = run_backup(["backup"], dict(store_env(s.db, s.key),
                                                BACKUP_DIR=os.path.join(work, "plain")))
            check("NOT encrypted" in plain.stdout, "says it: %s" % plain.stdout)
            tars = os.listdir(os.path.join(work, "plain"))
            check(len(tars) == 1 and tars[0].endswith(".tar") and
                  key in open(os.path.join(work, "plain", tars[0]), "rb").read(),
                  "a plain tar with the key: %r" % tars)
        # a fresh place: another directory, another database
        fresh = os.path.join(work, "fresh")
        os.mkdir(fresh)
        if POSTGRES:
            restored_db = harness.pg_create_database()
            new_key = os.path.join(fresh, "server.key")
        else:
            restored_db = os.path.join(fresh, "restored.db")
            new_key = restored_db + ".key"
        renv = dict(store_env(restored_db, new_key), BACKUP_AGE_IDENTITY=ident)
        no_id = run_backup(["restore", archive], store_env(restored_db, new_key), ok=False)
        check(no_id.returncode != 0 and "BACKUP_AGE_IDENTITY" in no_id.stderr,
              "an encrypted archive needs the identity: %s" % no_id.stderr)
        run_backup(["restore", archive], renv)
        check(open(new_key, "rb").read() == key and os.stat(new_key).st_mode & 0o077 == 0,
              "the key file restored, 0600")
        again = run_backup(["restore", archive], renv, ok=False)
        check(again.returncode != 0 and "nothing was changed" in again.stderr,
              "a second restore refused: %s" % again.stderr)
        if POSTGRES:
            harness._pg_keys[restored_db] = new_key
        s2 = Server(binary, db=restored_db)
        try:
            g = game(s2, gid, tokens[0])
            check(g["seq"] == seq, "the moves are there: %r vs %r" % (g["seq"], seq))
            r = s2.request("GET", "/v1/players/me/webhook", token=ptok)
            check(r.status == 200 and r.json["url"] == url, "the sealed webhook: %r" % r)
            played = None
            for tok in tokens:
                a = actions(s2, gid, tok)
                if a:
                    played = move(s2, gid, tok, a[0])
                    break
            check(played is not None and played.status == 201 and played.json["seq"] == seq + 1,
                  "the game goes on: %r" % played)
            s2.stop()
            # issue 35 item 8: a start without the key file, on a
            # database whose secrets another key sealed, refuses and
            # leaves no key file behind; the right one put back works
            os.rename(new_key, new_key + ".kept")
            p = Process(binary, ["--addr", "127.0.0.1", "--port", "0", "--push-contact",
                                 "mailto:ops@example.org"] + s2.store_args(), directory=fresh)
            rc = p.proc.wait(timeout=60 * SLOW)
            check(rc == 1 and "does not open the webhook secrets" in read(p.log) and
                  "removed the key file" in read(p.log) and
                  "removed the VAPID key file" in read(p.log), "refused: %r %s" % (rc, read(p.log)))
            check(not os.path.exists(new_key) and not os.path.exists(new_key + ".vapid"),
                  "no wrong key file left behind")
            os.rename(new_key + ".kept", new_key)
            s2.start()
            check(game(s2, gid, tokens[0])["seq"] == seq + 1, "the right key works")
            s2.stop()
        finally:
            if s2.proc.poll() is None:
                s2.proc.kill()
            s2.cleanup()
    finally:
        if POSTGRES and restored_db:
            harness._pg_keys.pop(restored_db, None)
            harness.pg_drop_database(restored_db)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    run_all("deploy")
