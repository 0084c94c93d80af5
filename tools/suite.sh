# suite.sh: sourced by the suites written in shell (tools/openapi-lint/lint.sh,
# tests/web/run.sh): how they count their checks and install their npm
# packages.  The sourcing script sets `suite` (its name in its closing line,
# "<suite>: N passed, N failed") and `tmp` (a scratch directory of its own).
passed=0
failed=0

# result NAME STATUS LOG: counts one check, shows the head of its log when
# it failed.
result() {
	if [ "$2" -eq 0 ]; then
		echo "$suite: $1 ok"
		passed=$((passed + 1))
	else
		echo "$suite: $1 FAILED"
		sed 's/^/    /' "$3" | head -80
		failed=$((failed + 1))
	fi
}

# npm_ci DIR LABEL: changes to DIR and runs `npm ci` there (the npm
# registry, package-lock.json) when node_modules is missing or older than
# the lock file.  Returns 0, or 1 once the failure is counted.
npm_ci() {
	cd "$1" || return 1
	[ -d node_modules ] && [ ! package-lock.json -nt node_modules ] && return 0
	echo "$suite: npm ci ($2)"
	if npm ci --no-audit --no-fund >"$tmp/npm.log" 2>&1; then
		touch node_modules
		return 0
	fi
	result "npm ci" 1 "$tmp/npm.log"
	return 1
}
