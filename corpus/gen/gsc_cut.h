/* The verdict for a canonical, valid file cut short at byte `cut`, derived from the field map
 * and the documented rules, in the order the reader applies them:
 *   - a fixed-size field the cut falls in (or before): GS_E_TRUNCATED at that field;
 *   - string bytes: GS_E_STRING_EXCEEDS_FILE at the string's length field;
 *   - header counts: n_tensors*25 then n_kv*14 against the bytes after the header, and
 *     n_tensors*25 again after the key-value section: GS_E_COUNT_EXCEEDS_FILE at offset 8 or 16;
 *   - array counts: count times the smallest element (8 for strings) against what follows the
 *     count: GS_E_COUNT_EXCEEDS_FILE at the count;
 *   - the padding before the data section when there are tensors: GS_E_TRUNCATED at its start;
 *   - tensor data, in order: GS_E_DATA_OUTSIDE_FILE at the tensor's offset field;
 *   - otherwise (only tail padding missing, or no tensors) the file is accepted.
 * The same for both profiles when the uncut file is valid for both. */
#ifndef GGUFSAFE_GSC_CUT_H
#define GGUFSAFE_GSC_CUT_H

#include "gsc_manifest.h"
#include "gsw_map.h"

gsc_verdict gsc_cut_verdict(const gsw_bytes *full, const gsw_map *map, uint64_t cut);

#endif
