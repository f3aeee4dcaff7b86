/* Status codes: stable numbers, one distinct name and message each. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufsafe.h"

Test(status, names_and_messages)
{
    int named = 0;
    for (int s = 0; s < 200; s++) {
        const char *name = gs_status_name((gs_status)s);
        if (strcmp(name, "GS_E_UNKNOWN_STATUS") == 0) {
            cr_assert_str_eq(gs_status_message((gs_status)s), "unknown status");
            continue;
        }
        named++;
        cr_assert(strncmp(name, s == 0 ? "GS_OK" : "GS_E_", s == 0 ? 5 : 5) == 0, "%s", name);
        cr_assert_gt(strlen(gs_status_message((gs_status)s)), 5);
        for (int t = 0; t < s; t++) {
            cr_assert_str_neq(name, gs_status_name((gs_status)t));
            if (strcmp(gs_status_name((gs_status)t), "GS_E_UNKNOWN_STATUS") != 0) {
                cr_assert_str_neq(gs_status_message((gs_status)s),
                                  gs_status_message((gs_status)t));
            }
        }
    }
    cr_assert_eq(named, 60);
}

Test(status, numbers_are_pinned)
{
    /* These numbers are part of the ABI: never renumber. */
    cr_assert_eq(GS_OK, 0);
    cr_assert_eq(GS_E_INTERNAL, 7);
    cr_assert_eq(GS_E_BAD_MAGIC, 20);
    cr_assert_eq(GS_E_TRUNCATED, 23);
    cr_assert_eq(GS_E_COUNT_EXCEEDS_FILE, 24);
    cr_assert_eq(GS_E_STRING_EXCEEDS_FILE, 25);
    cr_assert_eq(GS_E_LIMIT_MEMORY, 35);
    cr_assert_eq(GS_E_ALIGNMENT_VALUE, 49);
    cr_assert_eq(GS_E_DUPLICATE_TENSOR_NAME, 69);
    cr_assert_eq(GS_E_DATA_OUTSIDE_FILE, 83);
    cr_assert_eq(GS_E_SPLIT_DUPLICATE_TENSOR, 97);
    cr_assert_eq(GS_E_NOT_REGULAR_FILE, 11);
    cr_assert_eq(GS_E_NO_SUCH_FILE, 12);
    cr_assert_eq(GS_E_FILE_CHANGED, 13);
    cr_assert_eq(GS_E_DECODER_FAILED, 14);
    cr_assert_eq(GS_E_SPLIT_SAME_FILE, 98);
    cr_assert_str_eq(gs_status_name(GS_E_TRUNCATED), "GS_E_TRUNCATED");
}

Test(status, type_registry)
{
    gs_type_info ti;
    cr_assert_eq(gs_type_get_info(GS_TYPE_Q4_K, &ti), GS_OK);
    cr_assert_str_eq(ti.name, "q4_K");
    cr_assert_eq(ti.block_elems, 256);
    cr_assert_eq(ti.block_bytes, 144);
    cr_assert_eq(ti.status, GS_TYPE_LIVE);
    cr_assert(ti.decodable);
    cr_assert_eq(gs_type_get_info(GS_TYPE_Q8_K, &ti), GS_OK);
    cr_assert_eq(ti.status, GS_TYPE_ACTIVATION);
    cr_assert_eq(gs_type_get_info(GS_TYPE_I32, &ti), GS_OK);
    cr_assert(!ti.decodable);
    cr_assert_eq(gs_type_get_info(36, &ti), GS_E_REMOVED_TENSOR_TYPE);
    cr_assert_str_eq(ti.name, "iq4_nl_4_4");
    cr_assert_eq(ti.block_elems, 0);
    cr_assert_eq(gs_type_get_info(43, &ti), GS_E_UNKNOWN_TENSOR_TYPE);
    cr_assert_eq(ti.status, GS_TYPE_UNKNOWN);
    cr_assert_str_eq(gs_type_name(-5), "unknown");
    cr_assert_eq(gs_type_get_info(0, NULL), GS_E_INVALID_ARGUMENT);
    /* geometry of every live id, as ggml's ggml_blck_size / ggml_type_size report it */
    static const uint32_t geometry[GS_TYPE_COUNT][2] = {
        {1, 4}, {1, 2}, {32, 18}, {32, 20}, {0, 0}, {0, 0}, {32, 22}, {32, 24}, {32, 34},
        {32, 36}, {256, 84}, {256, 110}, {256, 144}, {256, 176}, {256, 210}, {256, 292},
        {256, 66}, {256, 74}, {256, 98}, {256, 50}, {32, 18}, {256, 110}, {256, 82}, {256, 136},
        {1, 1}, {1, 2}, {1, 4}, {1, 8}, {1, 8}, {256, 56}, {1, 2}, {0, 0}, {0, 0}, {0, 0},
        {256, 54}, {256, 66}, {0, 0}, {0, 0}, {0, 0}, {32, 17}, {64, 36}, {128, 18}, {64, 18}};
    int live = 0;
    for (int32_t id = 0; id < GS_TYPE_COUNT; id++) {
        gs_status st = gs_type_get_info(id, &ti);
        cr_assert_eq(ti.block_elems, geometry[id][0], "id %d", id);
        cr_assert_eq(ti.block_bytes, geometry[id][1], "id %d", id);
        live += st == GS_OK;
    }
    cr_assert_eq(live, 35);
}

/* The status table of docs/status-codes.md lists every status with its number, name and message. */
Test(status, docs_table_matches)
{
    const char *root = getenv("GS_SOURCE_DIR");
    cr_assert_not_null(root, "run through ctest");
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/status-codes.md", root);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    int rows = 0;
    for (int s = 0; s < 200; s++) {
        const char *name = gs_status_name((gs_status)s);
        if (strcmp(name, "GS_E_UNKNOWN_STATUS") == 0) {
            continue;
        }
        char row[512];
        snprintf(row, sizeof row, "| %d | `%s` | %s |\n", s, name, gs_status_message((gs_status)s));
        cr_assert(strstr(text, row) != NULL, "docs/status-codes.md lacks the row: %s", row);
        rows++;
    }
    cr_assert_eq(rows, 60);
}
