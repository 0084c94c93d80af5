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


@test
def a_bad_file_refuses_to_start(binary):
    """Each fault: exit 2, one sentence naming the file and the line,
    and no database made (bad input changes nothing)."""
    d = tempfile.mkdtemp(prefix="boardd-deploy-")
    db = os.path.join(d, "never.db")
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


if __name__ == "__main__":
    run_all("deploy")
