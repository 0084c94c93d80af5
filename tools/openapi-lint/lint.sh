#!/bin/sh
# lint.sh [SPEC]: the openapi-lint suite.  Checks openapi/openapi.yaml (or
# SPEC) with the tools front ends use, installed from this folder's
# package-lock.json by `npm ci` when node_modules is missing or older than
# the lock (node and npm come from Debian: tools/deps.sh node):
#   1. Redocly CLI lint, recommended rules: no error and no warning;
#   2. swagger-parser validates it (OpenAPI 3.1 schema, every $ref);
#   3. openapi-typescript generates types, and types_test.ts (which says
#      what those types must accept and refuse) compiles with tsc --strict.
# Prints "openapi-lint: N passed, N failed"; exits non-zero on a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
spec=${1:-$root/openapi/openapi.yaml}
suite=openapi-lint
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tools/suite.sh"

if ! command -v npm >/dev/null 2>&1; then
	"$root/tools/deps.sh" node || true
fi
if ! npm_ci "$here" tools/openapi-lint; then
	echo "openapi-lint: $passed passed, $failed failed"
	exit 1
fi
bin=$here/node_modules/.bin

# 1. Redocly: exit 0 and no problem line (a warning does not change the
# exit status, so the stylish format's "line:col severity" lines count).
"$bin/redocly" lint --format=stylish "$spec" >"$tmp/redocly.log" 2>&1
st=$?
grep -qE "^ *[0-9]+:[0-9]+ +(warning|error)" "$tmp/redocly.log" && st=1
result "redocly lint" $st "$tmp/redocly.log"

# 2. swagger-parser.
node "$here/validate.mjs" "$spec" >"$tmp/swagger.log" 2>&1
result "swagger-parser validate" $? "$tmp/swagger.log"

# 3. openapi-typescript, then the type expectations.
if "$bin/openapi-typescript" "$spec" -o "$tmp/openapi.d.ts" >"$tmp/ots.log" 2>&1; then
	result "openapi-typescript generate" 0 "$tmp/ots.log"
	cp "$here/types_test.ts" "$tmp/"
	"$bin/tsc" --strict --noEmit --target ES2020 --module ES2020 \
		--moduleResolution node "$tmp/types_test.ts" >"$tmp/tsc.log" 2>&1
	result "generated types (types_test.ts)" $? "$tmp/tsc.log"
else
	result "openapi-typescript generate" 1 "$tmp/ots.log"
	failed=$((failed + 1))
fi

echo "openapi-lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
