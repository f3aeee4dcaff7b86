/* fuzz_detect: gs_detect, the recognition of files that are not GGUF, on any bytes. Oracles:
 *   - it always succeeds, names a format of the enum, with its name (gs_format_name), a
 *     description, advice (empty for GGUF only) and the container flag of its format;
 *   - detail is NUL-terminated inside its buffer, valid UTF-8 without control bytes (everything
 *     quoted from the input is escaped);
 *   - it reads only the bytes given (an exactly sized copy at an odd address: ASan sees any
 *     read past them) and no more than GS_DETECT_BYTES of them: a longer input gives the result
 *     of its first GS_DETECT_BYTES; the same bytes give the same result;
 *   - it agrees with the reader: a file the reader opens is GGUF; one it refuses for its magic
 *     is not GGUF; one it refuses as byte-swapped is big-endian GGUF; GGUF's version is the
 *     version word;
 *   - an archive's inner format is only ever set for zip and tar, and is never a container.
 * Trailer (fuzz_common.h): none used; the payload is the head. */
#include "fuzz_common.h"

static bool is_container(gs_format f)
{
    return f == GS_FORMAT_GZIP || f == GS_FORMAT_XZ || f == GS_FORMAT_ZSTD ||
           f == GS_FORMAT_BZIP2 || f == GS_FORMAT_ZIP || f == GS_FORMAT_7Z || f == GS_FORMAT_TAR;
}

/* Valid UTF-8 (an independent decoder: fuzz_common.h) with no byte below 0x20 and no DEL. */
static bool printable_utf8(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        if ((uint8_t)s[i] < 0x20 || (uint8_t)s[i] == 0x7f) {
            return false;
        }
    }
    return fuzz_utf8_ok((const uint8_t *)s, n);
}

static void check_result(const gs_detected *d)
{
    FUZZ_ASSERT((unsigned)d->format < GS_FORMAT_COUNT);
    FUZZ_ASSERT(d->name != NULL && strcmp(d->name, gs_format_name(d->format)) == 0);
    FUZZ_ASSERT(d->description != NULL && strlen(d->description) > 5);
    FUZZ_ASSERT(d->advice != NULL);
    FUZZ_ASSERT((strlen(d->advice) == 0) == (d->format == GS_FORMAT_GGUF));
    FUZZ_ASSERT(d->container == is_container(d->format));
    FUZZ_ASSERT(memchr(d->detail, 0, sizeof d->detail) != NULL);
    FUZZ_ASSERT_MSG(printable_utf8(d->detail), "detail '%s'", d->detail);
    FUZZ_ASSERT((unsigned)d->inner < GS_FORMAT_COUNT);
    FUZZ_ASSERT(d->inner == GS_FORMAT_UNKNOWN ||
                d->format == GS_FORMAT_ZIP || d->format == GS_FORMAT_TAR);
    FUZZ_ASSERT(!is_container(d->inner));
}

static bool same(const gs_detected *a, const gs_detected *b)
{
    return a->format == b->format && a->inner == b->inner && a->version == b->version &&
           a->n_tensors == b->n_tensors && a->n_kv == b->n_kv && a->size == b->size &&
           strcmp(a->detail, b->detail) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = fuzz_split(data, size);
    /* an exactly sized copy at an odd address */
    uint8_t *block = malloc(in.size + 1);
    FUZZ_ASSERT(block != NULL);
    uint8_t *head = block + 1;
    if (in.size > 0) {
        memcpy(head, in.data, in.size);
    }
    uint8_t *exact = malloc(in.size > 0 ? in.size : 1);
    FUZZ_ASSERT(exact != NULL);
    if (in.size > 0) {
        memcpy(exact, in.data, in.size);
    }

    gs_detected d, again;
    FUZZ_ASSERT(gs_detect(exact, in.size, &d) == GS_OK);
    check_result(&d);
    FUZZ_ASSERT(gs_detect(head, in.size, &again) == GS_OK);
    FUZZ_ASSERT_MSG(same(&d, &again), "the same bytes at another address differ");
    if (in.size > GS_DETECT_BYTES) {
        FUZZ_ASSERT(gs_detect(exact, GS_DETECT_BYTES, &again) == GS_OK);
        FUZZ_ASSERT_MSG(same(&d, &again), "bytes past GS_DETECT_BYTES changed the result");
    }
    if (d.format == GS_FORMAT_GGUF && in.size >= 8) {
        uint32_t v = (uint32_t)exact[4] | (uint32_t)exact[5] << 8 | (uint32_t)exact[6] << 16 |
                     (uint32_t)exact[7] << 24;
        FUZZ_ASSERT(d.version == v);
    }

    /* the reader's verdict on the same bytes */
    gs_options o;
    fuzz_options(&o, GS_PROFILE_LENIENT);
    gs_file *f = NULL;
    gs_error e;
    gs_status st = gs_open_memory(exact, in.size, &o, &f, &e);
    gs_close(f);
    if (st == GS_OK) {
        FUZZ_ASSERT_MSG(d.format == GS_FORMAT_GGUF, "the reader opens a %s", d.name);
    } else if (st == GS_E_BAD_MAGIC) {
        FUZZ_ASSERT(d.format != GS_FORMAT_GGUF);
    } else if (st == GS_E_BYTE_SWAPPED) {
        FUZZ_ASSERT(d.format == GS_FORMAT_GGUF_BIG_ENDIAN);
    }
    free(exact);
    free(block);
    return 0;
}
