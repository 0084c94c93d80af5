#!/bin/sh
# deps.sh [fuzz] [lint] [valgrind] [node] [web] [bench]: installs the Debian 12 packages the build and
# the tests need, and only those that are missing.  Called by `make deps`
# (and so by `make run` and `make test`); `make fuzz` adds clang and its
# sanitizer runtime, `make lint` and `make format` add their tools,
# `make bench` adds wrk (its HTTP load generator), the web suite
# (tests/web/run.sh) Debian's chromium for its headless browser.  Safe
# to run again: it does nothing when everything is present.
set -eu

PKGS="gcc make libc6-dev libmicrohttpd-dev libjansson-dev libsqlite3-dev \
libpq-dev libsodium-dev libssl-dev libcurl4-openssl-dev zlib1g-dev libbrotli-dev libjemalloc-dev libicu-dev python3 python3-yaml python3-jsonschema python3-fastjsonschema python3-cryptography python3-aiosmtpd libfaketime curl jq \
postgresql python3-psycopg2 python3-prometheus-client libsystemd-dev age sqlite3 cmark-gfm"
# brotli: tools/embed.sh compresses the web client and the rules pages at
# build time; python3-brotli: test_compression decodes br answers.
PKGS="$PKGS brotli python3-brotli"
# libqrencode-dev: the QR code of a link code's claim URL (identity.c);
# librsvg2-bin and zbar-tools: the tests render that SVG to PNG
# (rsvg-convert) and decode it with an implementation not ours (zbarimg).
PKGS="$PKGS libqrencode-dev librsvg2-bin zbar-tools"
for group in "$@"; do
	case "$group" in
	fuzz) PKGS="$PKGS clang libclang-rt-14-dev" ;;
	lint) PKGS="$PKGS cppcheck clang-format" ;;
	valgrind) PKGS="$PKGS valgrind" ;;
	node) PKGS="$PKGS nodejs npm" ;; # tools/openapi-lint, tests/web, tests/push (npm ci)
	web) PKGS="$PKGS chromium fonts-liberation" ;; # tests/web: playwright-core drives it (installed without Recommends: its fonts named)
	bench) PKGS="$PKGS wrk" ;;
	*) echo "deps: unknown group $group" >&2; exit 2 ;;
	esac
done

# One install at a time: suites that run in parallel (tests/run.sh) may
# each call this; apt-get refuses a second dpkg lock holder.  flock(1) is
# util-linux's, on every Debian system.
if [ "$(id -u)" = 0 ] && [ -z "${BOARDD_DEPS_LOCKED:-}" ]; then
	export BOARDD_DEPS_LOCKED=1
	exec flock /tmp/boardd-deps.lock sh "$0" "$@"
fi

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: not root; run as root or install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
