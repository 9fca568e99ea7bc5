/*
 * event_parse.c - perf's event-string grammar: comma-separated events and
 * {groups}, each with optional :modifiers, dispatched to the encoder for its
 * kind (generic names here, PMUs in pmu.c, tracepoints in event_tracepoint.c,
 * probes in probe.c, breakpoints here).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "event_internal.h"

static int is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == '*' ||
	       c == '?';
}

static struct peo_token read_while(const char **pos, int (*keep)(char))
{
	struct peo_token t = { *pos, 0 };

	while (t.s[t.len] && keep(t.s[t.len]))
		t.len++;
	*pos += t.len;
	return t;
}

static int is_letter(char c)
{
	return isalpha((unsigned char)c);
}

static int is_probe_target_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '@' || c == '+' ||
	       c == '$';
}

static int token_is(struct peo_token t, const char *s)
{
	return strlen(s) == t.len && !memcmp(t.s, s, t.len);
}

/* "'x'" or "the end" for messages about what came instead. */
static const char *found_text(const char *pos, char *buf, size_t cap)
{
	if (!*pos)
		return "the end of the string";
	snprintf(buf, cap, "'%c'", *pos);
	return buf;
}

/* ----------------------------------------------------------------- modifiers */

/* Modifier state carried from an event's own modifiers to its group's. */
static int apply_modifiers(struct peo_parse *p, struct peo_event *ev, struct peo_token mods,
			   int own, int leader)
{
	struct peo_attr *a = &ev->attr;
	int eu = a->exclude_user, ek = a->exclude_kernel, eh = a->exclude_hv;
	int eH = a->exclude_host, eI = a->exclude_idle;
	/* An event's own modifiers replace perf's default exclude_guest. */
	int eG = own ? 0 : a->exclude_guest;
	int exclude = eu | ek | eh, exclude_gh = ev->exclude_gh;
	unsigned precise = a->precise_ip;
	size_t i;

	if (!mods.len)
		return 0;
	for (i = 0; i < mods.len; i++) {
		char c = mods.s[i];
		struct peo_token at = { mods.s + i, 1 };

		if (c != 'p' && memchr(mods.s + i + 1, c, mods.len - i - 1))
			return peo_fail(EINVAL, "modifier '%c' given twice in ':%.*s' at column %zu",
					c, (int)mods.len, mods.s, peo_column(p, at));
		switch (c) {
		case 'u': case 'k': case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (c == 'u') {
				eu = 0;
				if (!exclude_gh)
					eG = 1;
			} else if (c == 'k') {
				ek = 0;
			} else {
				eh = 0;
			}
			break;
		case 'G': case 'H':
			if (!exclude_gh)
				exclude_gh = eG = eH = 1;
			if (c == 'G')
				eG = 0;
			else
				eH = 0;
			break;
		case 'I': eI = 1; break;
		case 'p':
			precise++;
			/* precise sampling of a guest is not a thing: count the host */
			if (!exclude_gh)
				eG = 1;
			break;
		case 'P': ev->flags |= PEO_EVENT_PRECISE_MAX; break;
		case 'S': ev->flags |= PEO_EVENT_SAMPLE_READ; break;
		case 'W': ev->flags |= PEO_EVENT_WEAK_GROUP; break;
		/* a group's D and e pin or reserve the group through its leader */
		case 'D': a->pinned |= leader; break;
		case 'e': a->exclusive |= leader; break;
		default:
			return peo_fail(EINVAL,
					"unknown modifier '%c' in ':%.*s' at column %zu: modifiers are "
					"u (user) k (kernel) h (hypervisor) G (guest) H (host) I (no idle) "
					"p/pp/ppp (precise) P (max precise) S (leader sampling) D (pinned) "
					"e (exclusive) W (weak group)",
					c, (int)mods.len, mods.s, peo_column(p, at));
		}
	}
	if (precise > 3)
		return peo_fail(EINVAL, "too many 'p' in ':%.*s' at column %zu: precise_ip goes up "
				"to 3 (ppp)", (int)mods.len, mods.s, peo_column(p, mods));
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->exclude_idle = eI;
	a->precise_ip = precise;
	ev->exclude_gh = exclude_gh;
	return 0;
}

/* After an event or group: ":mods", or (after a closing '/') bare letters. */
static int read_modifiers(struct peo_parse *p, const char **pos, int bare_ok,
			  struct peo_token *mods)
{
	mods->s = *pos;
	mods->len = 0;
	if (**pos == ':') {
		(*pos)++;
		*mods = read_while(pos, is_letter);
		if (!mods->len) {
			char buf[8];
			struct peo_token at = { *pos, 0 };

			return peo_fail(EINVAL, "expected modifiers after ':' at column %zu, found %s",
					peo_column(p, at), found_text(*pos, buf, sizeof(buf)));
		}
	} else if (bare_ok) {
		*mods = read_while(pos, is_letter);
	}
	return 0;
}

/* ------------------------------------------------------- generic and raw */

static int add_generic(struct peo_parse *p, struct peo_token w, struct peo_token *terms,
		       int *added)
{
	const struct peo_symbolic_event *sym = peo_symbolic_lookup(w.s, w.len);
	struct peo_event *ev = NULL;
	uint64_t config;
	char why[160];
	int r;

	*added = 0;
	if (sym) {
		int hw = sym->type == PEO_TYPE_HARDWARE;

		ev = peo_event_new(p->list, hw ? PEO_EVENT_KIND_HARDWARE : PEO_EVENT_KIND_SOFTWARE,
				   hw ? "cpu" : "software");
		if (ev) {
			ev->attr.type = sym->type;
			ev->attr.config = sym->config;
			/* perf's parser has bpf-output emit every record it is given */
			if (sym->type == PEO_TYPE_SOFTWARE && sym->config == PEO_COUNT_SW_BPF_OUTPUT)
				ev->attr.sample_period = 1;
		}
	} else if ((r = peo_cache_lookup(w.s, w.len, &config, why, sizeof(why))) != 0) {
		if (r < 0)
			return peo_fail(EINVAL, "cache event '%.*s' at column %zu: %s", (int)w.len, w.s,
					peo_column(p, w), why);
		ev = peo_event_new(p->list, PEO_EVENT_KIND_CACHE, "cpu");
		if (ev) {
			ev->attr.type = PEO_TYPE_HW_CACHE;
			ev->attr.config = config;
		}
	} else if (w.len > 1 && w.s[0] == 'r' && strspn(w.s + 1, "0123456789abcdefABCDEF") >= w.len - 1) {
		struct peo_token hex = { w.s + 1, w.len - 1 };
		char text[24];

		if (hex.len > 16)
			return peo_fail(EINVAL, "raw event '%.*s' at column %zu: more than 64 bits",
					(int)w.len, w.s, peo_column(p, w));
		snprintf(text, sizeof(text), "0x%.*s", (int)hex.len, hex.s);
		ev = peo_event_new(p->list, PEO_EVENT_KIND_RAW, "cpu");
		if (ev) {
			ev->attr.type = PEO_TYPE_RAW;
			ev->attr.config = strtoull(text, NULL, 16);
		}
	} else {
		return 0;
	}
	if (!ev)
		return peo_fail(ENOMEM, "out of memory parsing '%.*s'", (int)w.len, w.s);
	*added = 1;
	if (terms)
		return peo_terms_apply_generic(p, ev, *terms);
	return 0;
}

/* --------------------------------------------------------------- breakpoints */

static int add_breakpoint(struct peo_parse *p, struct peo_token mem, const char **pos)
{
	struct peo_token addr, len = { NULL, 0 }, type = { NULL, 0 };
	uint64_t a, l = 0;
	unsigned bp = 0;
	struct peo_event *ev;
	const char *save;
	size_t i;

	(*pos)++; /* ':' */
	addr = read_while(pos, is_word_char);
	if (peo_token_number(addr, &a))
		return peo_fail(EINVAL, "breakpoint '%.*s' at column %zu: '%.*s' is not an address; "
				"write mem:ADDR[/LEN][:rwx], e.g. mem:0x1000/8:w",
				(int)(*pos - mem.s), mem.s, peo_column(p, mem), (int)addr.len, addr.s);
	if (**pos == '/') {
		(*pos)++;
		len = read_while(pos, is_word_char);
		if (peo_token_number(len, &l) || l == 0 || l > 8)
			return peo_fail(EINVAL, "breakpoint length '%.*s' at column %zu: give 1 to 8 "
					"bytes (x86 takes 1, 2, 4 or 8)", (int)len.len, len.s,
					peo_column(p, len));
	}
	/* ":rwx" is the access type; other letters are event modifiers. */
	save = *pos;
	if (**pos == ':') {
		(*pos)++;
		type = read_while(pos, is_letter);
		if (!type.len || strspn(type.s, "rwx") < type.len) {
			*pos = save;
			type.len = 0;
		}
	}
	for (i = 0; i < type.len; i++) {
		unsigned bit = type.s[i] == 'r' ? PEO_BP_R : type.s[i] == 'w' ? PEO_BP_W : PEO_BP_X;
		struct peo_token at = { type.s + i, 1 };

		if (bp & bit)
			return peo_fail(EINVAL, "breakpoint type ':%.*s' at column %zu repeats '%c'",
					(int)type.len, type.s, peo_column(p, at), type.s[i]);
		bp |= bit;
	}
	ev = peo_event_new(p->list, PEO_EVENT_KIND_BREAKPOINT, "breakpoint");
	if (!ev)
		return peo_fail(ENOMEM, "out of memory parsing a breakpoint");
	ev->attr.type = PEO_TYPE_BREAKPOINT;
	ev->attr.bp_type = bp ? bp : PEO_BP_RW;
	ev->attr.bp_addr = a;
	/* perf's default length: an instruction pointer for x, else 4 bytes */
	ev->attr.bp_len = len.len ? l : (bp == PEO_BP_X ? sizeof(long) : PEO_BP_LEN_4);
	ev->attr.sample_period = 1;
	return 0;
}

/* ------------------------------------------------------------------- events */

static int is_probe_kind(struct peo_token w)
{
	return token_is(w, "uprobe") || token_is(w, "uretprobe") || token_is(w, "kprobe") ||
	       token_is(w, "kretprobe");
}

static int has_glob(struct peo_token w)
{
	size_t i;

	for (i = 0; i < w.len; i++)
		if (w.s[i] == '*' || w.s[i] == '?')
			return 1;
	return 0;
}

static int is_tracepoint_subsystem(struct peo_parse *p, struct peo_token w)
{
	const char *dir = peo_tracefs_dir(p->tracefs_opt);
	char path[4096];
	struct stat st;

	if (has_glob(w))
		return 1;
	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/events/%.*s", dir, (int)w.len, w.s);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ":uk" and the like, up to the end of the event: an unknown word's modifiers. */
static int looks_like_modifiers(const char *s)
{
	size_t n = strspn(s, "ukhGHIpPSDWe");

	return n > 0 && (s[n] == '\0' || s[n] == ',' || s[n] == '}');
}

static int unknown_event(struct peo_parse *p, struct peo_token w)
{
	const struct peo_symbolic_event *sym;
	struct peo_suggest s;
	char name[96], hint[160];
	uint64_t config;
	size_t n, i;
	unsigned k;

	peo_suggest_init(&s, w.s, w.len);
	sym = peo_symbolic_events(&n);
	for (i = 0; i < n; i++) {
		peo_suggest_offer(&s, sym[i].name);
		if (sym[i].alias)
			peo_suggest_offer(&s, sym[i].alias);
	}
	for (k = 0; peo_cache_name(k, name, sizeof(name), &config); k++)
		peo_suggest_offer(&s, name);
	peo_pmu_suggest(p->pmu_dir, &s, 1);
	peo_suggest_text(&s, hint, sizeof(hint));
	return peo_fail(EINVAL, "unknown event '%.*s' at column %zu%s%s", (int)w.len, w.s,
			peo_column(p, w), hint,
			hint[0] ? "" : " (`peo list` shows the events this machine has)");
}

/* One event as written (it may expand to several); leaves *pos after it. */
static int parse_event(struct peo_parse *p, const char **pos)
{
	const char *start = *pos;
	size_t first = p->list->count, i;
	struct peo_token w, mods;
	char buf[8];
	int err = 0, added = 0;

	w = read_while(pos, is_word_char);
	if (!w.len) {
		struct peo_token at = { *pos, 0 };

		return peo_fail(EINVAL, "expected an event name at column %zu, found %s",
				peo_column(p, at), found_text(*pos, buf, sizeof(buf)));
	}
	if (**pos == '/') {
		struct peo_token terms = { *pos + 1, 0 };
		const char *close = strchr(terms.s, '/');

		if (!close)
			return peo_fail(EINVAL, "'%.*s/' at column %zu has no closing '/': write "
					"pmu/term=value,.../", (int)w.len, w.s, peo_column(p, w));
		terms.len = (size_t)(close - terms.s);
		*pos = close + 1;
		err = add_generic(p, w, &terms, &added);
		if (!err && !added)
			err = peo_pmu_add(p, w, terms);
		if (!err)
			err = read_modifiers(p, pos, 1, &mods);
	} else if (**pos == ':' && token_is(w, "mem")) {
		err = add_breakpoint(p, w, pos);
		if (!err)
			err = read_modifiers(p, pos, 0, &mods);
	} else if (**pos == ':' && is_probe_kind(w)) {
		struct peo_token path = { NULL, 0 }, target;

		(*pos)++;
		if (w.s[0] == 'u') {
			const char *colon = strchr(*pos, ':');

			if (!colon || colon == *pos)
				return peo_fail(EINVAL, "'%.*s' at column %zu: write %.*s:PATH:SYMBOL[+OFF] "
						"or %.*s:PATH:0xOFFSET", (int)w.len, w.s,
						peo_column(p, w), (int)w.len, w.s, (int)w.len, w.s);
			path.s = *pos;
			path.len = (size_t)(colon - *pos);
			*pos = colon + 1;
		}
		target = read_while(pos, is_probe_target_char);
		err = peo_probe_add(p, w, path, target);
		if (!err)
			err = read_modifiers(p, pos, 0, &mods);
	} else {
		int subsystem = **pos == ':' && is_tracepoint_subsystem(p, w);

		if (!subsystem) {
			err = add_generic(p, w, NULL, &added);
			if (!err && !added) {
				int n = peo_pmu_add_alias(p, w);

				if (n < 0)
					err = n;
				else
					added = n;
			}
		}
		if (!err && !added && **pos == ':' && looks_like_modifiers(*pos + 1) && !subsystem) {
			err = unknown_event(p, w);
		} else if (!err && !added && **pos == ':') {
			struct peo_token name;

			(*pos)++;
			name = read_while(pos, is_word_char);
			err = peo_tracepoint_add(p, w, name);
		} else if (!err && !added) {
			err = unknown_event(p, w);
		}
		if (!err)
			err = read_modifiers(p, pos, 0, &mods);
	}
	if (err)
		return err;
	for (i = first; i < p->list->count && !err; i++) {
		struct peo_event *ev = p->list->events[i];

		err = apply_modifiers(p, ev, mods, 1, 1);
		if (err)
			break;
		if (!ev->name)
			err = peo_event_set_string(&ev->name, start, (size_t)(*pos - start));
		else if (ev->expanded && mods.len) {
			size_t n = strlen(ev->name);
			char *named = malloc(n + mods.len + 2);

			if (!named)
				return peo_fail(ENOMEM, "out of memory");
			/* "sched:sched_switch:u", "uncore_imc_0/cas_count_read/u" */
			snprintf(named, n + mods.len + 2, "%s%s%.*s", ev->name,
				 n && ev->name[n - 1] == '/' ? "" : ":", (int)mods.len, mods.s);
			free(ev->name);
			ev->name = named;
		}
	}
	if (err == -ENOMEM)
		return peo_fail(ENOMEM, "out of memory");
	return err;
}

static int parse_group(struct peo_parse *p, const char **pos)
{
	struct peo_token open = { *pos, 1 }, mods;
	size_t first = p->list->count, i;
	char buf[8];
	int err;

	(*pos)++;
	for (;;) {
		struct peo_token at = { *pos, 1 };

		if (**pos == '{')
			return peo_fail(EINVAL, "'{' at column %zu: groups cannot nest",
					peo_column(p, at));
		if (**pos == '}' && p->list->count == first)
			return peo_fail(EINVAL, "empty group '{}' at column %zu", peo_column(p, open));
		err = parse_event(p, pos);
		if (err)
			return err;
		if (**pos == ',') {
			(*pos)++;
			continue;
		}
		if (**pos == '}')
			break;
		at.s = *pos;
		if (!**pos)
			return peo_fail(EINVAL, "the group opened at column %zu has no closing '}'",
					peo_column(p, open));
		return peo_fail(EINVAL, "expected ',' or '}' at column %zu, found %s",
				peo_column(p, at), found_text(*pos, buf, sizeof(buf)));
	}
	(*pos)++;
	err = read_modifiers(p, pos, 0, &mods);
	for (i = first; i < p->list->count && !err; i++) {
		struct peo_event *ev = p->list->events[i];

		ev->leader = first;
		ev->flags |= PEO_EVENT_IN_GROUP;
		err = apply_modifiers(p, ev, mods, 0, i == first);
	}
	return err;
}

static int parse_list(struct peo_parse *p)
{
	const char *pos = p->str;
	char buf[8];
	int err;

	for (;;) {
		struct peo_token at = { pos, 1 };

		err = *pos == '{' ? parse_group(p, &pos) : parse_event(p, &pos);
		if (err)
			return err;
		at.s = pos;
		if (!*pos)
			return 0;
		if (*pos != ',')
			return peo_fail(EINVAL, "expected ',' between events at column %zu, found %s",
					peo_column(p, at), found_text(pos, buf, sizeof(buf)));
		pos++;
		if (!*pos)
			return peo_fail(EINVAL, "the event list ends with ',' at column %zu",
					peo_column(p, at));
	}
}

int peo_event_parse(struct peo_event_list **out, const char *str,
		    const struct peo_event_parse_opts *opts)
{
	struct peo_parse p = { 0 };
	int err;

	if (!out)
		return peo_fail(EINVAL, "peo_event_parse: argument 'out' is NULL");
	*out = NULL;
	if (!str)
		return peo_fail(EINVAL, "peo_event_parse: argument 'str' is NULL; give an event "
				"string such as \"cycles:u\"");
	err = peo_opts_check(opts, sizeof(struct peo_event_parse_opts), "peo_event_parse_opts");
	if (err)
		return err;
	if (!*str)
		return peo_fail(EINVAL, "peo_event_parse: the event string is empty; give an event "
				"such as \"task-clock\"");
	p.str = str;
	p.pmu_dir = opts && opts->pmu_dir ? opts->pmu_dir : peo_default_pmu_dir();
	p.tracefs_opt = opts ? opts->tracefs_dir : NULL;
	p.list = calloc(1, sizeof(*p.list));
	if (!p.list)
		return peo_fail(ENOMEM, "out of memory");
	err = parse_list(&p);
	if (err) {
		peo_event_list_free(p.list);
		return err;
	}
	*out = p.list;
	return (int)p.list->count;
}
