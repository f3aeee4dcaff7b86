/* A bounded JSON reader (RFC 8259) for the documents the commands read back: reports written by
 * an earlier run (certify --baseline: a certify report, a many-file report, a SARIF log). They
 * are untrusted input: the size, the nesting depth and the number of values are bounded by the
 * caller, the grammar is checked exactly (no trailing commas, no comments, no leading zeros, no
 * raw control characters in strings, escapes checked, surrogates paired, nothing after the
 * value), and every failure is GS_E_INVALID_ARGUMENT with the byte offset and the detail
 * "LINE:COLUMN: what is wrong". The document is a tree of nodes over the input, which must
 * outlive it; strings are decoded when asked for. The one JSON reader of the tree (json_writer.h
 * is the one writer). */
#ifndef GGUFSAFE_CLI_JSON_READ_H
#define GGUFSAFE_CLI_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"

typedef enum cli_jtype {
    CLI_JNULL = 0,
    CLI_JFALSE,
    CLI_JTRUE,
    CLI_JNUMBER,
    CLI_JSTRING,
    CLI_JARRAY,
    CLI_JOBJECT
} cli_jtype;

/* A node: a value, or an object member's key (a string whose next is its value). */
typedef struct cli_jnode {
    uint8_t type;   /* cli_jtype */
    uint32_t next;  /* the next element or member (a key), or the value after a key; 0: none */
    uint32_t child; /* arrays: the first element; objects: the first key; 0: empty */
    uint32_t count; /* arrays: elements; objects: members */
    size_t at;      /* offset of the token (strings: of the opening quote) */
    size_t len;     /* the token's bytes (strings: between the quotes, raw) */
} cli_jnode;

typedef struct cli_jdoc {
    const char *data;
    size_t size;
    cli_jnode *nodes; /* nodes[0] is unused: index 0 means "none"; the root is 1 */
    size_t n, cap;
} cli_jdoc;

typedef struct cli_jlimits {
    size_t max_bytes;  /* of the input */
    unsigned max_depth;/* arrays and objects open at once */
    size_t max_nodes;  /* values and keys */
} cli_jlimits;

/* Parses data[0..size) into doc: GS_OK, GS_E_INVALID_ARGUMENT (malformed or past a limit),
 * GS_E_NO_MEMORY. doc is to be freed with cli_jdoc_free either way. */
gs_status cli_jdoc_parse(cli_jdoc *doc, const void *data, size_t size, const cli_jlimits *limits,
                         gs_error *err);
void cli_jdoc_free(cli_jdoc *doc);

/* The node at index i (1 is the root), or NULL for 0. */
const cli_jnode *cli_jnode_at(const cli_jdoc *doc, uint32_t i);
/* The value of member key of object i (the first such member), or 0. */
uint32_t cli_jobject_get(const cli_jdoc *doc, uint32_t i, const char *key);
/* The k-th element of array i, walking from its first (use next to iterate), or 0. */
uint32_t cli_jarray_first(const cli_jdoc *doc, uint32_t i);
/* The next element of an array, or the next member's key of an object, after element/value i. */
uint32_t cli_jnext(const cli_jdoc *doc, uint32_t i);
/* String i decoded into dst (at most cap bytes; the parser checked the escapes): true with *len,
 * false when it is not a string, is longer than cap once decoded, or holds a NUL (\u0000). */
bool cli_jstring(const cli_jdoc *doc, uint32_t i, char *dst, size_t cap, size_t *len);
/* Whether string i equals the text s (decoded). */
bool cli_jstring_is(const cli_jdoc *doc, uint32_t i, const char *s);
/* Number i as an integer in 0..max (no fraction, no exponent, no sign): true with *v. */
bool cli_jnumber_u64(const cli_jdoc *doc, uint32_t i, uint64_t max, uint64_t *v);

/* The failure "LINE:COLUMN: what" at byte offset at of the input (1-based line and column),
 * as GS_E_INVALID_ARGUMENT. Returns it. */
gs_status cli_jfail(gs_error *err, const void *data, size_t at, const char *what);

#endif
