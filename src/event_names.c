/*
 * event_names.c - perf's names for the generic hardware, software and
 * hardware-cache events, with their aliases and the cache combinations perf
 * accepts.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const struct peo_symbolic_event symbolic[] = {
	{ "cpu-cycles", "cycles", PEO_TYPE_HARDWARE, PEO_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PEO_TYPE_HARDWARE, PEO_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PEO_TYPE_HARDWARE, PEO_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PEO_TYPE_HARDWARE, PEO_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PEO_TYPE_HARDWARE, PEO_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PEO_TYPE_HARDWARE, PEO_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PEO_TYPE_HARDWARE, PEO_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PEO_TYPE_HARDWARE,
	  PEO_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PEO_TYPE_HARDWARE,
	  PEO_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PEO_TYPE_HARDWARE, PEO_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PEO_TYPE_SOFTWARE, PEO_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PEO_TYPE_SOFTWARE, PEO_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PEO_TYPE_SOFTWARE, PEO_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_DUMMY },
	{ "bpf-output", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", NULL, PEO_TYPE_SOFTWARE, PEO_COUNT_SW_CGROUP_SWITCHES },
};

const struct peo_symbolic_event *peo_symbolic_events(size_t *count)
{
	*count = PEO_ARRAY_SIZE(symbolic);
	return symbolic;
}

static int word_is(const char *word, size_t len, const char *name)
{
	return name && strlen(name) == len && !memcmp(word, name, len);
}

const struct peo_symbolic_event *peo_symbolic_lookup(const char *word, size_t len)
{
	size_t i;

	for (i = 0; i < PEO_ARRAY_SIZE(symbolic); i++)
		if (word_is(word, len, symbolic[i].name) || word_is(word, len, symbolic[i].alias))
			return &symbolic[i];
	return NULL;
}

const char *peo_symbolic_name(uint32_t type, uint64_t config)
{
	size_t i;

	for (i = 0; i < PEO_ARRAY_SIZE(symbolic); i++)
		if (symbolic[i].type == type && symbolic[i].config == config)
			return symbolic[i].alias && type == PEO_TYPE_HARDWARE ? symbolic[i].alias
									      : symbolic[i].name;
	return NULL;
}

/* Spellings perf accepts, the first being the one it prints; NULL-terminated. */
static const char *const cache_names[PEO_COUNT_HW_CACHE_MAX][6] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data", NULL },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction", NULL },
	{ "LLC", "L2", NULL },
	{ "dTLB", "d-tlb", "Data-TLB", NULL },
	{ "iTLB", "i-tlb", "Instruction-TLB", NULL },
	{ "branch", "branches", "bpu", "btb", "bpc", NULL },
	{ "node", NULL },
};
static const char *const cache_ops[PEO_COUNT_HW_CACHE_OP_MAX][6] = {
	{ "load", "loads", "read", NULL },
	{ "store", "stores", "write", NULL },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load", NULL },
};
static const char *const cache_results[PEO_COUNT_HW_CACHE_RESULT_MAX][6] = {
	{ "refs", "Reference", "ops", "access", NULL },
	{ "misses", "miss", NULL },
};
/* Which operations each cache has, as perf allows them: bit n = op n. */
static const unsigned char cache_op_mask[PEO_COUNT_HW_CACHE_MAX] = {
	[PEO_COUNT_HW_CACHE_L1D] = 7, [PEO_COUNT_HW_CACHE_L1I] = 5,
	[PEO_COUNT_HW_CACHE_LL] = 7,  [PEO_COUNT_HW_CACHE_DTLB] = 7,
	[PEO_COUNT_HW_CACHE_ITLB] = 1, [PEO_COUNT_HW_CACHE_BPU] = 1,
	[PEO_COUNT_HW_CACHE_NODE] = 7,
};

/*
 * Match one of @table's spellings at the start of @s (length @len), ending at
 * @len or at a '-'.  Case-sensitive, as perf's lexer is; the longest wins.
 */
static int match_part(const char *const (*table)[6], size_t rows, const char *s, size_t len,
		      size_t *used)
{
	size_t r, k, best_len = 0;
	int best = -1;

	for (r = 0; r < rows; r++)
		for (k = 0; table[r][k]; k++) {
			size_t n = strlen(table[r][k]);

			if (n <= len && !memcmp(s, table[r][k], n) && (n == len || s[n] == '-') &&
			    n > best_len) {
				best = (int)r;
				best_len = n;
			}
		}
	*used = best_len;
	return best;
}

int peo_cache_lookup(const char *word, size_t len, uint64_t *config, char *why, size_t cap)
{
	int cache, op = -1, result = -1, part;
	size_t used, pos, i;

	cache = match_part(cache_names, PEO_COUNT_HW_CACHE_MAX, word, len, &used);
	if (cache < 0)
		return 0;
	pos = used;
	for (i = 0; i < 2 && pos < len; i++) {
		pos++; /* the '-' */
		part = match_part(cache_ops, PEO_COUNT_HW_CACHE_OP_MAX, word + pos, len - pos, &used);
		if (part >= 0 && op < 0) {
			op = part;
		} else {
			part = match_part(cache_results, PEO_COUNT_HW_CACHE_RESULT_MAX, word + pos,
					  len - pos, &used);
			if (part < 0 || result >= 0)
				return 0;
			result = part;
		}
		pos += used;
	}
	if (pos != len)
		return 0;
	if (op < 0)
		op = PEO_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PEO_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(cache_op_mask[cache] & (1u << op))) {
		snprintf(why, cap, "%s has no '%s' operation (it counts:%s%s%s)",
			 cache_names[cache][0], cache_ops[op][0],
			 cache_op_mask[cache] & 1 ? " loads" : "",
			 cache_op_mask[cache] & 2 ? " stores" : "",
			 cache_op_mask[cache] & 4 ? " prefetches" : "");
		return -1;
	}
	*config = PEO_HW_CACHE_CONFIG(cache, op, result);
	return 1;
}

int peo_cache_name(unsigned index, char *out, size_t cap, uint64_t *config)
{
	unsigned cache, op, result;

	for (cache = 0; cache < PEO_COUNT_HW_CACHE_MAX; cache++)
		for (op = 0; op < PEO_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_op_mask[cache] & (1u << op)))
				continue;
			for (result = 0; result < PEO_COUNT_HW_CACHE_RESULT_MAX; result++) {
				if (index--)
					continue;
				/* perf's spelling: "L1-dcache-loads", "L1-dcache-load-misses" */
				if (result == PEO_COUNT_HW_CACHE_RESULT_ACCESS)
					snprintf(out, cap, "%s-%s", cache_names[cache][0], cache_ops[op][1]);
				else
					snprintf(out, cap, "%s-%s-%s", cache_names[cache][0],
						 cache_ops[op][0], cache_results[result][0]);
				*config = PEO_HW_CACHE_CONFIG(cache, op, result);
				return 1;
			}
		}
	return 0;
}
