/*
 * suggest.c - "did you mean" for unknown names: the candidate with the
 * smallest edit distance, if it is close enough to be a typo.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

void peo_suggest_init(struct peo_suggest *s, const char *word, size_t len)
{
	s->word = word;
	s->len = len;
	s->best_distance = ~0u;
	s->best[0] = '\0';
}

/* Levenshtein distance with an adjacent swap counted as one edit. */
static unsigned distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned rows[3][65];
	unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;
	size_t i, j;

	if (la > 64 || lb > 64)
		return ~0u;
	for (j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

void peo_suggest_offer(struct peo_suggest *s, const char *candidate)
{
	unsigned d = distance(s->word, s->len, candidate, strlen(candidate));

	if (d < s->best_distance) {
		s->best_distance = d;
		snprintf(s->best, sizeof(s->best), "%s", candidate);
	}
}

const char *peo_suggest_text(struct peo_suggest *s, char *out, size_t cap)
{
	/* A third of the word, at least one and at most three edits away. */
	unsigned limit = (unsigned)(s->len / 3);

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	if (s->best[0] && s->best_distance <= limit)
		snprintf(out, cap, ": did you mean '%s'?", s->best);
	else if (cap)
		out[0] = '\0';
	return out;
}

const char *peo_suggest(const char *word, const char *const *candidates, size_t n)
{
	struct peo_suggest s;
	const char *best = NULL;
	char text[sizeof(s.best) + 32];
	unsigned best_distance = ~0u;

	if (!word || !candidates)
		return NULL;
	peo_suggest_init(&s, word, strlen(word));
	for (size_t i = 0; i < n; i++) {
		if (!candidates[i])
			continue;
		peo_suggest_offer(&s, candidates[i]);
		if (s.best_distance < best_distance) { /* the first of the nearest, as offered */
			best_distance = s.best_distance;
			best = candidates[i];
		}
	}
	return peo_suggest_text(&s, text, sizeof(text))[0] ? best : NULL;
}
