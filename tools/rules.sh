#!/bin/sh
# rules.sh DIR FILE...: the rules of each game (docs/rules/NAME.md) as
# HTML pages, for the server to carry (embed.sh rules) and serve at
# GET /rules/NAME, with DIR/index.html, the list of them, at GET /rules.
#
# The Markdown is converted by cmark-gfm (Debian's, tools/deps.sh) with
# its table extension; raw HTML in a document is left out (cmark-gfm's
# safe default).  A link to another rules file (NAME.md) becomes a link
# to its page, README.md to the list.  A table sits in a scrollable,
# focusable region ("Table N"), so that a phone scrolls it alone and a keyboard can.
# A numbered heading ("## 7.2 Research") gets the id "s7.2", so that a
# refusal's "rule": "§7.2" links to /rules/NAME#s7.2.
# The pages take their style from the web client's /rules.css (no inline
# style: the server's Content-Security-Policy forbids it).
set -eu

dir=${1:?usage: rules.sh DIR FILE...}
shift
mkdir -p "$dir"

# esc TEXT: TEXT with the HTML special characters escaped.
esc() {
	printf '%s' "$1" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'
}

# page_head TITLE: the start of a page, up to its <main>.
page_head() {
	cat <<HTML
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$1</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/rules.css">
</head>
<body>
<header><nav aria-label="Site"><a href="/">boardd lobby</a> <a href="/rules">All rules</a></nav></header>
<main>
HTML
}

page_tail() {
	printf '</main>\n</body>\n</html>\n'
}

list=""
for f in "$@"; do
	name=$(basename "$f" .md)
	# The game's name: the first heading, before its " — ".
	title=$(sed -n 's/^# //p' "$f" | head -n 1)
	game=$(printf '%s' "$title" | sed 's/ — .*//')
	{
		page_head "$(esc "$game") rules · boardd"
		cmark-gfm -e table --to html "$f" |
			sed -E 's#href="README\.md"#href="/rules"#g;
				s#href="([a-z0-9-]+)\.md"#href="/rules/\1"#g;
				s#^<h([2-4])>([0-9]+(\.[0-9]+)*)#<h\1 id="s\2">\2#' |
			awk '/^<table>/ { n++; printf "<div class=\"table\" role=\"region\" aria-label=\"Table %d\" tabindex=\"0\">", n }
				{ print }
				/^<\/table>/ { print "</div>" }'
		page_tail
	} >"$dir/$name.html"
	list="$list<li><a href=\"/rules/$name\">$(esc "$game")</a>: $(esc "$title")</li>
"
done

{
	page_head "Rules of the games · boardd"
	printf '<h1>Rules of the games</h1>\n'
	printf '<p>The rules as this server plays them, section by section (the project'"'"'s own documents, docs/rules/).</p>\n'
	printf '<ul>\n%s</ul>\n' "$list"
	page_tail
} >"$dir/index.html"
