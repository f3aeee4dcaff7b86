/* UTF-8 validation, 32 bytes at a time: the lookup algorithm of Keiser and Lemire, "Validating
 * UTF-8 In Less Than One Instruction Per Byte" (Software: Practice and Experience, 2021), as
 * simdjson and simdutf use it. Three 16-entry tables, indexed by the high nibble of the previous
 * byte, its low nibble and the high nibble of the byte, give each pair of bytes the set of
 * errors it could be part of; their AND is the pair's errors. What pairs cannot see (a third or
 * fourth byte that must be a continuation) comes from the bytes two and three back. Equal to the
 * scalar validator (parser/utf8.c, RFC 3629: no overlongs, surrogates or code points above
 * U+10FFFF) on every input: test_utf8_simd and fuzz_utf8 hold it to that. */
#include <immintrin.h>
#include <string.h>

#include "utf8_kernels.h"

/* Error bits. A pair's error is the AND of three lookups, each listing every error its nibble
 * allows. */
#define TOO_SHORT (1 << 0)      /* a lead byte followed by a non-continuation */
#define TOO_LONG (1 << 1)       /* ASCII followed by a continuation */
#define OVERLONG_3 (1 << 2)     /* E0 80..9F */
#define TOO_LARGE (1 << 3)      /* F4 90..BF, F5..FF */
#define SURROGATE (1 << 4)      /* ED A0..BF */
#define OVERLONG_2 (1 << 5)     /* C0, C1 */
#define TOO_LARGE_1000 (1 << 6) /* F5..FF 80..8F */
#define OVERLONG_4 (1 << 6)     /* F0 80..8F */
#define TWO_CONTS (1 << 7)      /* two continuations: right only as a third or fourth byte */
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)

/* A 16-entry table in both 128-bit lanes (vpshufb looks up within a lane). */
#define C(x) ((char)(x))
#define TABLE(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                                      \
    _mm256_setr_epi8(C(a), C(b), C(c), C(d), C(e), C(f), C(g), C(h), C(i), C(j), C(k), C(l),       \
                     C(m), C(n), C(o), C(p), C(a), C(b), C(c), C(d), C(e), C(f), C(g), C(h),       \
                     C(i), C(j), C(k), C(l), C(m), C(n), C(o), C(p))

/* The bytes of in shifted by k, the first k taken from the end of prev (k = 1, 2, 3). */
#define PREV(in, prev, k) _mm256_alignr_epi8((in), _mm256_permute2x128_si256((prev), (in), 0x21), \
                                             16 - (k))

typedef struct state {
    __m256i error, prev, prev_incomplete;
} state;

static inline __m256i high_nibbles(__m256i v)
{
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0f));
}

static inline void check_block(state *st, __m256i in)
{
    if (_mm256_movemask_epi8(in) == 0) {
        /* ASCII: a sequence left open by the block before is cut short */
        st->error = _mm256_or_si256(st->error, st->prev_incomplete);
        st->prev_incomplete = _mm256_setzero_si256();
        st->prev = in;
        return;
    }
    const __m256i byte_1_high_table =
        TABLE(TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
              TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT,
              TOO_SHORT | OVERLONG_3 | SURROGATE,
              TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    const __m256i byte_1_low_table =
        TABLE(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
              CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000,
              CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
              CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
              CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
              CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
              CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000);
    const __m256i byte_2_high_table =
        TABLE(TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
              TOO_SHORT,
              TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
              TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
              TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
              TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE, TOO_SHORT, TOO_SHORT,
              TOO_SHORT, TOO_SHORT);
    const __m256i prev1 = PREV(in, st->prev, 1);
    const __m256i special = _mm256_and_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(byte_1_high_table, high_nibbles(prev1)),
                         _mm256_shuffle_epi8(byte_1_low_table,
                                             _mm256_and_si256(prev1, _mm256_set1_epi8(0x0f)))),
        _mm256_shuffle_epi8(byte_2_high_table, high_nibbles(in)));
    /* a byte two after a 3- or 4-byte lead, or three after a 4-byte lead, must continue */
    const __m256i prev2 = PREV(in, st->prev, 2);
    const __m256i prev3 = PREV(in, st->prev, 3);
    const __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xe0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xf0 - 0x80)));
    const __m256i must_continue =
        _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    st->error = _mm256_or_si256(st->error, _mm256_xor_si256(must_continue, special));
    /* a lead byte among the last three that wants more bytes than the block has */
    const __m256i max = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, (char)(0xf0 - 1), (char)(0xe0 - 1),
                                         (char)(0xc0 - 1));
    st->prev_incomplete = _mm256_subs_epu8(in, max);
    st->prev = in;
}

bool gsi_utf8_valid_avx2(const uint8_t *s, size_t n)
{
    state st = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        check_block(&st, _mm256_loadu_si256((const __m256i *)(const void *)(s + i)));
    }
    if (i < n) {
        /* the tail, padded with ASCII zeros: a sequence cut by the end is followed by them */
        uint8_t tail[32] = {0};
        memcpy(tail, s + i, n - i);
        check_block(&st, _mm256_loadu_si256((const __m256i *)(const void *)tail));
    }
    st.error = _mm256_or_si256(st.error, st.prev_incomplete);
    return _mm256_testz_si256(st.error, st.error) != 0;
}
