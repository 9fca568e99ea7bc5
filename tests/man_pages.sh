#!/usr/bin/env bash
# The man pages in docs/man: one per command (peo --help lists them), each
# rendering without a warning, and each page's OPTIONS naming exactly the
# options its command accepts, short and long, so the two cannot drift
# apart.  What a command accepts is read from the command: its --help, and
# the option parsing in tools/ (getopt tables and strings, strcmp("--x")):
# --help alone does not name every long spelling.  With BUILD_DIR, `make
# install` must install every page.
# Usage: man_pages.sh SOURCE_DIR PEO [BUILD_DIR]
set -uo pipefail
src=$1 peo=$2 build=${3:-}
man_dir=$src/docs/man
failures=0 skipped=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# ------------------------------------------------------------ the pages
commands=$("$peo" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || { echo "FAIL: \`peo --help\` lists no commands" >&2; exit 1; }
commands="$commands help" # peo.c's own, beside the table
want="peo.1 libpeo.3"
for c in $commands; do want="$want peo-$c.1"; done
for p in $want; do
	[ -f "$man_dir/$p" ] || fail "docs/man/$p is missing (peo has that command)"
done
for f in "$man_dir"/*; do
	case " $want " in *" ${f##*/} "*) ;; *) fail "docs/man/${f##*/} is no command's page" ;; esac
done

# ------------------------------------------------------------ rendering
# All pages in one run each (process starts are slow on a loaded machine);
# page by page only to name the one that warns.
pages=$(ls "$man_dir"/*.[1-8])
render() { # render TOOL PAGE...: its warnings (the rendered page is dropped)
	local tool=$1
	shift
	if [ "$tool" = groff ]; then
		LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$@" 2>&1
	else
		# shellcheck disable=SC2069 # stderr kept, stdout dropped
		LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$@" 2>&1 >/dev/null
	fi
}
for tool in groff man; do
	if ! command -v "$tool" >/dev/null || ! command -v groff >/dev/null; then
		echo "SKIP: rendering with $tool: it is not installed (apt-get install groff-base man-db)"
		skipped=1
		continue
	fi
	# shellcheck disable=SC2086 # one page a word
	if [ -z "$(render $tool $pages)" ]; then
		echo "$tool: $(echo "$pages" | wc -l) pages render without a warning"
		continue
	fi
	for p in $pages; do
		out=$(render $tool "$p")
		[ -z "$out" ] || fail "$tool warns on ${p##*/}: $out"
	done
done
# man(7) spells a dash that is typed \-: mandoc, groff -Tps and PDF render
# a bare - as a hyphen, and an option or an example copied from there
# would not work.
# shellcheck disable=SC2086
bad=$(grep -Hn -- '-' $pages | grep -v '^[^:]*:[0-9]*:\.\(TH \|\\"\)' |
	grep -- '^[^:]*:[0-9]*:\(-\|.*[^\\]-\)')
[ -z "$bad" ] || fail "a bare '-' (write \\-): $bad"
# shellcheck disable=SC2086
bad=$(LC_ALL=C grep -Hn "$(printf '[\001-\010\013-\037\177]')" $pages)
[ -z "$bad" ] || fail "a control character: $bad"

# ------------------------------------------------------------ options
# What each command accepts: the long options its --help names, and what
# tools/ parses (getopt_long tables, getopt strings, strcmp(arg, "--x")),
# each file of tools/ being one command's: cmd_X.c and X_*.c (or tools/X/)
# X's, peo.c peo's own.  A page names an option in the tag (the line after
# .TP or .TQ) of its OPTIONS section.  One awk over all of it: process
# starts are what this test costs on a loaded machine.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$peo" --help | sed 's/^/peo\t/' > "$tmp/help"
for c in $commands; do
	[ "$c" = help ] && continue # `peo help --help` asks for a command named --help
	"$peo" "$c" --help > "$tmp/one" 2>&1 || fail "\`peo $c --help\` exits $?"
	sed "s/^/$c\t/" "$tmp/one" >> "$tmp/help"
done
grep -rHoE --include='*.[ch]' -e '\{ *"[a-z0-9][a-z0-9-]*", *(no|required|optional)_argument' \
	-e 'strcmp\([^,]*, *"--?[A-Za-z0-9][a-z0-9-]*"\)' -e 'getopt(_long)?\([^,]*, *[^,]*, *"[^"]*"' \
	"$src/tools" | sort > "$tmp/src"
report=$(awk -v cmds="peo $commands" -v tools="$src/tools/" -v srcf="$tmp/src" -v helpf="$tmp/help" '
function owner(file,   rel, base, c) {
	rel = substr(file, length(tools) + 1)
	base = file; sub(/.*\//, "", base)
	if (base == "peo.c") return "peo"
	for (c in known)
		if (rel == "cmd_" c ".c" || index(rel, c "_") == 1 || index(rel, c "/") == 1) return c
	return ""
}
function quoted(s) { sub(/^[^"]*"/, "", s); sub(/".*/, "", s); return s }
BEGIN { n = split(cmds, order, " "); for (i = 1; i <= n; i++) known[order[i]] = 1 }
FILENAME == srcf {
	i = index($0, ":"); file = substr($0, 1, i - 1); m = substr($0, i + 1)
	c = owner(file)
	if (c == "") { unowned[file] = 1; next }
	if (m ~ /_argument$/) { accepts[c, "--" quoted(m)] = 1; next }
	if (m ~ /^strcmp/) { accepts[c, quoted(m)] = 1; next }
	s = quoted(m); gsub(/[+:-]/, "", s)
	for (i = 1; i <= length(s); i++) accepts[c, "-" substr(s, i, 1)] = 1
	next
}
FILENAME == helpf {
	i = index($0, "\t"); c = substr($0, 1, i - 1); t = substr($0, i + 1)
	while (match(t, /--[a-z0-9][a-z0-9-]*/)) {
		accepts[c, substr(t, RSTART, RLENGTH)] = 1; t = substr(t, RSTART + RLENGTH)
	}
	next
}
FNR == 1 { c = FILENAME; sub(/.*\//, "", c); sub(/\.1$/, "", c); sub(/^peo-/, "", c); on = tag = 0 }
/^\.SH / { on = ($2 == "OPTIONS") }
on && tag {
	t = $0; tag = 0
	while (match(t, /\\-\\-[a-z0-9]([a-z0-9]|\\-)*/)) {
		o = substr(t, RSTART, RLENGTH); gsub(/\\-/, "-", o); names[c, o] = 1
		t = substr(t, 1, RSTART - 1) " " substr(t, RSTART + RLENGTH)
	}
	while (match(t, /\\-[A-Za-z0-9]/)) {
		after = substr(t, RSTART + RLENGTH, 1)
		if (after !~ /[A-Za-z0-9]/) names[c, "-" substr(t, RSTART + 2, 1)] = 1
		t = substr(t, RSTART + RLENGTH)
	}
}
on && /^\.T[PQ]/ { tag = 1 }
END {
	for (f in unowned) print "FAIL " f " parses options, but whose? (name it cmd_X.c, X_*.c or tools/X/)"
	for (k in accepts) {
		split(k, p, SUBSEP)
		if (!((p[1], p[2]) in names)) lacks[p[1]] = lacks[p[1]] " " p[2]
		count[p[1]]++
	}
	for (k in names) {
		split(k, p, SUBSEP)
		if (!((p[1], p[2]) in accepts)) extra[p[1]] = extra[p[1]] " " p[2]
	}
	for (i = 1; i <= n; i++) {
		c = order[i]; page = c == "peo" ? "peo.1" : "peo-" c ".1"
		if (c in lacks) print "FAIL " page ": OPTIONS lacks what peo " c " accepts:" lacks[c]
		if (c in extra) print "FAIL " page ": OPTIONS has what peo " c " does not accept:" extra[c]
		if (!(c in lacks) && !(c in extra))
			print c ": " count[c] + 0 " options, each in " page " and none more"
	}
}' "$tmp/src" "$tmp/help" "$man_dir"/*.1)
echo "$report" | grep -v '^FAIL '
while IFS= read -r line; do fail "${line#FAIL }"; done < <(echo "$report" | grep '^FAIL ')

# ------------------------------------------------------------ install
if [ -n "$build" ]; then
	prefix=$tmp/prefix
	if cmake --install "$build" --prefix "$prefix" >/dev/null; then
		for p in $pages; do
			n=${p##*.}
			[ -f "$prefix/share/man/man$n/${p##*/}" ] ||
				fail "make install did not install share/man/man$n/${p##*/}"
		done
		echo "install: every page under share/man"
	else
		fail "cmake --install failed"
	fi
fi

[ "$failures" = 0 ] || { echo "$failures failures" >&2; exit 1; }
[ "$skipped" = 0 ] || exit 77
echo "PASS"
