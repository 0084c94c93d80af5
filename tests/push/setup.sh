#!/bin/sh
# setup.sh: installs this folder's npm packages (web-push-testing, the
# local push service tests/http/test_push.py runs, at the version
# package-lock.json pins) by `npm ci` when node_modules is missing or
# older than the lock.  Node and npm come from Debian (tools/deps.sh
# node).  Suites may call it at once (test_push and test_push-pg): one
# install at a time (flock(1), util-linux).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ -z "${BOARDD_PUSH_LOCKED:-}" ]; then
	export BOARDD_PUSH_LOCKED=1
	exec flock "$here/.setup.lock" sh "$0" "$@"
fi
command -v npm >/dev/null 2>&1 || "$root/tools/deps.sh" node
cd "$here"
[ -d node_modules ] && [ ! package-lock.json -nt node_modules ] && exit 0
echo "tests/push: npm ci (web-push-testing)" >&2
npm ci --no-audit --no-fund >&2
touch node_modules
