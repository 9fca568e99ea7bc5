/*
 * features_report.c - the feature probe as the API gives it: features.c's
 * table, or the sentence of the probe that failed, its cause named by the
 * explainer (which features.c, below it, does not call).
 */
#include "internal.h"

/* Sets the sentence of the probe that failed with @rc; returns @rc. */
static int fail_probe(int rc)
{
	const struct peo_probe_failure *f = peo_features_failure();
	char why[512];
	struct peo_buf b = { why, sizeof(why), 0 };

	if (!f->open_failed)
		return peo_fail(-rc, "%s", f->what);
	peo_explain_open(&b, -rc, &f->attr, f->attr.size, 0, -1, -1, f->flags);
	return peo_fail(-rc, "%s: %s", f->what, why);
}

int peo_features_probe(const struct peo_feature **out, size_t *count)
{
	int rc = peo_features_table(out, count);

	return rc < 0 ? fail_probe(rc) : 0; /* every thread gets the sentence */
}

int peo_kernel_attr_size(void)
{
	int rc = peo_features_kernel_size();

	return rc < 0 ? fail_probe(rc) : rc;
}
