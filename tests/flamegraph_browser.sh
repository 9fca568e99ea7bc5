#!/usr/bin/env bash
# flamegraph_browser.sh PEO WORKLOAD - peo report --flamegraph opened in a
# real headless browser (Debian's chromium), on a recording of the
# workload made here (peo record -g): the SVG alone loads and its script
# runs without an error in the console; embedded in a page, a click on a
# frame zooms to it (across the width, its callers greyed, the rest
# hidden), Reset Zoom restores it, the search paints matches and says
# their share; a screenshot shows the frames (tests/flamegraph_check.py
# decodes it).  The SVG's frames are checked against --folded's lines
# with or without a browser.  The differential graph of two recordings
# (the workload burning less and spinning more) and --folded of both are
# checked against each file's folded stacks (flamegraph_diff.py), and
# the SVG loads in the browser too.  Exits 77 when chromium is not
# installed.
set -u
peo=${1:?usage: flamegraph_browser.sh PEO WORKLOAD}
W=${2:?usage: flamegraph_browser.sh PEO WORKLOAD}
here=$(dirname "$(realpath "$0")")
. "$here/compare_common.sh" # pass, fail (no perf needed here)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0

if ! "$peo" record -g -F 2000 -o "$tmp/f.data" -- "$W" -r 12 -b 300 >"$tmp/rec" 2>&1; then
	echo "SKIP: peo record -g fails here: $(head -c 300 "$tmp/rec")"
	exit 77
fi
if "$peo" report -i "$tmp/f.data" --flamegraph "$tmp/g.svg" 2>"$tmp/err" &&
	grep -q "the flame graph is in $tmp/g.svg" "$tmp/err"; then
	pass "--flamegraph wrote $tmp/g.svg and said so"
else
	fail "--flamegraph: $(cat "$tmp/err")"
fi
"$peo" report -i "$tmp/f.data" --folded >"$tmp/f.folded" 2>/dev/null
if out=$(python3 "$here/flamegraph_check.py" "$tmp/g.svg" "$tmp/f.folded"); then
	pass "$(echo "$out" | head -1)"
else
	fail "the SVG against the folded stacks: $out"
fi
if "$peo" report -i "$tmp/f.data" --flamegraph /nonexistent/dir/g.svg 2>"$tmp/err" ||
	! grep -q "flamegraph /nonexistent/dir/g.svg: No such file or directory" "$tmp/err"; then
	fail "an unwritable --flamegraph: $(cat "$tmp/err")"
else
	pass "an unwritable --flamegraph FILE: refused, named"
fi

# two recordings: the after burns less in burn_loop and spins more
"$peo" record -g -F 2000 -o "$tmp/before.data" -- "$W" -r 4 -b 300 -s 100 >/dev/null 2>&1
"$peo" record -g -F 2000 -o "$tmp/after.data" -- "$W" -r 4 -b 100 -s 300 >/dev/null 2>&1
"$peo" report -i "$tmp/before.data" --folded >"$tmp/before.folded" 2>/dev/null
"$peo" report -i "$tmp/after.data" --folded >"$tmp/after.folded" 2>/dev/null
"$peo" report -i "$tmp/before.data" -i "$tmp/after.data" --folded >"$tmp/diff.folded" 2>/dev/null
if "$peo" report -i "$tmp/before.data" -i "$tmp/after.data" --flamegraph "$tmp/diff.svg" \
	2>"$tmp/err" && grep -q "differential flame graph is in $tmp/diff.svg" "$tmp/err" &&
	out=$(python3 "$here/flamegraph_diff.py" "$tmp/diff.svg" "$tmp/diff.folded" \
		"$tmp/before.folded" "$tmp/after.folded" burn_loop); then
	pass "differential: $out"
else
	fail "differential: $(cat "$tmp/err") ${out:-}"
fi
if "$peo" report -i "$tmp/before.data" -i "$tmp/after.data" >/dev/null 2>"$tmp/err" ||
	! grep -q "two files are compared by --flamegraph" "$tmp/err"; then
	fail "two files without --flamegraph or --folded: $(cat "$tmp/err")"
else
	pass "two files without --flamegraph or --folded: refused, said what compares them"
fi

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$browser" ]; then
	echo "SKIP: no chromium to open the flame graph in (apt-get install chromium)"
	echo "flamegraph_browser: $passed passed, $failed failed"
	[ "$failed" -eq 0 ] && exit 77
	exit 1
fi
height=$(sed -n 's/.*id="peo-flamegraph" width="[0-9]*" height="\([0-9]*\)".*/\1/p' "$tmp/g.svg")
chrome() {
	timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@"
}

# the SVG alone: its script runs (it marks the root), nothing in the console
chrome --dump-dom "file://$tmp/g.svg" >"$tmp/dom" 2>"$tmp/log"
if grep -q 'data-script="ready"' "$tmp/dom" && ! grep -q 'CONSOLE' "$tmp/log"; then
	pass "the SVG alone: its script ran, no console message"
else
	fail "the SVG alone: $(grep -c 'data-script="ready"' "$tmp/dom") ready marks; $(grep -m2 CONSOLE "$tmp/log")"
fi

# embedded in a page that clicks and searches as a user does
{
	echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>pending</title></head><body>'
	sed '1{/^<?xml/d}' "$tmp/g.svg"
	cat <<'HTML'
<script>
var errors = [];
window.addEventListener('error', function (e) { errors.push(e.message); });
window.addEventListener('load', function () {
	var svg = document.getElementById('peo-flamegraph'), bad = [];
	var all = Array.prototype.slice.call(svg.querySelectorAll('g.f'));
	function frame(name) {
		return all.filter(function (g) { return g.querySelector('title').textContent.indexOf(name + ' (') === 0; })[0];
	}
	function width(g) { return +g.querySelector('rect').getAttribute('width'); }
	function click(el) { el.dispatchEvent(new MouseEvent('click', { bubbles: true })); }
	var main = frame('main'), root = frame('all');
	if (svg.getAttribute('data-script') !== 'ready') bad.push('the script did not run');
	if (!main || !root) bad.push('no main or all frame');
	else {
		var before = width(main);
		click(main.querySelector('rect'));
		if (Math.abs(width(main) - (svg.getAttribute('width') - 20)) > 0.2) bad.push('main not zoomed: ' + width(main));
		if (!root.classList.contains('parent')) bad.push('all not greyed as a caller');
		if (!all.some(function (g) { return g.classList.contains('hidden'); })) bad.push('nothing hidden by the zoom');
		if (svg.querySelector('#unzoom').classList.contains('hidden')) bad.push('no Reset Zoom');
		click(svg.querySelector('#unzoom'));
		if (Math.abs(width(main) - before) > 0.2) bad.push('Reset Zoom: main ' + width(main) + ', was ' + before);
		window.prompt = function () { return 'burn_'; };
		click(svg.querySelector('#search'));
		var m = /^Matched: ([0-9.]+)%$/.exec(svg.querySelector('#matched').textContent);
		if (!m || +m[1] <= 50) bad.push('search: ' + svg.querySelector('#matched').textContent);
		if (!all.some(function (g) { return g.querySelector('rect').getAttribute('fill') === 'rgb(230,0,230)'; })) bad.push('search painted nothing');
	}
	document.title = errors.length + bad.length ? 'FAIL ' + errors.concat(bad).join('; ') : 'PASS';
});
</script></body></html>
HTML
} >"$tmp/page.html"
chrome --virtual-time-budget=5000 --dump-dom "file://$tmp/page.html" >"$tmp/pdom" 2>"$tmp/plog"
result=$(sed -n 's:.*<title>\(.*\)</title>.*:\1:p' "$tmp/pdom" | head -1)
if [ "$result" = PASS ]; then
	pass "in a page: a click zooms, Reset Zoom restores, the search matches"
else
	fail "in a page: ${result:-no title}; $(grep -m2 CONSOLE "$tmp/plog")"
fi

chrome --dump-dom "file://$tmp/diff.svg" >"$tmp/ddom" 2>"$tmp/dlog"
if grep -q 'data-script="ready"' "$tmp/ddom" && ! grep -q 'CONSOLE' "$tmp/dlog"; then
	pass "the differential SVG alone: its script ran, no console message"
else
	fail "the differential SVG: $(grep -m2 CONSOLE "$tmp/dlog")"
fi

chrome --window-size="1200,$height" --screenshot="$tmp/g.png" "file://$tmp/g.svg" >/dev/null 2>&1
if [ -s "$tmp/g.png" ] && out=$(python3 "$here/flamegraph_check.py" "$tmp/g.svg" "$tmp/f.folded" "$tmp/g.png"); then
	pass "the screenshot: $(echo "$out" | sed -n 2p)"
else
	fail "the screenshot: ${out:-none made}"
fi
echo "flamegraph_browser: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
