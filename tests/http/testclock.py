"""testclock.py: the server's wall clock moved by a test (libfaketime),
shared by the suites that need days to pass (test_mail's digest,
test_vacation's accrual and clocks)."""

import os
import tempfile


FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"


class TestClock:
    """The server's wall clock, moved by the test: Debian's libfaketime
    preloaded into the servers started while it is on, reading its
    offset from a file at every call (FAKETIME_NO_CACHE); the monotonic
    clock, and waits on it, are left alone (timeouts stay real).  For the
    sanitizer build `make test` runs: the release build's jemalloc reads
    the clock while libfaketime initialises, and that server hangs."""

    def __init__(self):
        fd, self.path = tempfile.mkstemp(prefix="boardd-clock.")
        os.close(fd)
        self.set(0)
        self.saved = {k: os.environ.get(k) for k in
                      ("LD_PRELOAD", "FAKETIME_TIMESTAMP_FILE", "FAKETIME_NO_CACHE",
                       "FAKETIME_DONT_FAKE_MONOTONIC", "FAKETIME_FORCE_MONOTONIC_FIX",
                       "ASAN_OPTIONS")}
        os.environ.update({"LD_PRELOAD": FAKETIME_LIB, "FAKETIME_TIMESTAMP_FILE": self.path,
                           "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                           # its "fix", on by default with this glibc, makes
                           # pthread_cond_timedwait on a CLOCK_MONOTONIC
                           # condition time out early (README: "return with
                           # a time-out too early"): the store's write queue
                           # then answers 503 busy
                           "FAKETIME_FORCE_MONOTONIC_FIX": "0",
                           # ASan must come first unless told otherwise
                           "ASAN_OPTIONS": (os.environ.get("ASAN_OPTIONS", "") +
                                            ":verify_asan_link_order=0").lstrip(":")})

    def set(self, offset_s):
        with open(self.path + ".new", "w") as f:
            f.write("%+.3fs\n" % offset_s)
        os.replace(self.path + ".new", self.path)

    def close(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        os.unlink(self.path)
