#include "diff_match.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

void diff_side_info(const diff_side *s, gs_tensor_info *out)
{
    if (gs_tensor_info_at(s->file, s->index, out) != GS_OK) {
        memset(out, 0, sizeof *out); /* an index we took from the file: not reached */
    }
}

static gs_status push(diff_pairs *l, diff_pair_kind kind, diff_side a, diff_side b)
{
    if (!cli_reserve((void **)&l->items, &l->cap, l->n + 1, sizeof *l->items)) {
        return GS_E_NO_MEMORY;
    }
    diff_pair *item = &l->items[l->n++];
    memset(item, 0, sizeof *item);
    item->kind = kind;
    item->a = a;
    item->b = b;
    l->count[kind]++;
    return GS_OK;
}

static diff_pair_kind classify(const gs_file *fa, const gs_tensor_info *ta, const gs_file *fb,
                               const gs_tensor_info *tb)
{
    if (memcmp(ta->ne, tb->ne, sizeof ta->ne) != 0) {
        return DIFF_PAIR_SHAPE_MISMATCH;
    }
    gs_type_info ia, ib;
    gs_file_type_info(fa, ta->type, &ia);
    gs_file_type_info(fb, tb->type, &ib);
    return ia.decodable && ib.decodable ? DIFF_PAIR_COMPARED : DIFF_PAIR_NOT_DECODABLE;
}

gs_status diff_match(const cli_source *a, const cli_source *b, const cli_name_filter *filter,
                     diff_pairs *out)
{
    memset(out, 0, sizeof *out);
    gs_status st = GS_OK;
    /* Pass 0 walks A and pairs it with B; pass 1 walks B for what A lacks. */
    for (int pass = 0; pass < 2 && st == GS_OK; pass++) {
        const cli_source *self = pass == 0 ? a : b;
        const cli_source *other = pass == 0 ? b : a;
        for (size_t p = 0; p < cli_source_parts(self) && st == GS_OK; p++) {
            const gs_file *f = cli_source_part(self, p);
            for (size_t i = 0; f != NULL && i < gs_tensor_count(f) && st == GS_OK; i++) {
                gs_tensor_info t;
                bool keep = false;
                st = gs_tensor_info_at(f, i, &t);
                if (st == GS_OK) {
                    st = cli_filter_keeps(filter, t.name, &keep);
                }
                if (st != GS_OK || !keep) {
                    continue;
                }
                diff_side mine = {f, i}, theirs = {NULL, 0};
                /* O(1) in a set too: its index, never a probe of every part's */
                bool found = cli_source_find_tensor(other, t.name, &theirs.file, &theirs.index);
                if (pass == 0) {
                    out->tensors_a++;
                    if (!found) {
                        st = push(out, DIFF_PAIR_ONLY_A, mine, theirs);
                    } else {
                        gs_tensor_info tb;
                        diff_side_info(&theirs, &tb);
                        st = push(out, classify(f, &t, theirs.file, &tb), mine, theirs);
                    }
                } else {
                    out->tensors_b++;
                    if (!found) {
                        st = push(out, DIFF_PAIR_ONLY_B, theirs, mine);
                    }
                }
            }
        }
    }
    if (st != GS_OK) {
        diff_pairs_free(out);
    }
    return st;
}

void diff_pairs_free(diff_pairs *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->items[i].worst);
    }
    free(p->items);
    memset(p, 0, sizeof *p);
}
