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
#
# What `npm ci` installs from one lock file is kept, after a successful
# install, in $BOARDD_NPM_CACHE (default ~/.cache/boardd/npm) under the
# lock's SHA-256, and the next clone or worktree takes it from there (hard
# links, else a copy) instead of installing again: `npm ci` cost each clean
# clone's openapi-lint about 28 s of CPU (the lint itself 12 s).  Nothing
# in node_modules is written by the suites, so the links stay as npm made
# them; a changed lock is another key.
npm_ci() {
	cd "$1" || return 1
	[ -d node_modules ] && [ ! package-lock.json -nt node_modules ] && return 0
	npm_kept=${BOARDD_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardd/npm}/$(sha256sum package-lock.json | cut -c1-64)
	rm -rf node_modules
	if [ -d "$npm_kept/node_modules" ] &&
		{ cp -al "$npm_kept/node_modules" node_modules 2>/dev/null ||
			{ rm -rf node_modules && cp -a "$npm_kept/node_modules" node_modules; }; }; then
		echo "$suite: node_modules of $npm_kept ($2)"
		touch node_modules
		return 0
	fi
	rm -rf node_modules
	echo "$suite: npm ci ($2)"
	if npm ci --no-audit --no-fund >"$tmp/npm.log" 2>&1; then
		touch node_modules
		# kept for the next clone: made aside, then renamed into place
		# (two runs at once: the first rename wins, the other is dropped)
		if mkdir -p "$(dirname "$npm_kept")" &&
			npm_new=$(mktemp -d "$npm_kept.XXXXXX"); then
			{ cp -al node_modules "$npm_new/node_modules" 2>/dev/null &&
				mv -T "$npm_new" "$npm_kept" 2>/dev/null; } ||
				rm -rf "$npm_new"
		fi
		return 0
	fi
	result "npm ci" 1 "$tmp/npm.log"
	return 1
}
