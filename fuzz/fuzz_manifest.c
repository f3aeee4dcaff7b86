/* The manifest reader (gs_manifest_parse, gs_manifest_read: what `ggufsafe verify` reads first)
 * on arbitrary bytes. The whole input is the manifest; no options trailer. Oracles:
 *   - the status is GS_OK, GS_E_INVALID_ARGUMENT (detail "line N: why", offset within the
 *     input) or GS_E_NO_MEMORY, and a failure returns no manifest;
 *   - the two ways in (a buffer, a stream read in chunks) give the same status, offset and
 *     detail, and two manifests that parse have as many parts;
 *   - a manifest that parses is canonical: writing it back gives the input byte for byte (less
 *     the CRs of one read with CR LF line ends, every line alike), its
 *     names hold only printable ASCII without spaces (nothing of it can reach a terminal raw), and
 *     compared with itself it has no difference. */
#define _DEFAULT_SOURCE /* fmemopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_stream.h"
#include "ggufsafe_manifest.h"

static void check_failure(gs_status st, const gs_manifest *m, const gs_error *e,
                          const uint8_t *data, size_t size)
{
    (void)data;
    FUZZ_ASSERT_MSG(st == GS_E_INVALID_ARGUMENT || st == GS_E_NO_MEMORY, "status %s",
                    gs_status_name(st));
    FUZZ_ASSERT(m == NULL);
    FUZZ_ASSERT(e->status == st);
    if (st == GS_E_INVALID_ARGUMENT) {
        unsigned long line = 0;
        int used = 0;
        FUZZ_ASSERT_MSG(sscanf(e->detail, "line %lu: %n", &line, &used) == 1 && used > 0 &&
                            line >= 1,
                        "detail '%s'", e->detail);
        FUZZ_ASSERT_MSG(e->offset <= size, "offset %llu past the %zu-byte input",
                        (unsigned long long)e->offset, size);
        FUZZ_ASSERT_MSG(fuzz_text_safe((const uint8_t *)e->detail, strlen(e->detail)),
                        "a raw control or hidden character in '%s'", e->detail);
    }
}

static void check_manifest(const gs_manifest *m, const uint8_t *data, size_t size)
{
    fuzz_buffer b = {NULL, 0, 0};
    gs_sink sink;
    gs_sink_init(&sink, fuzz_buffer_collect, &b);
    gs_error e;
    FUZZ_ASSERT(gs_manifest_write(m, &sink, &e) == GS_OK);
    /* a manifest read with CR LF line ends is written back with LF: the input less its CRs */
    bool crlf = size >= 2 && data[size - 2] == '\r';
    size_t k = 0;
    bool same = true;
    for (size_t i = 0; i < size && same; i++) {
        if (crlf && data[i] == '\r') {
            continue;
        }
        same = k < b.len && b.data[k++] == data[i];
    }
    FUZZ_ASSERT_MSG(same && k == b.len, "written back as %zu bytes, not the %zu read", b.len,
                    size);
    free(b.data);

    const size_t parts = gs_manifest_part_count(m);
    FUZZ_ASSERT(parts >= 1 && parts <= GS_SPLIT_MAX_PARTS);
    for (size_t p = 0; p < parts; p++) {
        gs_manifest_part part = {.struct_size = sizeof part};
        FUZZ_ASSERT(gs_manifest_part_at(m, p, &part) == GS_OK);
        FUZZ_ASSERT(part.kv_count + part.tensor_count == part.entry_count);
        for (size_t i = 0; i < part.entry_count; i++) {
            gs_manifest_entry en = {.struct_size = sizeof en};
            FUZZ_ASSERT(gs_manifest_entry_at(m, p, i, &en) == GS_OK);
            FUZZ_ASSERT(en.name[0] != '\0');
            for (const char *c = en.name; *c != '\0'; c++) {
                FUZZ_ASSERT_MSG(*c > 0x20 && *c < 0x7f, "byte 0x%02x in a name",
                                (unsigned)(unsigned char)*c);
            }
        }
    }
    gs_manifest_diff *d;
    FUZZ_ASSERT(gs_manifest_compare(m, m, &d, &e) == GS_OK);
    FUZZ_ASSERT_MSG(gs_manifest_diff_count(d) == 0, "%zu differences from itself",
                    gs_manifest_diff_count(d));
    gs_manifest_diff_free(d);
}

FUZZ_BUFFER_AND_STREAM_HARNESS(gs_manifest, gs_manifest_parse, gs_manifest_read,
                               gs_manifest_part_count, gs_manifest_free, check_failure,
                               check_manifest)
