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
#      screenshots of failed tests in build/web/screens/.  Two halves
#      (WEB_PART) run at once, the first from the start.
# Prints "web: N passed, N failed"; exits non-zero on a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=$(cd "$(dirname "${1:?usage: run.sh BOARDD}")" && pwd)/$(basename "$1")
suite=web
tmp=$(mktemp -d)
# On exit, a half still running is stopped with its process group (its
# node, the boardd it started; playwright closes Chromium on SIGTERM):
# each half runs under setsid, its pid its group's.  INT, TERM and HUP go
# through the EXIT trap (dash runs no EXIT trap for a signal it dies of).
stop_halves() {
	for f in "$tmp"/browser-*.pid; do
		[ -f "$f" ] && [ ! -f "${f%.pid}.rc" ] && kill -TERM -"$(cat "$f")" 2>/dev/null
	done
}
trap 'stop_halves; rm -rf "$tmp"' EXIT
trap 'exit 143' INT TERM HUP
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

# 3. The client in a browser, in two halves at once (test_web.mjs,
# WEB_PART: the Quantum games and a server stop apart), each with its own
# boardd and Chromium: the suite takes the time of the longer half, about
# three quarters of the whole (tests/README.md, "make test's time").  The
# games half starts before the checks 1 and 2, the other after them.
# WEB_ONLY or WEB_SCREENS: one run of all.  Each half draws its taps from
# WEB_SEED by itself: a failure replays with the same WEB_PART.
# start_half PART: starts one half in the background.
start_half() {
	if [ "$1" = all ]; then
		env -u WEB_PART setsid node "$here/test_web.mjs" "$binary" >"$tmp/browser-$1.log" 2>&1 &
	else
		WEB_PART=$1 setsid node "$here/test_web.mjs" "$binary" >"$tmp/browser-$1.log" 2>&1 &
	fi
	echo $! >"$tmp/browser-$1.pid"
}
parts="rest games"
[ -n "${WEB_ONLY:-}${WEB_SCREENS:-}" ] && parts="all"
[ "$parts" = all ] || start_half games

# 1. The client against the spec's types.
mkdir -p "$root/build/web"
if "$bin/openapi-typescript" "$root/openapi/openapi.yaml" \
	-o "$root/build/web/openapi.d.ts" >"$tmp/ots.log" 2>&1; then
	"$bin/tsc" -p "$here/tsconfig.json" >"$tmp/tsc.log" 2>&1
	result "web/*.js type-check against the spec (tsc --checkJs)" $? "$tmp/tsc.log"
else
	result "openapi-typescript generate" 1 "$tmp/ots.log"
fi

# 2. The house format of the client's files (prettier, .prettierrc.json):
# `tests/web/node_modules/.bin/prettier --config tests/web/.prettierrc.json
# --write web/ tests/web/test_web.mjs` applies it.
(cd "$root" && "$bin/prettier" --config "$here/.prettierrc.json" --check \
	web/ tests/web/test_web.mjs) >"$tmp/prettier.log" 2>&1
result "web/ formatted (prettier --check)" $? "$tmp/prettier.log"

if [ "$parts" = all ]; then start_half all; else start_half rest; fi
# Each half's own lines, then its counts.
for part in $parts; do
	wait "$(cat "$tmp/browser-$part.pid")"
	st=$?
	echo "$st" >"$tmp/browser-$part.rc" # ended: stop_halves leaves it
	grep -v '^web-browser: ' "$tmp/browser-$part.log"
	line=$(grep -E '^web-browser: [0-9]+ passed, [0-9]+ failed$' "$tmp/browser-$part.log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "web: the browser tests ($part) printed no summary (exit $st)"
		failed=$((failed + 1))
		continue
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed/\1/')
	[ "$st" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	passed=$((passed + p))
	failed=$((failed + f))
done
finish
