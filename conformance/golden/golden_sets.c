/* Recipes for the golden input sets. Each set draws from its own fixed-seed PRNG stream, so
 * adding a set or a type never changes the bytes of another. */
#include "golden_sets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block_layout.h"
#include "ggufsafe.h"
#include "kat_runner.h"
#include "le_load.h"

/* ---- deterministic randomness ---------------------------------------------------------- */

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r) /* splitmix64 */
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static rng rng_for(int32_t type, const char *set)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a of the set name */
    for (const char *p = set; *p != '\0'; p++) {
        h = (h ^ (uint8_t)*p) * 0x100000001b3u;
    }
    return (rng){0x6767756673616665u ^ h ^ ((uint64_t)(uint32_t)type << 32)};
}

static void fill_random(rng *r, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)(rng_next(r) >> 56);
    }
}

/* ---- where each type keeps its scales -------------------------------------------------- */

typedef enum scale_kind {
    SCALE_F16,   /* an f16 field */
    SCALE_F32,   /* an f32 field (Q8_K) */
    SCALE_E8M0,  /* MXFP4 */
    SCALE_UE4M3, /* NVFP4, one per 16 elements */
    SCALE_IQ1M   /* IQ1_M: the f16 d spread over the top nibbles of four u16 at `offset` */
} scale_kind;

typedef struct scale_field {
    scale_kind kind;
    uint16_t offset;
} scale_field;

/* Writes the `index`-covering fields of block b (grid types): every grid entry and every sign
 * pattern appears over index_blocks blocks. */
typedef void (*index_fill_fn)(uint8_t *block, size_t b);

typedef struct recipe {
    int32_t type;
    uint8_t n_scales;
    scale_field scales[4];
    index_fill_fn index_fill;
    size_t index_blocks;
} recipe;

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

/* A value written into a scale field: 16 bits for f16 kinds, 32 for f32, 8 for the byte kinds. */
static void set_scale(uint8_t *block, scale_field f, uint32_t v)
{
    switch (f.kind) {
    case SCALE_F16:
        put16(block + f.offset, v);
        break;
    case SCALE_F32:
        put32(block + f.offset, v);
        break;
    case SCALE_E8M0:
    case SCALE_UE4M3:
        block[f.offset] = (uint8_t)v;
        break;
    case SCALE_IQ1M:
        for (unsigned k = 0; k < 4; k++) {
            uint8_t *p = block + f.offset + 2 * k;
            const uint32_t word = gsi_load_u16le(p);
            put16(p, (word & 0x0fffu) | ((v >> (4 * k)) & 15u) << 12);
        }
        break;
    }
}

static const uint32_t f16_specials[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
    0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0xffff,
}; /* +-0, subnormals, 1, max, +-Inf, quiet/signalling/negative NaNs */
static const uint32_t f32_specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000, 0xbf800000,
    0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00000, 0xffffffff,
};
static const uint32_t e8m0_specials[] = {0, 1, 2, 126, 127, 128, 253, 254, 255};
static const uint32_t ue4m3_specials[] = {0x00, 0x01, 0x07, 0x08, 0x38, 0x40, 0x7e, 0x7f, 0x80,
                                          0xfe, 0xff};

static size_t specials_of(scale_kind kind, const uint32_t **out)
{
    switch (kind) {
    case SCALE_F16:
    case SCALE_IQ1M:
        *out = f16_specials;
        return sizeof f16_specials / sizeof f16_specials[0];
    case SCALE_F32:
        *out = f32_specials;
        return sizeof f32_specials / sizeof f32_specials[0];
    case SCALE_E8M0:
        *out = e8m0_specials;
        return sizeof e8m0_specials / sizeof e8m0_specials[0];
    case SCALE_UE4M3:
        *out = ue4m3_specials;
        return sizeof ue4m3_specials / sizeof ue4m3_specials[0];
    }
    return 0;
}

/* The encoding of 1.0 (for E8M0 and UE4M3: of the halved scale 1.0). */
static uint32_t scale_one(scale_kind kind)
{
    switch (kind) {
    case SCALE_F16:
    case SCALE_IQ1M:
        return 0x3c00;
    case SCALE_F32:
        return 0x3f800000;
    case SCALE_E8M0:
        return 128;
    case SCALE_UE4M3:
        return 0x40;
    }
    return 0;
}

/* A random finite scale: the validated domain of ggml (no Inf/NaN f16 or f32, E8M0 != 0xff). */
static uint32_t scale_finite(rng *r, scale_kind kind)
{
    const uint32_t v = (uint32_t)rng_next(r);
    switch (kind) {
    case SCALE_F16:
    case SCALE_IQ1M:
        return (v & 0x7c00u) == 0x7c00u ? (v ^ 0x4000u) & 0xffffu : v & 0xffffu;
    case SCALE_F32:
        return (v & 0x7f800000u) == 0x7f800000u ? v ^ 0x40000000u : v;
    case SCALE_E8M0:
        return (v & 0xffu) == 0xffu ? 0xfeu : v & 0xffu;
    case SCALE_UE4M3:
        return v & 0xffu;
    }
    return 0;
}

static void set_all_scales(const recipe *rc, uint8_t *block, uint32_t v)
{
    for (unsigned f = 0; f < rc->n_scales; f++) {
        set_scale(block, rc->scales[f], v);
    }
}

static void set_finite_scales(const recipe *rc, uint8_t *block, rng *r)
{
    for (unsigned f = 0; f < rc->n_scales; f++) {
        set_scale(block, rc->scales[f], scale_finite(r, rc->scales[f].kind));
    }
}

/* ---- index coverage of the grid types -------------------------------------------------- */

/* Group k of a set (32 per block) gets grid entry k mod n_grid and sign pattern k mod
 * n_signs; 4-bit (or 3-bit) sub-block scales cycle through all values. */

static void iq2_xxs_index(uint8_t *blk, size_t b) /* 8 blocks: 256 entries, 128 signs */
{
    for (size_t ib = 0; ib < 8; ib++) {
        uint8_t *sub = blk + GSI_IQ2_XXS_QS + GSI_IQ2_XXS_SUB_BYTES * ib;
        uint32_t a = (uint32_t)((8 * b + ib) & 15) << 28;
        for (size_t l = 0; l < 4; l++) {
            const size_t k = 32 * b + 4 * ib + l;
            sub[GSI_IQ2_XXS_SUB_GRID + l] = (uint8_t)k;
            a |= (uint32_t)(k & 127) << (7 * l);
        }
        put32(sub + GSI_IQ2_XXS_SUB_AUX, a);
    }
}

static uint8_t two_nibbles(size_t n)
{
    return (uint8_t)((2 * n) & 15) | (uint8_t)(((2 * n + 1) & 15) << 4);
}

static void iq2_xs_index(uint8_t *blk, size_t b) /* 16 blocks: 512 entries */
{
    for (size_t ib = 0; ib < 8; ib++) {
        for (size_t l = 0; l < 4; l++) {
            const size_t k = 32 * b + 4 * ib + l;
            put16(blk + GSI_IQ2_XS_QS + 2 * (4 * ib + l), (uint32_t)((k & 511) | (k & 127) << 9));
        }
        blk[GSI_IQ2_XS_SCALES + ib] = two_nibbles(8 * b + ib);
    }
}

static void iq2_s_index(uint8_t *blk, size_t b) /* 32 blocks: 1024 entries, 256 sign bytes */
{
    for (size_t ib = 0; ib < 8; ib++) {
        uint8_t qh = 0;
        for (size_t l = 0; l < 4; l++) {
            const size_t k = 32 * b + 4 * ib + l;
            blk[GSI_IQ2_S_QS + 4 * ib + l] = (uint8_t)k;
            blk[GSI_IQ2_S_SIGNS + 4 * ib + l] = (uint8_t)k;
            qh = (uint8_t)(qh | ((k >> 8) & 3) << (2 * l));
        }
        blk[GSI_IQ2_S_QH + ib] = qh;
        blk[GSI_IQ2_S_SCALES + ib] = two_nibbles(8 * b + ib);
    }
}

static void iq3_xxs_index(uint8_t *blk, size_t b) /* 4 blocks: 256 entries, 128 signs */
{
    for (size_t ib = 0; ib < 8; ib++) {
        for (size_t m = 0; m < 8; m++) {
            blk[GSI_IQ3_XXS_QS + 8 * ib + m] = (uint8_t)(64 * b + 8 * ib + m);
        }
        uint32_t a = (uint32_t)((8 * b + ib) & 15) << 28;
        for (size_t l = 0; l < 4; l++) {
            a |= (uint32_t)((32 * b + 4 * ib + l) & 127) << (7 * l);
        }
        put32(blk + GSI_IQ3_XXS_SCALES_AND_SIGNS + 4 * ib, a);
    }
}

static void iq3_s_index(uint8_t *blk, size_t b) /* 8 blocks: 512 entries, 256 sign bytes */
{
    for (size_t ib = 0; ib < 8; ib++) {
        uint8_t qh = 0;
        for (size_t m = 0; m < 8; m++) {
            const size_t g = 64 * b + 8 * ib + m;
            blk[GSI_IQ3_S_QS + 8 * ib + m] = (uint8_t)g;
            qh = (uint8_t)(qh | ((g >> 8) & 1) << m);
        }
        blk[GSI_IQ3_S_QH + ib] = qh;
        for (size_t l = 0; l < 4; l++) {
            blk[GSI_IQ3_S_SIGNS + 4 * ib + l] = (uint8_t)(32 * b + 4 * ib + l);
        }
    }
    for (size_t k = 0; k < 4; k++) {
        blk[GSI_IQ3_S_SCALES + k] = two_nibbles(4 * b + k);
    }
}

static void iq1_s_index(uint8_t *blk, size_t b) /* 64 blocks: 2048 entries */
{
    for (size_t ib = 0; ib < 8; ib++) {
        uint32_t h = (uint32_t)((8 * b + ib) & 7) << 12 | (uint32_t)((b + ib) & 1) << 15;
        for (size_t l = 0; l < 4; l++) {
            const size_t g = 32 * b + 4 * ib + l;
            blk[GSI_IQ1_S_QS + 4 * ib + l] = (uint8_t)g;
            h |= (uint32_t)((g >> 8) & 7) << (3 * l);
        }
        put16(blk + GSI_IQ1_S_QH + 2 * ib, h);
    }
}

static void iq1_m_index(uint8_t *blk, size_t b) /* 64 blocks: 2048 entries */
{
    uint32_t sc[4] = {0, 0, 0, 0};
    for (size_t ib = 0; ib < 8; ib++) {
        for (size_t l = 0; l < 4; l++) {
            const size_t g = 32 * b + 4 * ib + l;
            blk[GSI_IQ1_M_QS + 4 * ib + l] = (uint8_t)g;
            const uint32_t nib = (uint32_t)((g >> 8) & 7) | (uint32_t)((b + ib + l) & 1) << 3;
            uint8_t *qh = blk + GSI_IQ1_M_QH + 2 * ib + l / 2;
            *qh = (uint8_t)(*qh | nib << (4 * (l % 2)));
        }
        for (size_t h = 0; h < 2; h++) {
            sc[ib / 2] |= (uint32_t)((8 * b + 2 * ib + h) & 7) << (6 * (ib % 2) + 3 * h);
        }
    }
    for (size_t k = 0; k < 4; k++) {
        put16(blk + GSI_IQ1_M_SCALES + 2 * k, sc[k]); /* d nibbles are set afterwards */
    }
}

/* ---- the recipe table: one row per decodable type -------------------------------------- */

#define F16(off) {SCALE_F16, off}
static const recipe recipes[] = {
    {GS_TYPE_F32, 0, {{0}}, NULL, 0},
    {GS_TYPE_F16, 0, {{0}}, NULL, 0},
    {GS_TYPE_BF16, 0, {{0}}, NULL, 0},
    {GS_TYPE_Q4_0, 1, {F16(GSI_Q4_0_D)}, NULL, 0},
    {GS_TYPE_Q4_1, 2, {F16(GSI_Q4_1_D), F16(GSI_Q4_1_M)}, NULL, 0},
    {GS_TYPE_Q5_0, 1, {F16(GSI_Q5_0_D)}, NULL, 0},
    {GS_TYPE_Q5_1, 2, {F16(GSI_Q5_1_D), F16(GSI_Q5_1_M)}, NULL, 0},
    {GS_TYPE_Q8_0, 1, {F16(GSI_Q8_0_D)}, NULL, 0},
    {GS_TYPE_Q8_1, 2, {F16(GSI_Q8_1_D), F16(GSI_Q8_1_S)}, NULL, 0},
    {GS_TYPE_Q1_0, 1, {F16(GSI_Q1_0_D)}, NULL, 0},
    {GS_TYPE_Q2_0, 1, {F16(GSI_Q2_0_D)}, NULL, 0},
    {GS_TYPE_Q2_K, 2, {F16(GSI_Q2_K_D), F16(GSI_Q2_K_DMIN)}, NULL, 0},
    {GS_TYPE_Q3_K, 1, {F16(GSI_Q3_K_D)}, NULL, 0},
    {GS_TYPE_Q4_K, 2, {F16(GSI_Q4_K_D), F16(GSI_Q4_K_DMIN)}, NULL, 0},
    {GS_TYPE_Q5_K, 2, {F16(GSI_Q5_K_D), F16(GSI_Q5_K_DMIN)}, NULL, 0},
    {GS_TYPE_Q6_K, 1, {F16(GSI_Q6_K_D)}, NULL, 0},
    {GS_TYPE_Q8_K, 1, {{SCALE_F32, GSI_Q8_K_D}}, NULL, 0},
    {GS_TYPE_IQ2_XXS, 1, {F16(GSI_IQ2_XXS_D)}, iq2_xxs_index, 8},
    {GS_TYPE_IQ2_XS, 1, {F16(GSI_IQ2_XS_D)}, iq2_xs_index, 16},
    {GS_TYPE_IQ2_S, 1, {F16(GSI_IQ2_S_D)}, iq2_s_index, 32},
    {GS_TYPE_IQ3_XXS, 1, {F16(GSI_IQ3_XXS_D)}, iq3_xxs_index, 4},
    {GS_TYPE_IQ3_S, 1, {F16(GSI_IQ3_S_D)}, iq3_s_index, 8},
    {GS_TYPE_IQ1_S, 1, {F16(GSI_IQ1_S_D)}, iq1_s_index, 64},
    {GS_TYPE_IQ1_M, 1, {{SCALE_IQ1M, GSI_IQ1_M_SCALES}}, iq1_m_index, 64},
    {GS_TYPE_IQ4_NL, 1, {F16(GSI_IQ4_NL_D)}, NULL, 0},
    {GS_TYPE_IQ4_XS, 1, {F16(GSI_IQ4_XS_D)}, NULL, 0},
    {GS_TYPE_MXFP4, 1, {{SCALE_E8M0, GSI_MXFP4_E}}, NULL, 0},
    {GS_TYPE_NVFP4, 4,
     {{SCALE_UE4M3, GSI_NVFP4_D}, {SCALE_UE4M3, GSI_NVFP4_D + 1}, {SCALE_UE4M3, GSI_NVFP4_D + 2},
      {SCALE_UE4M3, GSI_NVFP4_D + 3}},
     NULL, 0},
    {GS_TYPE_TQ1_0, 1, {F16(GSI_TQ1_0_D)}, NULL, 0},
    {GS_TYPE_TQ2_0, 1, {F16(GSI_TQ2_0_D)}, NULL, 0},
};
#undef F16

static const recipe *recipe_for(int32_t type)
{
    for (size_t i = 0; i < sizeof recipes / sizeof recipes[0]; i++) {
        if (recipes[i].type == type) {
            return &recipes[i];
        }
    }
    return NULL;
}

/* True when byte i of a block is part of a scale field (so not a "quant byte"). */
static bool is_scale_byte(const recipe *rc, size_t i)
{
    for (unsigned f = 0; f < rc->n_scales; f++) {
        const scale_field s = rc->scales[f];
        size_t width = 1;
        switch (s.kind) {
        case SCALE_F16:
            width = 2;
            break;
        case SCALE_F32:
            width = 4;
            break;
        case SCALE_E8M0:
        case SCALE_UE4M3:
            width = 1;
            break;
        case SCALE_IQ1M:
            continue; /* nibbles inside bytes shared with sub-scales: set_scale writes them */
        }
        if (i >= s.offset && i < s.offset + width) {
            return true;
        }
    }
    return false;
}

/* ---- building sets --------------------------------------------------------------------- */

typedef struct builder {
    int32_t type;      /* the PRNG streams' seed (GSG_RAW_SEED for the layout-free sets) */
    const char *name;  /* the type's name: KAT file names, messages */
    const recipe *rc;  /* NULL for the layout-free sets */
    size_t block_bytes;
    gsg_sets *out;
    char *err;
    size_t err_size;
} builder;

/* Appends a set of n_blocks zeroed blocks and returns its bytes, or NULL on failure. */
static uint8_t *new_set(builder *bd, const char *name, size_t n_blocks)
{
    if (bd->out->n == sizeof bd->out->items / sizeof bd->out->items[0]) {
        snprintf(bd->err, bd->err_size, "too many sets for %s", bd->name);
        return NULL;
    }
    uint8_t *data = calloc(n_blocks, bd->block_bytes);
    if (data == NULL) {
        snprintf(bd->err, bd->err_size, "out of memory");
        return NULL;
    }
    gsg_set *s = &bd->out->items[bd->out->n++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->data = data;
    s->n_blocks = n_blocks;
    return data;
}

static bool add_kat(builder *bd, const char *kat_dir, const char *set)
{
    char path[4096], name[24];
    snprintf(path, sizeof path, "%s/%s.%s.in", kat_dir, bd->name, set);
    gsk_blob in;
    if (!gsk_read_file(path, &in)) {
        snprintf(bd->err, bd->err_size, "cannot read %s", path);
        return false;
    }
    snprintf(name, sizeof name, "kat.%s", set);
    uint8_t *data = in.size % bd->block_bytes == 0 && in.size > 0
                        ? new_set(bd, name, in.size / bd->block_bytes)
                        : NULL;
    if (data != NULL) {
        memcpy(data, in.data, in.size);
        bd->out->items[bd->out->n - 1].kat = set;
    } else if (bd->err[0] == '\0') {
        snprintf(bd->err, bd->err_size, "%s is not a whole number of blocks", path);
    }
    gsk_blob_free(&in);
    return data != NULL;
}

/* Fills the non-scale bytes of a block with `q`. */
static void fill_quants(const recipe *rc, uint8_t *block, size_t block_bytes, uint8_t q)
{
    for (size_t i = 0; i < block_bytes; i++) {
        if (!is_scale_byte(rc, i)) {
            block[i] = q;
        }
    }
}

/* quant00 / quantff: each special value in each scale field (the other fields 1.0), with every
 * quant byte 0x00 or 0xff. */
static bool add_extreme_quants(builder *bd, const char *name, uint8_t q)
{
    const recipe *rc = bd->rc;
    size_t n = 0;
    for (unsigned f = 0; f < rc->n_scales; f++) {
        const uint32_t *sp;
        n += specials_of(rc->scales[f].kind, &sp);
    }
    uint8_t *data = new_set(bd, name, n);
    if (data == NULL) {
        return false;
    }
    uint8_t *blk = data;
    for (unsigned f = 0; f < rc->n_scales; f++) {
        const uint32_t *sp;
        const size_t n_sp = specials_of(rc->scales[f].kind, &sp);
        for (size_t k = 0; k < n_sp; k++, blk += bd->block_bytes) {
            fill_quants(rc, blk, bd->block_bytes, q);
            set_all_scales(rc, blk, scale_one(rc->scales[f].kind));
            set_scale(blk, rc->scales[f], sp[k]);
        }
    }
    return true;
}

/* scales: each special value in each field, 4 blocks each, random quants, the other fields
 * random finite. */
static bool add_special_scales(builder *bd)
{
    const recipe *rc = bd->rc;
    rng r = rng_for(bd->type, "scales");
    size_t n = 0;
    for (unsigned f = 0; f < rc->n_scales; f++) {
        const uint32_t *sp;
        n += 4 * specials_of(rc->scales[f].kind, &sp);
    }
    uint8_t *blk = new_set(bd, "scales", n);
    if (blk == NULL) {
        return false;
    }
    for (unsigned f = 0; f < rc->n_scales; f++) {
        const uint32_t *sp;
        const size_t n_sp = specials_of(rc->scales[f].kind, &sp);
        for (size_t k = 0; k < 4 * n_sp; k++, blk += bd->block_bytes) {
            fill_random(&r, blk, bd->block_bytes);
            set_finite_scales(rc, blk, &r);
            set_scale(blk, rc->scales[f], sp[k / 4]);
        }
    }
    return true;
}

/* scale-pairs (types with d and a minimum): every pair of special values. */
static bool add_scale_pairs(builder *bd)
{
    const recipe *rc = bd->rc;
    const uint32_t *sp;
    const size_t n_sp = specials_of(rc->scales[0].kind, &sp);
    rng r = rng_for(bd->type, "scale-pairs");
    uint8_t *blk = new_set(bd, "scale-pairs", n_sp * n_sp);
    if (blk == NULL) {
        return false;
    }
    for (size_t i = 0; i < n_sp; i++) {
        for (size_t j = 0; j < n_sp; j++, blk += bd->block_bytes) {
            fill_random(&r, blk, bd->block_bytes);
            set_scale(blk, rc->scales[0], sp[i]);
            set_scale(blk, rc->scales[1], sp[j]);
        }
    }
    return true;
}

/* random (every bit pattern) and finite (scales in ggml's validated domain). */
static bool add_random(builder *bd, const char *name, size_t n_blocks, bool finite)
{
    rng r = rng_for(bd->type, name);
    uint8_t *data = new_set(bd, name, n_blocks);
    if (data == NULL) {
        return false;
    }
    fill_random(&r, data, n_blocks * bd->block_bytes);
    for (size_t b = 0; finite && b < n_blocks; b++) {
        set_finite_scales(bd->rc, data + b * bd->block_bytes, &r);
    }
    return true;
}

/* sequence: byte p of block b is (b + 7p) mod 256, so over 256 blocks every byte position takes
 * every value (E8M0/UE4M3 scales included); f16/f32 scales are 1.0 (the layout-free sets: none
 * is known, every byte follows the pattern). */
static bool add_sequence(builder *bd, const char *name)
{
    uint8_t *data = new_set(bd, name, 256);
    if (data == NULL) {
        return false;
    }
    for (size_t b = 0; b < 256; b++) {
        uint8_t *blk = data + b * bd->block_bytes;
        for (size_t p = 0; p < bd->block_bytes; p++) {
            blk[p] = (uint8_t)(b + 7 * p);
        }
        for (unsigned f = 0; bd->rc != NULL && f < bd->rc->n_scales; f++) {
            const scale_field s = bd->rc->scales[f];
            if (s.kind == SCALE_F16 || s.kind == SCALE_F32 || s.kind == SCALE_IQ1M) {
                set_scale(blk, s, scale_one(s.kind));
            }
        }
    }
    return true;
}

/* grid: the index-covering blocks of a grid type, scale 1.0. */
static bool add_grid(builder *bd)
{
    uint8_t *data = new_set(bd, "grid", bd->rc->index_blocks);
    if (data == NULL) {
        return false;
    }
    for (size_t b = 0; b < bd->rc->index_blocks; b++) {
        uint8_t *blk = data + b * bd->block_bytes;
        bd->rc->index_fill(blk, b);
        set_all_scales(bd->rc, blk, scale_one(bd->rc->scales[0].kind));
    }
    return true;
}

/* 8 blocks of 0x00 and 8 blocks of 0xff. */
static bool add_zero_ones(builder *bd, const char *zero, const char *ones)
{
    uint8_t *data = new_set(bd, zero, 8) != NULL ? new_set(bd, ones, 8) : NULL;
    if (data != NULL) {
        memset(data, 0xff, 8 * bd->block_bytes);
    }
    return data != NULL;
}

/* Element types: every 16-bit pattern (F16, BF16), or special and random f32 patterns. */
static bool add_element_sets(builder *bd)
{
    if (bd->type == GS_TYPE_F32) {
        const size_t n_sp = sizeof f32_specials / sizeof f32_specials[0];
        uint8_t *data = new_set(bd, "specials", n_sp);
        if (data == NULL) {
            return false;
        }
        for (size_t i = 0; i < n_sp; i++) {
            put32(data + 4 * i, f32_specials[i]);
        }
        return add_random(bd, "random", 4096, false);
    }
    uint8_t *data = new_set(bd, "all", 65536);
    if (data == NULL) {
        return false;
    }
    for (uint32_t v = 0; v < 65536; v++) {
        put16(data + 2 * v, v);
    }
    return true;
}

bool gsg_build_sets(int32_t type, const char *kat_dir, gsg_sets *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    gs_type_info info;
    const recipe *rc = recipe_for(type);
    if (gs_type_get_info(type, &info) != GS_OK || !info.decodable || rc == NULL) {
        snprintf(err, err_size, "type %d (%s) has no golden recipe", (int)type,
                 gs_type_name(type));
        return false;
    }
    builder bd = {type, gs_type_name(type), rc, info.block_bytes, out, err, err_size};
    bool ok = true;
    for (int s = 0; ok && gsk_type_has_kat(type) && s < GSK_N_SETS; s++) {
        ok = add_kat(&bd, kat_dir, gsk_set_names[s]);
    }
    ok = ok && add_zero_ones(&bd, "zero", "ones");
    if (ok && rc->n_scales == 0) {
        ok = add_element_sets(&bd);
    } else if (ok) {
        ok = add_extreme_quants(&bd, "quant00", 0x00) && add_extreme_quants(&bd, "quantff", 0xff) &&
             add_special_scales(&bd) && (rc->n_scales != 2 || add_scale_pairs(&bd)) &&
             add_random(&bd, "random", 256, false) && add_random(&bd, "finite", 256, true) &&
             add_sequence(&bd, "sequence") && (rc->index_fill == NULL || add_grid(&bd));
    }
    if (!ok) {
        gsg_free_sets(out);
    }
    return ok;
}

/* The layout-free sets (README.md, "A type whose layout is not known"). */
bool gsg_build_raw_sets(const char *name, uint32_t block_elems, uint32_t block_bytes,
                        const char *kat_dir, gsg_sets *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    builder bd = {GSG_RAW_SEED, name, NULL, block_bytes, out, err, err_size};
    bool ok = true;
    for (int s = 0; ok && s < GSK_N_SETS; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s.in", kat_dir, name, gsk_set_names[s]);
        FILE *f = fopen(path, "rb");
        if (f != NULL) {
            fclose(f);
            ok = add_kat(&bd, kat_dir, gsk_set_names[s]);
        } else if (s == 0) { /* rand: random bytes, as many as ggml's KATs of the block size */
            ok = add_random(&bd, "kat.rand", block_elems <= 32 ? 256 : 64, false);
            if (ok) {
                out->items[out->n - 1].kat = gsk_set_names[s];
                out->items[out->n - 1].kat_generated = true;
            }
        }
    }
    ok = ok && add_zero_ones(&bd, "raw.zero", "raw.ones") && add_random(&bd, "raw.random", 256, false) && add_sequence(&bd, "raw.sequence");
    if (!ok) {
        gsg_free_sets(out);
    }
    return ok;
}

void gsg_free_sets(gsg_sets *sets)
{
    for (size_t i = 0; i < sets->n; i++) {
        free(sets->items[i].data);
    }
    memset(sets, 0, sizeof *sets);
}
