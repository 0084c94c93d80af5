#!/bin/sh
# embed.sh: turns files into C byte arrays so the server carries its schema
# and its OpenAPI document inside the binary and cannot drift from them.
#
#   embed.sh blob NAME FILE        -> const char NAME[]; const size_t NAME_len;
#   embed.sh migrations FILE...    -> const struct store_migration
#                                     store_migrations[]; (files named NNNN_*.sql)
#   embed.sh pg-migrations FILE... -> the same as store_pg_migrations[]
#                                     (sql/postgres/NNNN_*.sql)
#   embed.sh languages FILE...     -> const struct i18n_file i18n_files[];
#                                     (files named TAG.json: one message
#                                     catalog per language, src/display/i18n.h)
#   embed.sh files FILE...         -> const struct static_file static_files[];
#                                     (the web client's files, served at
#                                     /NAME: src/http/static_files.h)
#   embed.sh rules FILE...         -> const struct static_file rules_pages[];
#                                     (tools/rules.sh's HTML pages: NAME.html
#                                     served at /rules/NAME, index.html at
#                                     /rules)
#                                     Both: each file also compressed here,
#                                     at build time, by `gzip -9n` and
#                                     `brotli -q 11` (Debian's gzip and
#                                     brotli), a coding kept when smaller
# Output goes to stdout.  Every array ends with a NUL not counted in _len.
set -eu

bytes() {
	od -An -v -tx1 "$1" | sed 's/[0-9a-f][0-9a-f]/0x&,/g'
	echo '0x00'
}

# arrays PREFIX FILE...: static const char PREFIX0[], PREFIX1[], ... one
# per file, in order.
arrays() {
	p=$1
	shift
	i=0
	for f in "$@"; do
		echo "static const char $p$i[] = {"
		bytes "$f"
		echo "};"
		i=$((i + 1))
	done
}

case "$1" in
blob)
	echo "#include <stddef.h>"
	echo "const char $2[] = {"
	bytes "$3"
	echo "};"
	echo "const size_t $2_len = sizeof $2 - 1;"
	;;
migrations | pg-migrations)
	v=store_migrations
	[ "$1" = pg-migrations ] && v=store_pg_migrations
	shift
	echo '#include "store/migrations.h"'
	arrays m "$@"
	echo "const struct store_migration $v[] = {"
	i=0
	for f in "$@"; do
		b=$(basename "$f")
		n=$(echo "$b" | sed 's/^0*\([0-9][0-9]*\)_.*/\1/')
		echo "	{$n, \"$b\", m$i},"
		i=$((i + 1))
	done
	echo "};"
	echo "const size_t ${v}_count = $i;"
	;;
languages)
	shift
	echo '#include "display/i18n.h"'
	arrays l "$@"
	echo "const struct i18n_file i18n_files[] = {"
	i=0
	for f in "$@"; do
		t=$(basename "$f" .json)
		echo "	{\"$t\", l$i, sizeof l$i - 1},"
		i=$((i + 1))
	done
	echo "};"
	echo "const size_t i18n_files_count = $i;"
	;;
files | rules)
	mode=$1
	shift
	echo '#include "http/static_files.h"'
	p=f
	[ "$mode" = rules ] && p=r
	arrays "$p" "$@"
	# Each file coded (gzip, br) once here: kept only when smaller.
	z=$(mktemp -d)
	trap 'rm -rf "$z"' EXIT
	i=0
	for f in "$@"; do
		[ -f "$f" ] || { echo "embed.sh: $f is not a file (web/ is flat)" >&2; exit 1; }
		gzip -9n -c "$f" > "$z/$i.gzip"
		brotli -q 11 -c "$f" > "$z/$i.br"
		for c in gzip br; do
			[ "$(wc -c < "$z/$i.$c")" -lt "$(wc -c < "$f")" ] || rm "$z/$i.$c"
			[ -f "$z/$i.$c" ] || continue
			echo "static const char ${p}${c}_$i[] = {"
			bytes "$z/$i.$c"
			echo "};"
		done
		i=$((i + 1))
	done
	if [ "$mode" = rules ]; then
		echo "const struct static_file rules_pages[] = {"
	else
		echo "const struct static_file static_files[] = {"
	fi
	i=0
	for f in "$@"; do
		b=$(basename "$f")
		if [ "$mode" = rules ]; then
			u=/rules/$(basename "$f" .html)
			[ "$b" = index.html ] && u=/rules
		else
			u=/$b
		fi
		case "$b" in
		*.html) t="text/html; charset=utf-8" ;;
		*.js) t="text/javascript; charset=utf-8" ;;
		*.css) t="text/css; charset=utf-8" ;;
		*.svg) t="image/svg+xml" ;;
		*.json) t="application/json" ;;
		*.webmanifest) t="application/manifest+json" ;;
		*.png) t="image/png" ;;
		*) echo "embed.sh: no Content-Type known for $b" >&2; exit 1 ;;
		esac
		# A strong ETag: the first 96 bits of the file's SHA-256.
		h=$(sha256sum "$f" | cut -c1-24)
		echo "	{\"$u\", \"$t\", \"\\\"$h\\\"\", $p$i, sizeof $p$i - 1, {{0},"
		# the coded ones, with their tags (encoding.h: "\"<h>-gzip\"")
		for c in gzip br; do
			if [ -f "$z/$i.$c" ]; then
				echo "		{${p}${c}_$i, sizeof ${p}${c}_$i - 1, \"\\\"$h-$c\\\"\"},"
			else
				echo "		{0},"
			fi
		done
		echo "	}},"
		i=$((i + 1))
	done
	echo "};"
	if [ "$mode" = rules ]; then
		echo "const size_t rules_pages_count = $i;"
	else
		echo "const size_t static_files_count = $i;"
	fi
	;;
*)
	echo "usage: embed.sh blob NAME FILE | migrations FILE... | pg-migrations FILE... | languages FILE... | files FILE... | rules FILE..." >&2
	exit 2
	;;
esac
