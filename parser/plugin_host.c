/* The child's side of a plugin run out of process: `PROGRAM __plugin-host PLUGIN` loads the
 * plugin, sends its encoded table, then answers decode frames until its input ends. The output
 * of every call lies at the very end of a mapping followed by guard pages, and a canary precedes
 * it: a plugin writing past its output faults at the first byte too far, the handler reports how
 * far (GSI_PF_OOB) and the child exits (4); a write before it is found by the canary, reported
 * the same way, and gs_plugin_host_main returns 4. A frame it does not take ends it with 5, a
 * parent that is gone with 3. The parent never trusts any of this (plugin.c checks every
 * frame). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dispatch.h"
#include "fd_io.h"
#include "ggufsafe_plugin.h"
#include "le_load.h"
#include "plugin_proto.h"
#include "plugin_table.h"
#include "type_registry.h"

#define GUARD_BYTES (64u * 1024u)
#define CANARY_BYTES 4096u
#define CANARY 0xA5u

static uint8_t *out_base;   /* the mapping: [canary room | output | guard] */
static uint8_t *guard_at;   /* first byte of the guard pages */
static size_t out_room;     /* bytes before the guard */
static uint8_t *canary_at;  /* where this call's canary begins */

static void send_frame(uint32_t kind, const void *payload, uint32_t len)
{
    uint8_t h[GSI_PF_HEADER];
    gsi_pf_header(h, kind, len);
    if (!gsi_write_all(1, h, sizeof h) || (len > 0 && !gsi_write_all(1, payload, len))) {
        _exit(3); /* the parent is gone */
    }
}

static void send_text(uint32_t kind, const char *text)
{
    size_t n = strlen(text);
    send_frame(kind, text, (uint32_t)(n < GSI_PF_TEXT_MAX ? n : GSI_PF_TEXT_MAX));
}

/* SIGSEGV/SIGBUS: a fault in the guard is a write past the output (async-signal-safe only). */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    uint8_t *a = si->si_addr;
    if (guard_at != NULL && a >= guard_at && a < guard_at + GUARD_BYTES) {
        uint8_t f[GSI_PF_HEADER + 12];
        gsi_pf_header(f, GSI_PF_OOB, 12);
        uint64_t past = (uint64_t)(a - guard_at);
        for (unsigned i = 0; i < 8; i++) {
            f[GSI_PF_HEADER + i] = (uint8_t)(past >> (8 * i));
        }
        f[GSI_PF_HEADER + 8] = 1;
        f[GSI_PF_HEADER + 9] = f[GSI_PF_HEADER + 10] = f[GSI_PF_HEADER + 11] = 0;
        ssize_t w = write(1, f, sizeof f);
        (void)w;
        _exit(4);
    }
    signal(sig, SIG_DFL);
    raise(sig); /* any other fault: the parent sees the signal */
}

static bool setup_output(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t need = CANARY_BYTES + (size_t)GSI_PLUGIN_MAX_OUT_ELEMS * sizeof(float);
    out_room = (need + page - 1) / page * page;
    void *m = mmap(NULL, out_room + GUARD_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        return false;
    }
    out_base = m;
    guard_at = out_base + out_room;
    if (mprotect(guard_at, GUARD_BYTES, PROT_NONE) != 0) {
        return false;
    }
    static uint8_t alt[64 * 1024];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGSEGV, &sa, NULL) == 0 && sigaction(SIGBUS, &sa, NULL) == 0;
}

static const gs_plugin_type *find(const gs_plugin_table *t, int32_t id)
{
    for (size_t i = 0; i < t->n_types; i++) {
        if (t->types[i].id == id) {
            return &t->types[i];
        }
    }
    return NULL;
}

/* One decode frame: 0 when it was answered, else the status the host ends with (5: the parent
 * sent nonsense; 4: the plugin wrote before its output; 3: the parent is gone). */
static int decode_one(const gs_plugin_table *t, const uint8_t *in, uint32_t len)
{
    if (len < 8) {
        return 5;
    }
    int32_t type = (int32_t)gsi_load_u32le(in);
    uint32_t n_elems = gsi_load_u32le(in + 4);
    const gs_plugin_type *ty = find(t, type);
    size_t src_bytes = len - 8;
    if (ty == NULL || n_elems > GSI_PLUGIN_MAX_OUT_ELEMS || ty->block_bytes == 0 ||
        src_bytes % ty->block_bytes != 0 ||
        (uint64_t)(src_bytes / ty->block_bytes) * ty->block_elems != n_elems) {
        return 5;
    }
    float *dst = (float *)(void *)(guard_at - (size_t)n_elems * sizeof(float));
    canary_at = (uint8_t *)dst - CANARY_BYTES;
    memset(canary_at, CANARY, CANARY_BYTES);
    int rc = ty->decode(type, in + 8, src_bytes, dst, n_elems);
    for (size_t i = 0; i < CANARY_BYTES; i++) {
        if (canary_at[i] != CANARY) {
            uint8_t p[12];
            uint64_t before = CANARY_BYTES - i;
            for (unsigned k = 0; k < 8; k++) {
                p[k] = (uint8_t)(before >> (8 * k));
            }
            p[8] = p[9] = p[10] = p[11] = 0;
            send_frame(GSI_PF_OOB, p, sizeof p);
            return 4;
        }
    }
    uint8_t head[GSI_PF_HEADER + 4];
    uint32_t out_len = rc == 0 ? 4 + n_elems * 4u : 4;
    gsi_pf_header(head, GSI_PF_RESULT, out_len);
    for (unsigned i = 0; i < 4; i++) {
        head[GSI_PF_HEADER + i] = (uint8_t)((uint32_t)rc >> (8 * i));
    }
    if (!gsi_write_all(1, head, sizeof head) ||
        (rc == 0 && !gsi_write_all(1, dst, (size_t)n_elems * sizeof(float)))) {
        return 3;
    }
    return 0;
}

/* `--ggml PATH`: ggml's decoders for the types our registry lacks (gs_ggml_decoders) as a plugin
 * table, each type's decode a call of the library's to_float through its gs_decoder.
 * `--ggml-kernel PATH` (GGUFSAFE_KERNEL=ggml in the command): the registry's types too, each
 * decoded by this process's ggml decoder path (gs_set_kernel(GS_KERNEL_GGML), gs_dequantize),
 * so that the parent's output is the in-process ggml path's by construction. F32 (a copy on
 * every path) and the types the loaded ggml cannot convert (Q8_1) are not served: the parent
 * copies the one and refuses the other per tensor, as in-process. */
static const gs_decoder *ggml_decoders;
static size_t ggml_n;

static int ggml_decode(int32_t type, const void *src, size_t src_bytes, float *dst,
                       size_t n_elems)
{
    if (type >= 0 && type < GS_TYPE_COUNT) {
        return (int)gs_dequantize((gs_type)type, src, src_bytes, dst, n_elems);
    }
    for (size_t i = 0; i < ggml_n; i++) {
        if (ggml_decoders[i].type.id == type) {
            const gs_decoder *d = &ggml_decoders[i];
            return (int)d->decode(d->ctx, type, src, src_bytes, dst, n_elems);
        }
    }
    return -1;
}

static const gs_plugin_table *ggml_table(const char *path, bool every_type)
{
    static gs_plugin_type types[GGUFSAFE_PLUGIN_MAX_TYPES];
    static gs_plugin_table table;
    gs_error e;
    if (gs_set_ggml_library(path, &e) != GS_OK ||
        (every_type && gs_set_kernel(GS_KERNEL_GGML) != GS_OK)) {
        char why[GSI_PF_TEXT_MAX];
        (void)gs_ggml_describe(why, sizeof why);
        send_text(GSI_PF_LOAD_ERROR, why);
        return NULL;
    }
    size_t n = 0;
    const gsi_ggml *g = every_type ? gsi_ggml_active() : NULL;
    for (int32_t t = 0; g != NULL && t < GS_TYPE_COUNT; t++) {
        const gsi_type_row *row = gsi_type_lookup(t);
        if (t != GS_TYPE_F32 && gsi_type_is_usable(row) && row->decodable &&
            gsi_ggml_decoder(g, t) != NULL) {
            types[n++] = (gs_plugin_type){t, row->name, row->block_elems, row->block_bytes,
                                          ggml_decode};
        }
    }
    ggml_decoders = gs_ggml_decoders(&ggml_n);
    if ((n == 0 && ggml_n == 0) || ggml_n > GGUFSAFE_PLUGIN_MAX_TYPES - n) {
        send_text(GSI_PF_LOAD_ERROR, ggml_n == 0 ? "the ggml library has no type beyond "
                                                   "ggufsafe's registry"
                                                 : "the ggml library has too many new types");
        return NULL;
    }
    for (size_t i = 0; i < ggml_n; i++) {
        const gs_type_def *t = &ggml_decoders[i].type;
        types[n++] = (gs_plugin_type){t->id, t->name, t->block_elems, t->block_bytes,
                                      ggml_decode};
    }
    table = (gs_plugin_table){GGUFSAFE_PLUGIN_ABI_VERSION, sizeof table, "ggml", n, types};
    return &table;
}

static const gs_plugin_table *plugin_table(const char *path)
{
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        const char *why = dlerror();
        send_text(GSI_PF_LOAD_ERROR, why != NULL ? why : "dlopen failed");
        return NULL;
    }
    gs_plugin_entry_fn entry;
    void *sym = dlsym(dl, GGUFSAFE_PLUGIN_ENTRY_NAME);
    memcpy(&entry, &sym, sizeof entry);
    if (sym == NULL) {
        send_text(GSI_PF_LOAD_ERROR, "no " GGUFSAFE_PLUGIN_ENTRY_NAME " symbol: not a ggufsafe "
                                     "plugin (include/ggufsafe_plugin.h)");
        return NULL;
    }
    return entry();
}

int gs_plugin_host_main(int argc, char **argv)
{
    const bool ggml = argc == 4 && strcmp(argv[2], GS_PLUGIN_HOST_GGML) == 0;
    const bool kernel = argc == 4 && strcmp(argv[2], GS_PLUGIN_HOST_GGML_KERNEL) == 0;
    if ((argc != 3 && !ggml && !kernel) || strcmp(argv[1], GS_PLUGIN_HOST_COMMAND) != 0) {
        fprintf(stderr, "usage: %s " GS_PLUGIN_HOST_COMMAND " PLUGIN | " GS_PLUGIN_HOST_COMMAND
                        " " GS_PLUGIN_HOST_GGML " LIBGGML | " GS_PLUGIN_HOST_COMMAND " "
                        GS_PLUGIN_HOST_GGML_KERNEL " LIBGGML (internal: started by ggufsafe to "
                        "run a decoder plugin or ggml's decoders)\n",
                argc > 0 ? argv[0] : "ggufsafe");
        return 2;
    }
    signal(SIGPIPE, SIG_DFL);
    const gs_plugin_table *t = ggml || kernel ? ggml_table(argv[3], kernel) : plugin_table(argv[2]);
    if (t == NULL) {
        return 1;
    }
    static uint8_t enc[GSI_PLUGIN_TABLE_MAX_BYTES];
    size_t enc_len;
    gs_error e;
    if (gsi_plugin_table_encode(t, enc, &enc_len, &e) != GS_OK) {
        send_text(GSI_PF_TABLE_ERROR, e.detail); /* the in-process status, not a load failure */
        return 1;
    }
    if (!setup_output()) {
        send_text(GSI_PF_LOAD_ERROR, "the child could not map its output buffer");
        return 1;
    }
    send_frame(GSI_PF_TABLE, enc, (uint32_t)enc_len);
    static uint8_t in[GSI_PF_HEADER + 8 + GS_DECODE_CHUNK_BYTES];
    for (;;) {
        uint8_t h[GSI_PF_HEADER];
        if (!gsi_read_all(0, h, sizeof h)) {
            return 0; /* the parent closed: done */
        }
        uint32_t kind = gsi_load_u32le(h), len = gsi_load_u32le(h + 4);
        if (kind == GSI_PF_QUIT) {
            return 0;
        }
        if (kind != GSI_PF_DECODE || len > sizeof in || !gsi_read_all(0, in, len)) {
            return 5;
        }
        int st = decode_one(t, in, len);
        if (st != 0) {
            return st;
        }
    }
}
