/*
 * probe.c - uprobes and kprobes through the kernel's uprobe/kprobe PMUs: the
 * attr carries a pointer to the path or symbol, an offset, and the PMU's
 * retprobe bit.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_internal.h"

static int set_retprobe(struct peo_parse *p, struct peo_event *ev, const char *pmu)
{
	char path[4096], why[200];
	char *spec;
	int err;

	snprintf(path, sizeof(path), "%s/%s/format/retprobe", p->pmu_dir, pmu);
	spec = peo_read_text_file(path);
	if (!spec)
		return peo_fail(ENOENT, "the %s PMU has no retprobe format (%s): this kernel cannot "
				"probe returns this way", pmu, path);
	err = peo_format_apply(&ev->attr, spec, 1, why, sizeof(why));
	free(spec);
	return err ? peo_fail(EINVAL, "%s: %s", path, why) : 0;
}

int peo_probe_add(struct peo_parse *p, struct peo_token kind, struct peo_token path,
		  struct peo_token target)
{
	int user = kind.s[0] == 'u', ret = kind.len > 6; /* uretprobe, kretprobe */
	const char *pmu = user ? "uprobe" : "kprobe";
	struct peo_event *ev;
	uint64_t offset = 0;
	long type;
	int err;

	if (!target.len)
		return peo_fail(EINVAL, "'%.*s' at column %zu needs a symbol or an offset: %s",
				(int)kind.len, kind.s, peo_column(p, kind),
				user ? "uprobe:PATH:SYMBOL[+OFF] or uprobe:PATH:0xOFFSET"
				     : "kprobe:SYMBOL[+OFF] or kprobe:0xADDRESS");
	type = peo_pmu_type(p->pmu_dir, pmu);
	if (type < 0)
		return peo_fail(ENOENT, "'%.*s' at column %zu: this kernel has no %s PMU (%s/%s)%s",
				(int)kind.len, kind.s, peo_column(p, kind), pmu, p->pmu_dir, pmu,
				user ? "; it needs CONFIG_UPROBE_EVENTS"
				     : "; kprobes need CONFIG_KPROBE_EVENTS, which this kernel lacks");
	ev = peo_event_new(p->list, user ? PEO_EVENT_KIND_UPROBE : PEO_EVENT_KIND_KPROBE, pmu);
	if (!ev)
		return peo_fail(ENOMEM, "out of memory");
	ev->attr.type = (uint32_t)type;
	ev->attr.sample_period = 1;
	if (ret && (err = set_retprobe(p, ev, pmu)))
		return err;
	if (user) {
		char *sym;

		if (peo_event_set_string(&ev->probe_target, path.s, path.len))
			return peo_fail(ENOMEM, "out of memory");
		ev->attr.uprobe_path = (uint64_t)(uintptr_t)ev->probe_target;
		if (isdigit((unsigned char)target.s[0])) {
			if (peo_token_number(target, &offset))
				return peo_fail(EINVAL, "uprobe offset '%.*s' at column %zu is not a "
						"number", (int)target.len, target.s,
						peo_column(p, target));
		} else {
			sym = strndup(target.s, target.len);
			if (!sym)
				return peo_fail(ENOMEM, "out of memory");
			err = peo_elf_symbol_offset(ev->probe_target, sym, &offset);
			free(sym);
			if (err) {
				peo_fail_append(" (uprobe at column %zu)", peo_column(p, target));
				return err;
			}
		}
		ev->attr.probe_offset = offset;
		return 0;
	}
	if (isdigit((unsigned char)target.s[0])) {
		if (peo_token_number(target, &offset))
			return peo_fail(EINVAL, "kprobe address '%.*s' at column %zu is not a number",
					(int)target.len, target.s, peo_column(p, target));
		ev->attr.kprobe_addr = offset;
		return 0;
	}
	{
		const char *plus = memchr(target.s, '+', target.len);
		struct peo_token sym = { target.s, plus ? (size_t)(plus - target.s) : target.len };

		if (!sym.len)
			return peo_fail(EINVAL, "kprobe '%.*s' at column %zu has no symbol before '+': "
					"write kprobe:SYMBOL+OFF", (int)target.len, target.s,
					peo_column(p, target));
		if (plus) {
			struct peo_token off = { plus + 1, target.len - sym.len - 1 };

			if (peo_token_number(off, &offset))
				return peo_fail(EINVAL, "kprobe offset '%.*s' at column %zu is not a "
						"number", (int)off.len, off.s, peo_column(p, off));
		}
		if (peo_event_set_string(&ev->probe_target, sym.s, sym.len))
			return peo_fail(ENOMEM, "out of memory");
		ev->attr.kprobe_func = (uint64_t)(uintptr_t)ev->probe_target;
		ev->attr.probe_offset = offset;
	}
	return 0;
}
