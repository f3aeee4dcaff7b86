/* An open-addressing hash index from names (exact length and bytes) to record numbers, for keys
 * and tensor names: O(1) lookups and linear-time duplicate detection. */
#ifndef GGUFSAFE_NAME_INDEX_H
#define GGUFSAFE_NAME_INDEX_H

#include "mem.h"
#include "siphash.h"

/* Resolves record i to its name bytes; used to compare candidates on a probe. */
typedef struct gsi_name_source {
    const void *ctx;
    const uint8_t *(*name_at)(const void *ctx, uint32_t i, uint64_t *len);
} gsi_name_source;

typedef struct gsi_slot {
    uint32_t record_plus_one; /* 0 = empty */
    uint32_t hash;            /* low 32 bits of the name's hash: the bucket (capacity is at most
                                 2^32) and a filter that skips most byte comparisons; kept so
                                 that growing never re-reads or re-hashes a name */
} gsi_slot;

typedef struct gsi_name_index {
    gsi_slot *slots;
    size_t cap;   /* power of two, or 0 */
    size_t used;
    gsi_sipkey key;
} gsi_name_index;

void gsi_index_init(gsi_name_index *ix);
void gsi_index_free(gsi_name_index *ix, gsi_mem *mem);

/* Room for n names without growing: the capacity n inserts would grow it to, at once (so that
 * no table is filled and moved on the way). GS_OK, or the allocation's failure (the index is
 * unchanged). */
gs_status gsi_index_reserve(gsi_name_index *ix, gsi_mem *mem, size_t n);

/* Inserts record `record` named (name, len). If an equal name is already indexed, returns GS_OK
 * with *dup set to true and *dup_record to the earlier record, inserting nothing. */
gs_status gsi_index_insert(gsi_name_index *ix, gsi_mem *mem, const gsi_name_source *src,
                           const uint8_t *name, uint64_t len, uint32_t record, bool *dup,
                           uint32_t *dup_record);

/* gsi_index_insert in two steps, so that the caller can do other work while the slot's cache
 * line arrives (the slot is a cache miss for every name once the table outgrows the cache: it
 * was most of an open's time on 160,000 keys): the name's hash, with a prefetch of its slot,
 * then the insert with that hash (the one gsi_index_hash_prefetch gave for this index). */
uint32_t gsi_index_hash_prefetch(const gsi_name_index *ix, const uint8_t *name, uint64_t len);
gs_status gsi_index_insert_hashed(gsi_name_index *ix, gsi_mem *mem, const gsi_name_source *src,
                                  const uint8_t *name, uint64_t len, uint32_t hash,
                                  uint32_t record, bool *dup, uint32_t *dup_record);

/* Returns true and sets *record when the exact name is indexed. */
bool gsi_index_find(const gsi_name_index *ix, const gsi_name_source *src, const uint8_t *name,
                    uint64_t len, uint32_t *record);

/* A file's device and inode as a name of GSI_FILE_KEY_BYTES bytes: two opens of one file (links)
 * have equal keys. For finding the parts of a split set that are one file. */
#define GSI_FILE_KEY_BYTES 16
void gsi_file_key(const gs_identity *id, uint8_t key[GSI_FILE_KEY_BYTES]);

#ifdef GGUFSAFE_TESTING
/* Test builds only (the reader's ggufsafe_testing_static clone, never a released library): every
 * slot a lookup or an insert examines and every slot a growth moves, counted, so that tests hold
 * the commands' lookups to their complexity by counting operations rather than timing them. */
uint64_t gsi_index_probes(void);
void gsi_index_probes_reset(void);
#endif

#endif
