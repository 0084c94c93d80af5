#!/bin/sh
# run.sh BOARDD: the web suite.  The reference web client (web/) checked
# three ways, with the tools installed here by `npm ci` from this folder's
# package-lock.json when node_modules is missing or older than the lock
# (node, npm and Debian's chromium come from tools/deps.sh node web):
#   1. types: openapi-typescript generates build/web/openapi.d.ts from
#      openapi/openapi.yaml, and tsc --noEmit --checkJs (tsconfig.json)
#      checks web/*.js, whose JSDoc types name those generated types;
#   2. format: prettier --check over web/ and test_web.mjs;
#   3. browser: test_web.mjs starts its own BOARDD and drives the client
#      in headless Chromium (playwright-core), two players clicking
#      through a whole Agent Avenue game and several Quantum turns;
#      screenshots of failed tests in build/web/screens/.
# Prints "web: N passed, N failed"; exits non-zero on a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$(cd "$(dirname "${1:?usage: run.sh BOARDD}")" && pwd)/$(basename "$1")
suite=web
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tools/suite.sh"

finish() {
	echo "web: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

# Only what is missing (a machine may have its own node and npm).
groups=""
command -v npm >/dev/null 2>&1 || groups="node"
[ -x /usr/bin/chromium ] || groups="$groups web"
if [ -n "$groups" ]; then
	# shellcheck disable=SC2086
	"$root/tools/deps.sh" $groups >"$tmp/deps.log" 2>&1
	result "deps.sh$groups" $? "$tmp/deps.log"
fi
npm_ci "$here" tests/web || finish
bin=$here/node_modules/.bin

# 1. The client against the spec's types.
mkdir -p "$root/build/web"
if "$bin/openapi-typescript" "$root/openapi/openapi.yaml" \
	-o "$root/build/web/openapi.d.ts" >"$tmp/ots.log" 2>&1; then
	"$bin/tsc" -p "$here/tsconfig.json" >"$tmp/tsc.log" 2>&1
	result "web/*.js type-check against the spec (tsc --checkJs)" $? "$tmp/tsc.log"
else
	result "openapi-typescript generate" 1 "$tmp/ots.log"
fi

# The house format of the client's files (prettier, .prettierrc.json):
# `tests/web/node_modules/.bin/prettier --config tests/web/.prettierrc.json
# --write web/ tests/web/test_web.mjs` applies it.
(cd "$root" && "$bin/prettier" --config "$here/.prettierrc.json" --check \
	web/ tests/web/test_web.mjs) >"$tmp/prettier.log" 2>&1
result "web/ formatted (prettier --check)" $? "$tmp/prettier.log"

# 3. The client in a browser: its own lines, then its counts.
node "$here/test_web.mjs" "$binary" >"$tmp/browser.log" 2>&1
st=$?
grep -v '^web-browser: ' "$tmp/browser.log"
line=$(grep -E '^web-browser: [0-9]+ passed, [0-9]+ failed$' "$tmp/browser.log" | tail -n 1)
if [ -z "$line" ]; then
	echo "web: the browser tests printed no summary (exit $st)"
	failed=$((failed + 1))
else
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed/\1/')
	[ "$st" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	passed=$((passed + p))
	failed=$((failed + f))
fi
finish
