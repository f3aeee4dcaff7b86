/* Duplicate detection over byte strings (tensor names across split parts, token strings), in
 * linear time with the reader's keyed hash index, so a crafted vocabulary cannot make it
 * quadratic. Records are numbered by the caller, who also resolves a number to its bytes. */
#ifndef GGUFSAFE_CERT_NAMESET_H
#define GGUFSAFE_CERT_NAMESET_H

#include <stdbool.h>
#include <stdint.h>

#include "name_index.h"

typedef struct cert_nameset {
    gsi_name_index ix;
    gsi_mem mem;
    gsi_name_source src;
    bool failed; /* an insert ran out of memory: the set is incomplete */
} cert_nameset;

void cert_nameset_init(cert_nameset *s, gsi_name_source src);
void cert_nameset_free(cert_nameset *s);

/* Inserts record (named name[0..len)); returns true, with *earlier set, when an equal name was
 * inserted before (and then inserts nothing). Out of memory sets failed and returns false: the
 * caller records GS_E_NO_MEMORY in its run. */
bool cert_nameset_insert(cert_nameset *s, const void *name, uint64_t len, uint32_t record,
                         uint32_t *earlier);

#endif
