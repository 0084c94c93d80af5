#!/usr/bin/env python3
"""callgraph.py BUILD_DIR: layers call down, never up (../shared/style.md,
docs/architecture.md).

The file-level call graph of src/, from the objects make built: file A
uses file B when an external symbol A's object needs (nm -u) is one B's
object defines (nm --defined-only -g): a call, or a function or table
taken by address.  Static functions are file-local, so they never make
an edge.  Within each of the folders below, no two files may use each
other both ways.

tests/callgraph-known.txt lists the pairs that still do, one "a.c b.c" a
line (the renovation of issue 30 removes them one by one): a pair not
listed fails, and so does a listed pair that no longer uses each other
both ways (take it off the list), so the list can only shrink.  Prints
each pair with the symbols each way, then "callgraph: N passed, N failed".
"""
import collections
import os
import subprocess
import sys

FOLDERS = ("src/http/", "src/service/", "src/store/", "src/games/quantum/")
HERE = os.path.dirname(os.path.abspath(__file__))
KNOWN = os.path.join(HERE, "callgraph-known.txt")


def symbols(objs, *flags):
    """{object: [symbol names]} from one nm over every object in objs
    (-A: each line names its object; one process, not one per object)."""
    out = subprocess.run(["nm", "-A", *flags, *objs], capture_output=True,
                         text=True, check=True).stdout
    syms = {obj: [] for obj in objs}
    for line in out.splitlines():
        if line.strip():
            obj, rest = line.split(":", 1)
            syms[obj].append(rest.split()[-1])
    return syms


def graph(build):
    """{file: {other file: sorted symbols file uses of other}} over src/."""
    objs = sorted(os.path.join(root, f)
                  for root, _, files in os.walk(os.path.join(build, "src"))
                  for f in files if f.endswith(".o"))
    src = {obj: os.path.relpath(obj, build)[:-2] + ".c" for obj in objs}
    defined, needs = {}, {}
    for obj, syms in symbols(objs, "--defined-only", "-g").items():
        for sym in syms:
            defined[sym] = src[obj]
    for obj, syms in symbols(objs, "-u").items():
        needs[src[obj]] = syms
    uses = collections.defaultdict(lambda: collections.defaultdict(set))
    for file, syms in needs.items():
        for sym in syms:
            other = defined.get(sym)
            if other and other != file:
                uses[file][other].add(sym)
    return uses


def both_ways(uses):
    """{(a, b): (a's uses of b, b's uses of a)} for a < b in one folder."""
    out = {}
    for a in uses:
        for b in uses[a]:
            if a < b and a in uses.get(b, {}) and any(
                    a.startswith(d) and b.startswith(d) for d in FOLDERS):
                out[(a, b)] = (sorted(uses[a][b]), sorted(uses[b][a]))
    return out


def main():
    build = sys.argv[1]
    with open(KNOWN) as f:
        known = {tuple(line.split()) for line in f
                 if line.strip() and not line.startswith("#")}
    found = both_ways(graph(build))
    failed = 0
    for (a, b), (ab, ba) in sorted(found.items()):
        listed = (a, b) in known
        print("%s %s <-> %s\n       %s uses %s\n       %s uses %s"
              % ("known" if listed else "FAIL ", a, b, a, ", ".join(ab), b, ", ".join(ba)))
        if not listed:
            failed += 1
    for a, b in sorted(known - set(found)):
        print("FAIL  %s <-> %s is listed in %s but no longer both ways: take it off"
              % (a, b, os.path.relpath(KNOWN)))
        failed += 1
    print("callgraph: %d file pairs that use each other both ways (%d still listed as known)"
          % (len(found), len(known & set(found))))
    # One check: the graph; a failure per pair not listed or listed stale.
    print("callgraph: %d passed, %d failed" % (0 if failed else 1, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
