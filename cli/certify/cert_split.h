/* Split-set file names, llama.cpp gguf-split's "<prefix>-%05d-of-%05d.gguf" (parts numbered
 * from 1), as certification reads them: to find the other parts of a set, and to compare a
 * part's name with its split.no and split.count. */
#ifndef GGUFSAFE_CERT_SPLIT_H
#define GGUFSAFE_CERT_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cert_split_name {
    size_t prefix_len; /* bytes of path before "-NNNNN-of-NNNNN.gguf" */
    unsigned no;       /* 1-based, as in the name */
    unsigned total;
} cert_split_name;

/* True when path ends in -NNNNN-of-NNNNN.gguf with both numbers at least 1. */
bool cert_split_parse_name(const char *path, cert_split_name *out);

/* The path of part `no` (1-based) of the set path belongs to; allocated. */
char *cert_split_part_path(const char *path, const cert_split_name *name, unsigned no);

#endif
