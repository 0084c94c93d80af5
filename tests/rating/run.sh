#!/bin/sh
# run.sh RATING_CLI: the rating oracle suite.  src/rating (through the
# small program RATING_CLI, tests/rating/rating_cli.c) against npm's
# glicko2 and openskill, installed here by `npm ci` from this folder's
# package-lock.json when node_modules is missing or older than the lock
# (node and npm from tools/deps.sh node).  Prints
# "rating-oracle: N passed, N failed"; exits non-zero on a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cli=$(cd "$(dirname "${1:?usage: run.sh RATING_CLI}")" && pwd)/$(basename "$1")
suite=rating-oracle
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tools/suite.sh"

if ! command -v npm >/dev/null 2>&1; then
	"$root/tools/deps.sh" node >"$tmp/deps.log" 2>&1
	result "deps.sh node" $? "$tmp/deps.log"
fi
if ! npm_ci "$here" tests/rating; then
	echo "$suite: $passed passed, $failed failed"
	exit 1
fi
exec node "$here/oracle.mjs" "$cli"
