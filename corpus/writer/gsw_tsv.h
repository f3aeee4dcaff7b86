/* Splitting one line of a tab-separated test file (the corpus manifests, the oracle's
 * disagreements.tsv) into its fields: header-only, so that every tool reading such a file has
 * it with the writer's include directory alone. */
#ifndef GGUFSAFE_GSW_TSV_H
#define GGUFSAFE_GSW_TSV_H

#include <stddef.h>

/* Splits line in place at its tabs into exactly n fields (n >= 1): fields[i] points at field i.
 * 0, or -1 when the line has fewer or more fields. */
static inline int gsw_split_tabs(char *line, char **fields, size_t n)
{
    size_t k = 0;
    fields[k++] = line;
    for (char *p = line; *p != '\0'; p++) {
        if (*p == '\t') {
            if (k == n) {
                return -1;
            }
            *p = '\0';
            fields[k++] = p + 1;
        }
    }
    return k == n ? 0 : -1;
}

#endif
