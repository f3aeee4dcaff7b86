/* The deep scan (--deep): every block of every tensor read through gs_file_read (so a file that
 * shrinks gives a finding, never a SIGBUS), its scales checked as ggml_validate_row_data checks
 * them, decoded with the library's decoders, and summarised (min, max, mean, NaN and Inf counts,
 * all-zero blocks). Work is cut into fixed chunks of whole blocks, independent of --jobs; each
 * chunk's result is kept under its number and the results are reduced in file order, so the
 * report is the same bytes whatever the number of threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "cert_scales.h"
#include "cert_stats_kernel.h"
#include "cli_source.h"
#include "spans.h"
#include "work_pool.h"

#define CHUNK_BYTES (2u << 20) /* read per item: large enough to amortise a pread */
#define SUB_ELEMS 16384u       /* decoded at a time: 64 KiB of f32 that stays in cache */
_Static_assert(GS_TYPE_DEF_MAX_BLOCK_ELEMS <= SUB_ELEMS, "a caller-defined block fits one pass");

typedef struct item {
    size_t stat;          /* index into the run's stats */
    uint64_t first_block; /* within the tensor */
    uint64_t n_blocks;
} item;

typedef struct result {
    cert_scale_counts sc;
    cert_fstats fs;
    cert_dstats ds;
    gs_status st;
    uint64_t st_offset;
} result;

typedef struct scan {
    cert_run *r;
    item *items;
    result *res;
    uint8_t **raw;  /* per worker */
    float **vals;   /* per worker */
    uint64_t done;  /* bytes scanned, under mu */
    uint64_t total;
    pthread_mutex_t mu; /* serialises the progress callback */
} scan;

static void scan_item(void *ctx, size_t k, unsigned worker)
{
    scan *sc = ctx;
    const item *it = &sc->items[k];
    const cert_stats *st = &sc->r->stats[it->stat];
    const gs_file *f = sc->r->parts[st->pub.part].file;
    result *res = &sc->res[k];
    memset(&res->sc, 0, sizeof res->sc);
    cert_fstats_init(&res->fs);
    cert_dstats_init(&res->ds);
    res->st = GS_OK;
    gs_type_info ti;
    gs_file_type_info(f, st->pub.type, &ti);
    const size_t bb = ti.block_bytes;
    const size_t bytes = (size_t)it->n_blocks * bb;
    const uint64_t at = st->data_offset + it->first_block * bb;
    uint8_t *raw = sc->raw[worker];
    gs_status rs = gs_file_read(f, at, raw, bytes);
    if (rs != GS_OK) {
        res->st = rs;
        res->st_offset = at;
    } else {
        cert_check_scales(st->pub.type, raw, (size_t)it->n_blocks, bb, &res->sc, it->first_block);
        if (st->pub.is_f64) {
            cert_dstats_add(&res->ds, raw, (size_t)it->n_blocks, it->first_block);
        } else if (st->pub.has_values) {
            const size_t sub_blocks = SUB_ELEMS / ti.block_elems;
            float *vals = sc->vals[worker];
            for (size_t b = 0; b < it->n_blocks && res->st == GS_OK; b += sub_blocks) {
                size_t nb = it->n_blocks - b < sub_blocks ? (size_t)(it->n_blocks - b) : sub_blocks;
                size_t ne = nb * ti.block_elems;
                gs_status ds = gs_file_dequantize(f, st->pub.type, raw + b * bb, nb * bb, vals, ne);
                if (ds != GS_OK) {
                    res->st = ds;
                    res->st_offset = at + b * bb;
                    break;
                }
                cert_fstats_add(&res->fs, vals, ne, (it->first_block + b) * ti.block_elems);
            }
        }
    }
    /* Any worker reports, one at a time, before it takes its next item: the callback (a
     * progress bar; a test that shrinks the file) sees every item finish in order of finishing. */
    pthread_mutex_lock(&sc->mu);
    sc->done += bytes;
    if (sc->r->opt.progress != NULL) {
        gs_progress p = {sizeof p, 0, 1, sc->done, sc->total};
        sc->r->opt.progress(sc->r->opt.progress_ctx, &p);
    }
    pthread_mutex_unlock(&sc->mu);
}

static void not_scanned(void *ctx, size_t stat)
{
    ((cert_run *)ctx)->stats[stat].pub.scanned = false;
}

/* One stats record per tensor of every readable part; a tensor whose bytes another tensor
 * already covers is not scanned again (a crafted file could otherwise make a small file cost
 * terabytes of scanning). */
static bool build_stats(cert_run *r)
{
    size_t total = 0;
    for (size_t p = 0; p < r->n_parts; p++) {
        total += gs_tensor_count(r->parts[p].file);
    }
    r->n_stats = 0;
    r->stats = cert_alloc(r, total, sizeof *r->stats);
    cli_span *spans = cert_alloc(r, total, sizeof *spans);
    if (r->stats == NULL || spans == NULL) {
        free(spans);
        return false;
    }
    size_t n_spans = 0;
    for (uint32_t p = 0; p < r->n_parts; p++) {
        const gs_file *f = r->parts[p].file;
        size_t first_span = n_spans;
        for (size_t i = 0; i < gs_tensor_count(f); i++) {
            gs_tensor_info t;
            gs_tensor_info_at(f, i, &t);
            gs_type_info ti;
            gs_file_type_info(f, t.type, &ti);
            cert_stats *s = &r->stats[r->n_stats];
            memset(s, 0, sizeof *s);
            s->pub.part = p;
            s->pub.tensor = i;
            s->name = cert_alloc(r, t.name.len, 1);
            if (s->name == NULL) {
                free(spans);
                return false;
            }
            s->pub.struct_size = sizeof s->pub;
            s->pub.name = s->name;
            s->pub.name_len = t.name.len;
            memcpy(s->name, t.name.ptr, t.name.len);
            s->pub.type = t.type;
            s->data_offset = t.data_offset;
            s->block_bytes = ti.block_bytes;
            s->pub.elements = t.n_elements;
            s->pub.blocks = ti.block_bytes ? t.size / ti.block_bytes : 0;
            s->pub.is_f64 = t.type == GS_TYPE_F64;
            s->pub.has_values = ti.decodable || s->pub.is_f64;
            s->pub.scanned = t.data_in_file && ti.block_bytes > 0;
            s->first_nonfinite = UINT64_MAX;
            s->pub.min = 0;
            s->pub.max = 0;
            if (s->pub.scanned && t.size > 0) {
                spans[n_spans++] = (cli_span){t.data_offset, t.data_offset + t.size, r->n_stats};
            }
            r->n_stats++;
        }
        (void)cli_spans_first_owners(spans + first_span, n_spans - first_span, not_scanned, r);
    }
    free(spans);
    return true;
}

static void merge(cert_stats *s, const result *res)
{
    gs_certify_stats *v = &s->pub;
    if (res->sc.bad > 0 && v->bad_scale_blocks == 0) {
        s->first_bad_block = res->sc.first_bad;
    }
    if (res->sc.odd > 0 && v->odd_scale_blocks == 0) {
        s->first_odd_block = res->sc.first_odd;
    }
    v->bad_scale_blocks += res->sc.bad;
    v->odd_scale_blocks += res->sc.odd;
    v->zero_blocks += res->sc.zero;
    if (s->read_status == GS_OK && res->st != GS_OK) {
        s->read_status = res->st;
        s->read_offset = res->st_offset;
    }
    uint64_t finite, nan, inf, first;
    double lo, hi, sum;
    if (v->is_f64) {
        finite = res->ds.finite, nan = res->ds.nan, inf = res->ds.inf;
        first = res->ds.first_nonfinite;
        lo = res->ds.min, hi = res->ds.max, sum = res->ds.sum;
    } else {
        finite = res->fs.finite, nan = res->fs.nan, inf = res->fs.inf;
        first = res->fs.first_nonfinite;
        lo = res->fs.min, hi = res->fs.max, sum = res->fs.sum;
    }
    if (finite > 0) {
        v->min = v->finite == 0 || lo < v->min ? lo : v->min;
        v->max = v->finite == 0 || hi > v->max ? hi : v->max;
        v->sum += sum;
        v->finite += finite;
    }
    if (first != UINT64_MAX && s->first_nonfinite == UINT64_MAX) {
        s->first_nonfinite = first;
    }
    v->nan += nan;
    v->inf += inf;
}

static void report(cert_run *r, const cert_stats *s)
{
    const gs_certify_stats *v = &s->pub;
    const uint32_t p = v->part;
    if (s->read_status != GS_OK) {
        r->read_failed = true;
        cert_read_failed(r, p, s->read_status, s->read_offset,
                         cli_file_changed(s->read_status) ? "the file changed while its tensor data was scanned"
                                 : "the deep scan of the tensor data");
        return;
    }
    const char *type = gs_type_name(v->type);
    if (v->bad_scale_blocks > 0) {
        cert_add(&r->findings,
                 v->type == GS_TYPE_MXFP4 ? "payload.mxfp4_scale" : "payload.scale_nonfinite", p,
                 s->data_offset + s->first_bad_block * s->block_bytes, CERT_SUBJECT_TENSOR,
                 s->name, v->name_len,
                 "%llu of %llu %s blocks have %s; the first is block %llu",
                 (unsigned long long)v->bad_scale_blocks, (unsigned long long)v->blocks, type,
                 v->type == GS_TYPE_MXFP4 ? "scale exponent 0xFF" : "an Inf or NaN scale",
                 (unsigned long long)s->first_bad_block);
    }
    if (v->odd_scale_blocks > 0) {
        cert_add(&r->findings, "payload.nvfp4_scale", p,
                 s->data_offset + s->first_odd_block * s->block_bytes, CERT_SUBJECT_TENSOR,
                 s->name, v->name_len,
                 "%llu of %llu blocks have a UE4M3 scale byte outside 0x00..0x7E; the first is "
                 "block %llu",
                 (unsigned long long)v->odd_scale_blocks, (unsigned long long)v->blocks,
                 (unsigned long long)s->first_odd_block);
    }
    bool plain_float = v->type == GS_TYPE_F32 || v->type == GS_TYPE_F16 ||
                       v->type == GS_TYPE_BF16 || v->type == GS_TYPE_F64;
    if (plain_float && v->nan + v->inf > 0) {
        cert_add(&r->findings, "payload.float_nonfinite", p,
                 s->data_offset + s->first_nonfinite * s->block_bytes, CERT_SUBJECT_TENSOR,
                 s->name, v->name_len, "%llu NaN and %llu Inf values in %s data; the first is "
                 "element %llu",
                 (unsigned long long)v->nan, (unsigned long long)v->inf, type,
                 (unsigned long long)s->first_nonfinite);
    }
    if (v->blocks > 0 && v->zero_blocks == v->blocks && s->read_status == GS_OK) {
        cert_add(&r->findings, "payload.all_zero", p, s->data_offset, CERT_SUBJECT_TENSOR,
                 s->name, v->name_len, "all %llu bytes are zero",
                 (unsigned long long)(v->blocks * s->block_bytes));
    }
}

/* The scan's buffers: per item, and per worker. */
static void free_scan(scan *sc, unsigned jobs)
{
    for (unsigned w = 0; w < jobs; w++) {
        free(sc->raw != NULL ? sc->raw[w] : NULL);
        free(sc->vals != NULL ? sc->vals[w] : NULL);
    }
    free(sc->raw);
    free(sc->vals);
    free(sc->items);
    free(sc->res);
}

static bool alloc_scan(cert_run *r, scan *sc, size_t n_items, unsigned jobs)
{
    sc->items = cert_alloc(r, n_items, sizeof *sc->items);
    sc->res = cert_alloc(r, n_items, sizeof *sc->res);
    sc->raw = cert_alloc(r, jobs, sizeof *sc->raw);
    sc->vals = cert_alloc(r, jobs, sizeof *sc->vals);
    if (sc->items == NULL || sc->res == NULL || sc->raw == NULL || sc->vals == NULL) {
        return false;
    }
    memset(sc->raw, 0, jobs * sizeof *sc->raw);
    memset(sc->vals, 0, jobs * sizeof *sc->vals);
    for (unsigned w = 0; w < jobs; w++) {
        sc->raw[w] = cert_alloc(r, CHUNK_BYTES, 1);
        sc->vals[w] = cert_alloc(r, SUB_ELEMS, sizeof(float));
        if (sc->raw[w] == NULL || sc->vals[w] == NULL) {
            return false;
        }
    }
    return true;
}

void cert_check_payload(cert_run *r)
{
    if (!build_stats(r)) {
        return;
    }
    size_t n_items = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < r->n_stats; i++) {
        const cert_stats *s = &r->stats[i];
        if (s->pub.scanned && s->pub.blocks > 0) {
            uint64_t per = CHUNK_BYTES / s->block_bytes;
            n_items += (size_t)((s->pub.blocks + per - 1) / per);
            total += s->pub.blocks * s->block_bytes;
        }
    }
    unsigned jobs = r->opt.jobs;
    if (jobs > n_items) {
        jobs = n_items > 0 ? (unsigned)n_items : 1u; /* no idle buffers */
    }
    scan sc = {.r = r, .total = total, .done = 0};
    if (!alloc_scan(r, &sc, n_items, jobs)) {
        free_scan(&sc, jobs);
        return;
    }
    pthread_mutex_init(&sc.mu, NULL);
    size_t k = 0;
    for (size_t i = 0; i < r->n_stats; i++) {
        const cert_stats *s = &r->stats[i];
        if (!s->pub.scanned) {
            continue;
        }
        uint64_t per = CHUNK_BYTES / s->block_bytes;
        for (uint64_t b = 0; b < s->pub.blocks; b += per) {
            sc.items[k++] = (item){i, b, s->pub.blocks - b < per ? s->pub.blocks - b : per};
        }
    }
    work_pool_run(jobs, n_items, scan_item, &sc);
    for (size_t j = 0; j < n_items; j++) {
        merge(&r->stats[sc.items[j].stat], &sc.res[j]);
    }
    for (size_t i = 0; i < r->n_stats; i++) {
        report(r, &r->stats[i]);
    }
    free_scan(&sc, jobs);
    pthread_mutex_destroy(&sc.mu);
}
