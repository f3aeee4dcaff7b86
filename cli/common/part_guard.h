/* What gs_open_split guards against, for the engines that open the parts of a split set one by
 * one because each part needs its own handles (certify: strict and lenient in diagnostic mode;
 * verify: lenient): a part that is a part already opened (the same device and inode: symlinks
 * or hard links to one file) is found before it costs more than its first open, and the
 * metadata of all parts together stays within what one file may use (max_metadata_memory),
 * per kind of handle, so that no set, however many parts it names, takes more memory than one
 * file could. Opens and closes happen on one thread. */
#ifndef GGUFSAFE_CLI_PART_GUARD_H
#define GGUFSAFE_CLI_PART_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ggufsafe.h"
#include "name_index.h"

#define CLI_PART_POOLS 2

/* Heap bytes the reader holds for one kind of handle, counted by its allocator hooks. */
typedef struct cli_part_pool {
    uint64_t in_use;
    uint64_t limit;
} cli_part_pool;

typedef struct cli_part_guard {
    uint8_t (*keys)[GSI_FILE_KEY_BYTES]; /* per part: its file's key once opened */
    size_t n_parts;
    gsi_name_index index;
    gsi_mem mem;
    cli_part_pool pools[CLI_PART_POOLS];
} cli_part_guard;

/* For a set of n_parts parts. GS_OK or GS_E_NO_MEMORY. The guard must stay where it is while
 * any file opened with its options is open (they point into it), and outlive them. */
gs_status cli_part_guard_init(cli_part_guard *g, size_t n_parts);
void cli_part_guard_free(cli_part_guard *g);

/* Sets opts (reader options, already made) for opening a handle of kind pool (< CLI_PART_POOLS):
 * an allocator counting into the pool, and max_metadata_memory lowered to what the pool has
 * left, so that a part that would take the set past it fails with GS_E_LIMIT_MEMORY. */
void cli_part_guard_options(cli_part_guard *g, unsigned pool, gs_options *opts);

/* For part `part`, just opened as f: 0 when it is a file no earlier part is, else the 1-based
 * number of the earlier part it is. *st is GS_E_NO_MEMORY when that could not be told. */
uint32_t cli_part_guard_same_as(cli_part_guard *g, size_t part, const gs_file *f,
                                gs_status *st);

#endif
