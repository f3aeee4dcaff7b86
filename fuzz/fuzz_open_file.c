/* fuzz_open_file: gs_open_file, the reader's file sources, against the memory parse of the same
 * bytes. The payload becomes a memory file (memfd_create), opened through /proc/self/fd/N in
 * the three ways a file is read: mapped (the default), copy_metadata (one pass of pread into a
 * refilling heap copy) and reopen_for_data (the same, then no descriptor held: data reads
 * reopen and check the file). In fuzzing builds a refill reads 16 bytes first and at most 64
 * at a time (parser/refill.h), so small inputs cross many refill boundaries.
 *
 * Oracles: the same status, offset, context and detail as gs_open_memory; on success the same
 * key-values (records and value bytes), tensors, layout and findings, tensor data read through
 * gs_file_read equal to the input's bytes, no descriptor left behind by reopen_for_data, no
 * leak. After the file is cut (the trailer says where), data reads fail with GS_E_FILE_CHANGED
 * (reopen_for_data) or GS_E_TRUNCATED past the cut, and every metadata getter still works.
 *
 * Trailer: tail[0] bit 0 lenient, bit 1 diagnostic mode, bit 2 the tiny limits of tail[1] and
 * tail[2] (fuzz_tiny_limits); tail[3] nonzero: cut the file to tail[3] * size / 256 bytes
 * after the opens. */
#define _GNU_SOURCE /* memfd_create */
#include <dirent.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"

#define BIT_LENIENT 0x01u
#define BIT_DIAGNOSTIC 0x02u
#define BIT_TINY 0x04u

static int open_descriptors(void)
{
    DIR *d = opendir("/proc/self/fd");
    FUZZ_ASSERT(d != NULL);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n;
}

static bool same_bytes(gs_str a, gs_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* Every record of the file parse equals the memory parse's, bytes not pointers. */
static void same_model(const gs_file *f, const gs_file *m)
{
    FUZZ_ASSERT(gs_kv_count(f) == gs_kv_count(m) && gs_tensor_count(f) == gs_tensor_count(m));
    FUZZ_ASSERT(gs_file_version(f) == gs_file_version(m));
    for (size_t i = 0; i < gs_kv_count(m); i++) {
        gs_kv_info x, y;
        FUZZ_ASSERT(gs_kv_info_at(f, i, &x) == GS_OK && gs_kv_info_at(m, i, &y) == GS_OK);
        FUZZ_ASSERT(same_bytes(x.key, y.key));
        FUZZ_ASSERT(x.type == y.type && x.elem_type == y.elem_type && x.count == y.count);
        FUZZ_ASSERT(x.offset == y.offset && x.value_offset == y.value_offset && x.size == y.size);
        if (x.type == GS_VALUE_STRING) {
            gs_str s, t;
            FUZZ_ASSERT(gs_kv_get_string(f, i, &s) == GS_OK && gs_kv_get_string(m, i, &t) == GS_OK);
            FUZZ_ASSERT(same_bytes(s, t));
        } else if (x.type == GS_VALUE_ARRAY && x.elem_type == GS_VALUE_STRING) {
            for (uint64_t k = 0; k < x.count; k++) {
                gs_str s, t;
                FUZZ_ASSERT(gs_kv_get_array_string(f, i, k, &s) == GS_OK);
                FUZZ_ASSERT(gs_kv_get_array_string(m, i, k, &t) == GS_OK);
                FUZZ_ASSERT(same_bytes(s, t));
            }
        } else if (x.type == GS_VALUE_ARRAY) {
            const void *a, *b;
            uint64_t na, nb;
            FUZZ_ASSERT(gs_kv_get_array_data(f, i, &a, &na) == GS_OK);
            FUZZ_ASSERT(gs_kv_get_array_data(m, i, &b, &nb) == GS_OK && na == nb);
            FUZZ_ASSERT(memcmp(a, b, x.size - (x.value_offset - x.offset)) == 0);
        } else {
            uint64_t u, v;
            gs_status su = gs_kv_get_unsigned(f, i, &u), sv = gs_kv_get_unsigned(m, i, &v);
            FUZZ_ASSERT(su == sv && (su != GS_OK || u == v));
        }
    }
    for (size_t i = 0; i < gs_tensor_count(m); i++) {
        gs_tensor_info x, y;
        FUZZ_ASSERT(gs_tensor_info_at(f, i, &x) == GS_OK && gs_tensor_info_at(m, i, &y) == GS_OK);
        FUZZ_ASSERT(same_bytes(x.name, y.name));
        FUZZ_ASSERT(x.type == y.type && x.n_dims == y.n_dims && x.offset == y.offset);
        FUZZ_ASSERT(x.data_offset == y.data_offset && x.size == y.size);
        FUZZ_ASSERT(x.info_offset == y.info_offset && x.data_in_file == y.data_in_file);
        FUZZ_ASSERT(memcmp(x.ne, y.ne, sizeof x.ne) == 0 && memcmp(x.nb, y.nb, sizeof x.nb) == 0);
    }
    gs_layout a, b;
    gs_file_layout(f, &a);
    gs_file_layout(m, &b);
    FUZZ_ASSERT(memcmp(&a, &b, sizeof a) == 0);
    FUZZ_ASSERT(gs_file_finding_count(f) == gs_file_finding_count(m));
    for (size_t i = 0; i < gs_file_finding_count(m); i++) {
        gs_error e, g;
        FUZZ_ASSERT(gs_file_finding(f, i, &e) == GS_OK && gs_file_finding(m, i, &g) == GS_OK);
        FUZZ_ASSERT(memcmp(&e, &g, sizeof e) == 0);
    }
}

/* Tensor data through gs_file_read: the input's bytes while the file is whole; after the cut,
 * a refusal wherever the range is not what was opened. */
static void check_data(const gs_file *f, const fuzz_input *in, size_t cut, bool reopen)
{
    uint8_t buf[4096];
    for (size_t i = 0; i < gs_tensor_count(f); i++) {
        gs_tensor_info t;
        FUZZ_ASSERT(gs_tensor_info_at(f, i, &t) == GS_OK);
        if (!t.data_in_file || t.size == 0) {
            continue;
        }
        size_t n = t.size < sizeof buf ? (size_t)t.size : sizeof buf;
        gs_status st = gs_file_read(f, t.data_offset, buf, n);
        if (cut >= in->size) {
            FUZZ_ASSERT_MSG(st == GS_OK, "tensor %zu: %s", i, gs_status_name(st));
            FUZZ_ASSERT(memcmp(buf, in->data + t.data_offset, n) == 0);
        } else if (reopen) {
            FUZZ_ASSERT_MSG(st == GS_E_FILE_CHANGED, "cut file: %s", gs_status_name(st));
        } else if (t.data_offset + n > cut) {
            FUZZ_ASSERT_MSG(st == GS_E_TRUNCATED, "cut file: %s", gs_status_name(st));
        } else {
            FUZZ_ASSERT(st == GS_OK && memcmp(buf, in->data + t.data_offset, n) == 0);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_input in = fuzz_split(data, size);
    gs_options base;
    fuzz_options(&base, in.tail[0] & BIT_LENIENT ? GS_PROFILE_LENIENT : GS_PROFILE_STRICT);
    if (in.tail[0] & BIT_TINY) {
        fuzz_tiny_limits(&base, in.tail[1], in.tail[2]);
    }
    base.diagnostic = (in.tail[0] & BIT_DIAGNOSTIC) != 0;

    gs_file *m = NULL;
    gs_error want;
    gs_status st_mem = gs_open_memory(in.data, in.size, &base, &m, &want);

    int fd = memfd_create("fuzz_open_file", MFD_CLOEXEC);
    FUZZ_ASSERT(fd >= 0);
    size_t done = 0;
    while (done < in.size) {
        ssize_t w = write(fd, in.data + done, in.size - done);
        FUZZ_ASSERT(w > 0);
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    gs_file *files[3] = {NULL, NULL, NULL};
    fuzz_alloc allocs[3];
    for (int mode = 0; mode < 3; mode++) {
        gs_options o = base;
        o.copy_metadata = mode == 1;
        o.reopen_for_data = mode == 2;
        fuzz_use_allocator(&o, &allocs[mode], -1);
        const int before = open_descriptors();
        gs_error got;
        gs_status st = gs_open_file(path, &o, &files[mode], &got);
        /* a copy of the metadata is heap the memory parse does not need */
        if (mode > 0 && st == GS_E_LIMIT_MEMORY && st_mem != GS_E_LIMIT_MEMORY) {
            FUZZ_ASSERT(files[mode] == NULL);
            continue;
        }
        FUZZ_ASSERT_MSG(st == st_mem, "mode %d: %s at %llu (%s), memory: %s at %llu (%s)", mode,
                        gs_status_name(st), (unsigned long long)got.offset, got.detail,
                        gs_status_name(st_mem), (unsigned long long)want.offset, want.detail);
        if (st != GS_OK) {
            FUZZ_ASSERT(files[mode] == NULL);
            FUZZ_ASSERT_MSG(open_descriptors() == before, "mode %d: a failed open kept one", mode);
            if (st == GS_E_LIMIT_MEMORY) {
                continue; /* the copy counts too: the limit may be reached elsewhere */
            }
            FUZZ_ASSERT(got.offset == want.offset && got.context_kind == want.context_kind);
            FUZZ_ASSERT(strcmp(got.context, want.context) == 0);
            FUZZ_ASSERT_MSG(strcmp(got.detail, want.detail) == 0, "mode %d: '%s' vs '%s'", mode,
                            got.detail, want.detail);
            continue;
        }
        same_model(files[mode], m);
        gs_identity id;
        FUZZ_ASSERT(gs_file_identity(files[mode], &id) == GS_OK && id.size == in.size);
        if (mode == 2) {
            FUZZ_ASSERT_MSG(open_descriptors() == before, "reopen_for_data kept a descriptor");
            for (size_t i = 0; i < gs_tensor_count(files[mode]); i++) {
                gs_tensor_info t;
                FUZZ_ASSERT(gs_tensor_info_at(files[mode], i, &t) == GS_OK && t.data == NULL);
            }
        }
        check_data(files[mode], &in, in.size, mode == 2);
    }

    /* cut the file under the open handles */
    if (in.tail[3] != 0 && st_mem == GS_OK) {
        size_t cut = (size_t)((uint64_t)in.size * in.tail[3] / 256);
        FUZZ_ASSERT(ftruncate(fd, (off_t)cut) == 0);
        for (int mode = 0; mode < 3; mode++) {
            if (files[mode] == NULL) {
                continue;
            }
            if (mode > 0) {
                same_model(files[mode], m); /* the heap copy: no getter can fault */
            }
            check_data(files[mode], &in, cut, mode == 2);
        }
    }
    for (int mode = 0; mode < 3; mode++) {
        gs_close(files[mode]);
        FUZZ_ASSERT_MSG(allocs[mode].live == 0, "mode %d: %ld allocations leaked", mode,
                        allocs[mode].live);
    }
    gs_close(m);
    close(fd);
    return 0;
}
