#!/usr/bin/env bash
# perf_attr_compare.sh SRCDIR PEO - compare peo's encoding of event strings
# with perf's own.
#
# For every string in SRCDIR/tests/fixtures/event_corpus.txt it runs
#   perf stat -vv -e STRING true       (stderr: perf's perf_event_attr blocks)
#   perf record -vv -e STRING true     (the same, with sample period/freq)
#   peo attr STRING                    (peo's blocks, in the same format)
# and compares, event by event, the fields that the event string itself
# decides:
#   from perf stat:   type, config, { bp_addr, config1 }, { bp_len, config2 },
#                     config3, bp_type, precise_ip, exclude_{user,kernel,hv,
#                     idle,host,guest}, pinned, exclusive
#   from perf record: { sample_period, sample_freq } and freq (perf stat
#                     clears the period); perf record's own default, the
#                     frequency it gives events without a period term
#                     (4000, freq 1), is dropped.  Record runs without -F:
#                     an explicit -F would also override the period 1 that
#                     perf's parser gives tracepoints and breakpoints.
#
# perf prints one block per open attempt.  When an open fails, perf may retry
# the same event with fewer bits ("switching off exclude_guest, exclude_host",
# "decreasing precise_ip by one", "trying to fall back to cpu-clock"); those
# retries follow a "sys_perf_event_open failed" line and a message saying
# what perf changed, and are dropped: peo is compared with perf's FIRST
# attempt at each event.  When perf gives up altogether ("Error:", e.g. a
# group whose leader the machine lacks), only the events perf got to are
# compared, and the line says so.  Strings perf stat refuses ("'freq' is not
# usable in 'perf stat'") take their event fields from perf record instead.
#
# Prints OK or the differences for each string, then a summary; exits 1 when
# any string differs, 77 (skip) when perf is missing or cannot count here.
set -u

srcdir=${1:?usage: perf_attr_compare.sh SRCDIR PEO}
peo=${2:?usage: perf_attr_compare.sh SRCDIR PEO}
corpus=$srcdir/tests/fixtures/event_corpus.txt

if ! command -v perf >/dev/null 2>&1; then
	echo "[  SKIP    ] reason: perf is not installed; nothing to compare peo's encodings with"
	exit 77
fi
# tracefs_mount: the corpus has tracepoints, and a fresh machine no tracefs
# (perf mounts it itself; peo attr does not)
. "$(dirname "$0")/compare_common.sh"
tracefs_mount
if ! perf stat -e task-clock true >/dev/null 2>&1; then
	echo "[  SKIP    ] reason: 'perf stat -e task-clock true' fails here; perf cannot count on this machine"
	exit 77
fi
if [ ! -x "$peo" ]; then
	echo "FAIL: peo binary '$peo' is not executable"
	exit 1
fi
if [ ! -r "$corpus" ]; then
	echo "FAIL: corpus '$corpus' not found"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/peo-attr-compare.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# perf must not read a user's ~/.perfconfig: it could change what it encodes.
export PERF_CONFIG=/dev/null
export LC_ALL=C

# ------------------------------------------------------------------ corpus
n=0
while IFS= read -r line || [ -n "$line" ]; do
	# Strip surrounding blanks; skip blank lines and # comments.
	line=${line#"${line%%[![:space:]]*}"}
	line=${line%"${line##*[![:space:]]}"}
	case $line in '' | '#'*) continue ;; esac
	n=$((n + 1))
	printf '%s\n' "$line" >"$tmp/str.$n"
done <"$corpus"
if [ "$n" -eq 0 ]; then
	echo "FAIL: corpus '$corpus' holds no event strings"
	exit 1
fi

# ------------------------------------------------- run everything, in parallel
run_one() {
	local i=$1 s
	s=$(cat "$tmp/str.$i")
	(cd "$tmp" && perf stat -vv -e "$s" true >/dev/null 2>"$tmp/stat.$i")
	(cd "$tmp" && perf record -vv --no-bpf-event -B -N -o "$tmp/rec.$i.data" \
		-e "$s" true >/dev/null 2>"$tmp/rec.$i")
	rm -f "$tmp/rec.$i.data" "$tmp/rec.$i.data.old"
	"$peo" attr -- "$s" >"$tmp/peo.$i" 2>"$tmp/peoerr.$i"
	echo $? >"$tmp/peorc.$i"
}
export -f run_one
export tmp peo
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -lt 4 ] && jobs=4
seq 1 "$n" | xargs -P "$jobs" -n 1 bash -c 'run_one "$1"' _

# ----------------------------------------------------------- block extraction
# extract MODE PART DEFFREQ <file: prints "evK: name = value" for each kept
# field of each first-attempt block, K counting from 1.  MODE is perf or peo;
# PART is event or period.  For perf, the last line is "#blocks M fatal F".
cat >"$tmp/extract.awk" <<'EOF'
BEGIN {
	dashes = "------------------------------------------------------------"
	split("type|config|{ bp_addr, config1 }|{ bp_len, config2 }|config3|" \
	      "bp_type|precise_ip|exclude_user|exclude_kernel|exclude_hv|" \
	      "exclude_idle|exclude_host|exclude_guest|pinned|exclusive", ev, "|")
	for (i in ev) keep_event[ev[i]] = 1
	inblk = 0; nblk = 0; failed = 0; retry = 0; fatal = 0
}
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
$0 == dashes {
	if (!inblk) { inblk = 1; nf = 0; delete fname; delete fval; next }
	inblk = 0
	if (mode == "perf" && retry) { retry = 0; failed = 0; next }
	failed = 0
	nblk++
	period = ""; freq = ""
	for (i = 1; i <= nf; i++) {
		if (fname[i] == "{ sample_period, sample_freq }") period = fval[i]
		if (fname[i] == "freq") freq = fval[i]
	}
	for (i = 1; i <= nf; i++) {
		if (part == "event" && (fname[i] in keep_event))
			printf "ev%d: %s = %s\n", nblk, fname[i], fval[i]
		if (part == "period" && (fname[i] == "{ sample_period, sample_freq }" || fname[i] == "freq")) {
			if (mode == "perf" && period == deffreq && freq == "1")
				continue
			printf "ev%d: %s = %s\n", nblk, fname[i], fval[i]
		}
	}
	next
}
inblk {
	if ($0 ~ /^  [^ ]/) {
		# "  NAME VALUE": values hold no blanks, names may ("{ a, b }").
		v = $NF
		name = trim(substr($0, 1, length($0) - length(v)))
		fname[++nf] = name; fval[nf] = v
	}
	next
}
mode == "perf" && /^sys_perf_event_open failed/ { failed = 1; next }
mode == "perf" && failed && /switching off|decreasing precise_ip|fall back|Falling back|falling back|Weak group|[Rr]etry/ {
	retry = 1; next
}
mode == "perf" && /^Error:/ { fatal = 1 }
END { if (mode == "perf") printf "#blocks %d fatal %d\n", nblk, fatal }
EOF

extract() { # MODE PART DEFFREQ FILE
	awk -v mode="$1" -v part="$2" -v deffreq="$3" -f "$tmp/extract.awk" "$4"
}

# Keep only the lines of events 1..K.
first_events() { # K < file
	awk -v k="$1" '/^#/ { next } { e = substr($1, 3) + 0; if (e <= k) print }'
}

# ----------------------------------------------------------------- compare
toolname() { case $1 in "$tmp"/rec.*) echo "perf record" ;; *) echo "perf stat" ;; esac; }

matched=0
failed=0
for i in $(seq 1 "$n"); do
	s=$(cat "$tmp/str.$i")
	notes=""
	if [ "$(cat "$tmp/peorc.$i")" != 0 ]; then
		printf 'FAIL  %s\n      peo attr failed: %s\n' "$s" "$(head -c 400 "$tmp/peoerr.$i" | tr '\n' ' ')"
		failed=$((failed + 1))
		continue
	fi
	npeo=$(grep -c '^perf_event_attr:' "$tmp/peo.$i")

	# Where the event fields come from: perf stat, or perf record when stat
	# refuses the string's terms.
	evsrc=$tmp/stat.$i
	if grep -q "is not usable in 'perf stat'" "$tmp/stat.$i"; then
		evsrc=$tmp/rec.$i
		notes="$notes; event fields from perf record (perf stat refuses its terms)"
	fi
	deffreq=4000
	lowered=$(sed -n 's/.*Lowering default frequency rate from [0-9]* to \([0-9]*\).*/\1/p' "$tmp/rec.$i" | head -n 1)
	[ -n "$lowered" ] && deffreq=$lowered

	extract perf event "$deffreq" "$evsrc" >"$tmp/pe.$i"
	extract perf period "$deffreq" "$tmp/rec.$i" >"$tmp/pp.$i"
	extract peo event "" "$tmp/peo.$i" >"$tmp/oe.$i"
	extract peo period "" "$tmp/peo.$i" >"$tmp/op.$i"

	bad=""
	for part in e p; do
		src=$evsrc
		[ $part = p ] && src=$tmp/rec.$i
		set -- $(grep '^#blocks' "$tmp/p$part.$i")
		nperf=${2:-0}
		fatal=${4:-0}
		k=$npeo
		if [ "$nperf" -eq 0 ]; then
			bad="$bad
      $(toolname "$src") printed no perf_event_attr block for it: $(grep -m1 -i 'error\|invalid\|unknown' "$src" | head -c 200)"
			continue
		elif [ "$nperf" -lt "$npeo" ]; then
			if [ "$fatal" = 1 ]; then
				k=$nperf
				note="$(toolname "$src") stopped after $nperf of $npeo events (a fatal open error), only those compared"
				case $notes in *"$note"*) ;; *) notes="$notes; $note" ;; esac
			else
				bad="$bad
      perf encodes $nperf events ($(toolname "$src")), peo $npeo"
			fi
		elif [ "$nperf" -gt "$npeo" ]; then
			bad="$bad
      perf encodes $nperf events ($(toolname "$src")), peo $npeo"
		fi
		first_events "$k" <"$tmp/p$part.$i" >"$tmp/p$part.$i.k"
		first_events "$k" <"$tmp/o$part.$i" >"$tmp/o$part.$i.k"
		if ! cmp -s "$tmp/p$part.$i.k" "$tmp/o$part.$i.k"; then
			what="event fields"
			[ $part = p ] && what="sample period/freq (perf record)"
			bad="$bad
      $what differ (- perf, + peo):
$(diff "$tmp/p$part.$i.k" "$tmp/o$part.$i.k" | grep '^[<>]' | sed 's/^</        -/; s/^>/        +/')"
		fi
	done

	if [ -z "$bad" ]; then
		matched=$((matched + 1))
		if [ -n "$notes" ]; then
			printf 'OK    %s  (%s)\n' "$s" "${notes#; }"
		else
			printf 'OK    %s\n' "$s"
		fi
	else
		failed=$((failed + 1))
		printf 'FAIL  %s%s\n' "$s" "${notes:+  (${notes#; })}"
		printf '%s\n' "${bad#?}"
	fi
done

echo "$n strings, $matched matched, $failed failed"
[ "$failed" -eq 0 ]
