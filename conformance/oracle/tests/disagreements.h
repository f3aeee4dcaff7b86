/* conformance/oracle/disagreements.tsv: the documented disagreements between ggml's reader and
 * ours (its header comment defines the columns). Read by the corpus test, which keeps the list
 * true, and by the differential fuzzer, which uses it to tell documented disagreements from
 * new ones. */
#ifndef GGUFSAFE_DISAGREEMENTS_H
#define GGUFSAFE_DISAGREEMENTS_H

#include <stddef.h>

#include "oracle_client.h"

typedef enum gsx_category {
    GSX_GGML_BUG = 0,
    GSX_SPEC_VS_GGML = 1,
    GSX_LENIENT_PROFILE = 2,
    GSX_OUR_LIMIT = 3,
    GSX_OUR_BUG = 4,
    GSX_N_CATEGORIES = 5
} gsx_category;

typedef struct gsx_listed {
    char *line; /* owns the strings below */
    const char *file, *strict, *lenient, *reason;
    gsx_verdict ggml;
    gsx_category category;
    int seen;   /* for the caller */
} gsx_listed;

typedef struct gsx_list {
    gsx_listed *rows;
    size_t n;
} gsx_list;

/* "ggml-bug", "spec-vs-ggml", "lenient-profile", "our-limit", "our-bug". */
const char *gsx_category_name(gsx_category c);

/* Reads the file; malformed lines are reported on stdout and make the result -1 (the good
 * lines are kept). */
int gsx_list_read(const char *path, gsx_list *l);
void gsx_list_free(gsx_list *l);

/* True when some line pairs our status (by enum name) under the profile (0 strict,
 * 1 lenient) with ggml's verdict. */
int gsx_list_documents(const gsx_list *l, int lenient, const char *status, gsx_verdict ggml);

#endif
