/* Every strict-only problem is its own finding, whatever came before it. For every ordered pair
 * of the strict-only rules (a key that is not UTF-8, a string value that is not UTF-8, a tensor
 * name that is not UTF-8, a bool byte other than 0 or 1, a key outside the grammar, a tensor name
 * over 63 bytes, an alignment of 13, an offset that is aligned but not packed), a file is built
 * with the first rule's construct before the second's in its records, and certification must
 * name both: reader.<STATUS> at the byte the rule points at, each as a finding of its own (56
 * files, both orders of every pair). The lenient profile, which checks none of them, certifies
 * the same files except for what lenient itself requires. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ggufsafe_certify.h"
#include "gsw_raw.h"

typedef enum rule {
    KEY_UTF8,
    VALUE_UTF8,
    NAME_UTF8,
    BOOL_BYTE,
    KEY_GRAMMAR,
    NAME_LENGTH,
    ALIGNMENT,
    UNPACKED,
    N_RULES
} rule;

static const char *const rule_names[N_RULES] = {
    "a key not UTF-8",  "a value not UTF-8", "a name not UTF-8", "a bool byte of 2",
    "a key outside the grammar", "an 87-byte name", "alignment 13", "an unpacked offset",
};

/* What certification must report for a rule: the reader's status, and where. */
static const gs_status rule_status[N_RULES] = {
    GS_E_BAD_KEY,          GS_E_INVALID_UTF8, GS_E_INVALID_UTF8,     GS_E_BAD_BOOL,
    GS_E_BAD_KEY,          GS_E_TENSOR_NAME_TOO_LONG, GS_E_ALIGNMENT_VALUE, GS_E_OFFSET_NOT_PACKED,
};

static bool is_tensor_rule(rule r)
{
    return r == NAME_UTF8 || r == NAME_LENGTH || r == UNPACKED;
}

typedef struct built {
    gsw_bytes b;
    uint64_t at[N_RULES]; /* where each rule of the pair points */
} built;

static void add_kv(built *o, rule r)
{
    size_t rec;
    switch (r) {
    case KEY_UTF8:
        o->at[r] = gsw_raw_kv_u8(&o->b, "k.\xc3\x28", 1);
        break;
    case VALUE_UTF8:
        rec = gsw_raw_kv_head(&o->b, "k.s", 3, GS_VALUE_STRING);
        gsw_put_cstr(&o->b, "\xff");
        o->at[r] = rec + 8 + 3 + 4;
        break;
    case BOOL_BYTE:
        rec = gsw_raw_kv_head(&o->b, "k.b", 3, GS_VALUE_BOOL);
        gsw_put_u8(&o->b, 2);
        o->at[r] = rec + 8 + 3 + 4;
        break;
    case KEY_GRAMMAR:
        o->at[r] = gsw_raw_kv_u8(&o->b, "Bad.Key", 1);
        break;
    case ALIGNMENT:
        rec = gsw_raw_kv_u32(&o->b, "general.alignment", 13);
        o->at[r] = rec + 8 + 17 + 4;
        break;
    case NAME_UTF8:
    case NAME_LENGTH:
    case UNPACKED:
    case N_RULES:
        break;
    }
}

/* An 8-element f32 tensor per tensor rule, at the running padded offset, or one alignment unit
 * past it for UNPACKED (aligned, in the file, not packed). */
static void add_tensor(built *o, rule r, uint64_t *offset, uint32_t align)
{
    uint64_t ne[1] = {8};
    char name[87];
    memset(name, 'n', sizeof name);
    const char *n = r == NAME_UTF8 ? "t\xff" : r == NAME_LENGTH ? name : "u";
    size_t len = r == NAME_UTF8 ? 2 : r == NAME_LENGTH ? sizeof name : 1;
    uint64_t at = *offset + (r == UNPACKED ? align : 0);
    size_t info = gsw_raw_tensor_n(&o->b, n, len, 1, ne, GS_TYPE_F32, at);
    o->at[r] = r == UNPACKED ? gsw_raw_offset_field(info, len, 1) : info;
    *offset = at + (32 + align - 1) / align * align;
}

static void build(built *o, rule first, rule second)
{
    rule pair[2] = {first, second};
    size_t n_kv = 0, n_tensors = 0;
    for (int i = 0; i < 2; i++) {
        is_tensor_rule(pair[i]) ? n_tensors++ : n_kv++;
    }
    uint32_t align = first == ALIGNMENT || second == ALIGNMENT ? 13 : 32;
    gsw_bytes_init(&o->b);
    memset(o->at, 0, sizeof o->at);
    gsw_raw_header(&o->b, 3, n_tensors, n_kv);
    for (int i = 0; i < 2; i++) {
        if (!is_tensor_rule(pair[i])) {
            add_kv(o, pair[i]);
        }
    }
    uint64_t offset = 0;
    for (int i = 0; i < 2; i++) {
        if (is_tensor_rule(pair[i])) {
            add_tensor(o, pair[i], &offset, align);
        }
    }
    gsw_pad_to(&o->b, align);
    gsw_put_fill(&o->b, 0, (size_t)offset);
}

/* The findings with the code of status st at offset at. */
static size_t count(const gs_certify *r, gs_status st, uint64_t at)
{
    char code[64];
    snprintf(code, sizeof code, "reader.%s", gs_status_name(st));
    gs_certify_summary sum = {.struct_size = sizeof sum};
    cr_assert_eq(gs_certify_get_summary(r, &sum), GS_OK);
    size_t n = 0;
    for (size_t i = 0; i < sum.finding_count; i++) {
        gs_certify_finding f = {.struct_size = sizeof f};
        cr_assert_eq(gs_certify_finding_at(r, i, &f), GS_OK);
        n += strcmp(f.code, code) == 0 && f.offset == at &&
             (f.profiles & GS_CERTIFY_STRICT) != 0;
    }
    return n;
}

Test(strict_rules, every_pair_in_both_orders_names_both)
{
    size_t files = 0;
    for (int a = 0; a < N_RULES; a++) {
        for (int b = 0; b < N_RULES; b++) {
            if (a == b) {
                continue;
            }
            built o;
            build(&o, (rule)a, (rule)b);
            gs_certify_options opt;
            gs_certify_options_init(&opt);
            gs_certify *r;
            gs_error e;
            cr_assert_eq(gs_certify_memory(o.b.data, o.b.len, "pair.gguf", &opt, &r, &e), GS_OK,
                         "%s, then %s: %s", rule_names[a], rule_names[b], e.detail);
            for (int k = 0; k < 2; k++) {
                int which = k == 0 ? a : b;
                cr_expect_eq(count(r, rule_status[which], o.at[which]), 1,
                             "%s, then %s: %s is not named once as reader.%s at byte %llu",
                             rule_names[a], rule_names[b], rule_names[which],
                             gs_status_name(rule_status[which]),
                             (unsigned long long)o.at[which]);
            }
            gs_certify_summary sum = {.struct_size = sizeof sum};
            cr_assert_eq(gs_certify_get_summary(r, &sum), GS_OK);
            cr_expect(!sum.verdict.certified, "%s, then %s", rule_names[a], rule_names[b]);
            gs_certify_free(r);
            gsw_bytes_free(&o.b);
            files++;
        }
    }
    cr_expect_eq(files, N_RULES * (N_RULES - 1));
}

/* A rule broken twice is two findings too: two bool keys, two long names. */
Test(strict_rules, the_same_rule_twice_is_two_findings)
{
    gsw_bytes b;
    gsw_bytes_init(&b);
    gsw_raw_header(&b, 3, 2, 2);
    size_t k1 = gsw_raw_kv_head(&b, "k.b", 3, GS_VALUE_BOOL);
    gsw_put_u8(&b, 2);
    size_t k2 = gsw_raw_kv_head(&b, "k.c", 3, GS_VALUE_BOOL);
    gsw_put_u8(&b, 7);
    char name[70];
    memset(name, 'a', sizeof name);
    uint64_t ne[1] = {8};
    size_t t1 = gsw_raw_tensor_n(&b, name, sizeof name, 1, ne, GS_TYPE_F32, 0);
    name[0] = 'b';
    size_t t2 = gsw_raw_tensor_n(&b, name, sizeof name, 1, ne, GS_TYPE_F32, 32);
    gsw_pad_to(&b, 32);
    gsw_put_fill(&b, 0, 64);
    gs_certify *r;
    cr_assert_eq(gs_certify_memory(b.data, b.len, "twice.gguf", NULL, &r, NULL), GS_OK);
    cr_expect_eq(count(r, GS_E_BAD_BOOL, k1 + 8 + 3 + 4), 1);
    cr_expect_eq(count(r, GS_E_BAD_BOOL, k2 + 8 + 3 + 4), 1);
    cr_expect_eq(count(r, GS_E_TENSOR_NAME_TOO_LONG, t1), 1);
    cr_expect_eq(count(r, GS_E_TENSOR_NAME_TOO_LONG, t2), 1);
    gs_certify_free(r);
    gsw_bytes_free(&b);
}
