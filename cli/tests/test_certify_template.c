/* meta.chat_template_risk: templates as models ship them certify clean; every form of reaching
 * Python's internals the check documents is flagged, at the exact byte of the first offending
 * fragment, quoted escaped, with the count; templates larger than any real one are flagged; the
 * named templates are checked too and nothing else is; the finding is a warning (certified
 * unless warnings fail), and the verdict says what it means. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggufsafe_certify.h"
#include "gsw_write.h"

/* A model with general.architecture and one f32 tensor, plus key = value (a string). */
static void model_with(gsw_bytes *b, gsw_map *map, const char *key, const char *value,
                       size_t value_len)
{
    gsw_model m;
    gsw_model_init(&m, 3);
    gsw_set_cstr(gsw_add(&m, "general.architecture"), "llama");
    gsw_set_string(gsw_add(&m, key), value, value_len);
    uint64_t n = 8;
    gsw_tensor *t = gsw_add_tensor(&m, "w", 1, &n, GS_TYPE_F32);
    cr_assert(gsw_tensor_fill(t, 0, 1u << 20));
    memset(t->data.ptr, 0, 32);
    char why[256];
    gsw_bytes_init(b);
    gsw_map_init(map);
    cr_assert_eq(gsw_write(&m, 0, b, map, why, sizeof why), 0, "%s", why);
    gsw_model_free(&m);
}

typedef struct outcome {
    size_t risks;        /* meta.chat_template_risk findings */
    uint64_t offset;     /* of the first */
    char message[1024];
    bool certified;
    char verdict[768];
} outcome;

static outcome certify(const char *key, const char *tmpl, size_t len, uint64_t *value_at,
                       gs_certify_severity fail_on)
{
    gsw_bytes b;
    gsw_map map;
    model_with(&b, &map, key, tmpl, len);
    *value_at = gsw_at(&map, GSW_STR, 1, 0);
    gs_certify_options opt;
    gs_certify_options_init(&opt);
    opt.fail_on = fail_on;
    gs_certify *r;
    cr_assert_eq(gs_certify_memory(b.data, b.len, "t.gguf", &opt, &r, NULL), GS_OK);
    outcome o;
    memset(&o, 0, sizeof o);
    gs_certify_summary sum = {.struct_size = sizeof sum};
    cr_assert_eq(gs_certify_get_summary(r, &sum), GS_OK);
    o.certified = sum.verdict.certified;
    snprintf(o.verdict, sizeof o.verdict, "%s", sum.verdict_sentence);
    for (size_t i = 0; i < sum.finding_count; i++) {
        gs_certify_finding f = {.struct_size = sizeof f};
        cr_assert_eq(gs_certify_finding_at(r, i, &f), GS_OK);
        if (strcmp(f.code, "meta.chat_template_risk") == 0) {
            if (o.risks++ == 0) {
                o.offset = f.offset;
                snprintf(o.message, sizeof o.message, "%s", f.message);
                cr_expect_eq(f.severity, GS_CERTIFY_WARNING);
                cr_expect_eq(f.subject, GS_CERTIFY_SUBJECT_KEY);
                cr_expect_eq(f.name_len, strlen(key));
            }
        }
    }
    gs_certify_free(r);
    gsw_bytes_free(&b);
    gsw_map_free(&map);
    return o;
}

static outcome certify_template(const char *tmpl, uint64_t *value_at)
{
    return certify("tokenizer.chat_template", tmpl, strlen(tmpl), value_at, GS_CERTIFY_ERROR);
}

/* The shape of the templates models ship: ChatML, Llama 3 (namespace, strftime_now, tojson),
 * Mistral (raise_exception), Gemma (loop.first, trim); text that mentions "videos." and
 * "macOS." is no module. */
Test(template, real_templates_certify_clean)
{
    static const char *const real[] = {
        "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + "
        "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt "
        "%}{{ '<|im_start|>assistant\\n' }}{% endif %}",
        "{{- bos_token }}{%- set ns = namespace(found=false) -%}{%- if not date_string is "
        "defined %}{%- set date_string = strftime_now(\"%d %b %Y\") %}{%- endif %}{%- for m in "
        "messages %}{{- '<|start_header_id|>' + m['role'] + '<|end_header_id|>\\n\\n' + "
        "m['content'] | trim + '<|eot_id|>' }}{%- if m.tool_calls %}{{ m.tool_calls | tojson "
        "}}{%- endif %}{%- endfor %}",
        "{%- if messages[0]['role'] == 'system' %}{%- set system_message = messages[0]['content'] "
        "%}{%- endif %}{%- for message in loop_messages %}{%- if (message['role'] == 'user') != "
        "(loop.index0 % 2 == 0) %}{{- raise_exception('Conversation roles must alternate "
        "user/assistant/user/assistant/...') }}{%- endif %}{%- endfor %}",
        "{{ bos_token }}{% for message in messages %}{% if loop.first %}You describe videos. "
        "You run on macOS. {% endif %}<start_of_turn>{{ message['role'] }}\\n{{ "
        "message['content'] | trim }}<end_of_turn>\\n{% endfor %}",
    };
    for (size_t i = 0; i < sizeof real / sizeof real[0]; i++) {
        uint64_t at;
        outcome o = certify_template(real[i], &at);
        cr_expect_eq(o.risks, 0, "template %zu: %s", i, o.message);
        cr_expect(o.certified, "template %zu: %s", i, o.verdict);
        cr_expect_str_eq(o.verdict, "sound: no problems found", "template %zu", i);
    }
}

/* Each documented form, at the byte of its first fragment. */
Test(template, every_documented_form_is_flagged_where_it_starts)
{
    static const struct {
        const char *tmpl;
        const char *first;   /* the fragment the finding points at */
        const char *why;
        unsigned count;
    } risky[] = {
        {"{{ ''.__class__.__mro__[1].__subclasses__() }}", "__class__",
         "reaches Python internals", 3},
        {"{{ cycler.__init__.__globals__.os.popen('id').read() }}", "__init__",
         "reaches Python internals", 4},
        {"{{ lipsum.__globals__['__builtins__']['__import__']('os') }}", "__globals__",
         "reaches Python internals", 3},
        {"{{ x|attr('\\x5f\\x5fclass\\x5f\\x5f') }}", "|attr",
         "reads attributes by computed name (|attr)", 5},
        {"{{ x | attr (name) }}", "| attr", "reads attributes by computed name (|attr)", 1},
        {"{{ '\\u005f\\u005fclass\\u005f\\u005f' }}", "\\u005f",
         "spells an underscore as an escape sequence", 4},
        {"{% set s = 'subprocess' %}", "subprocess", "names the subprocess module", 1},
        {"{{ eval(code) }}", "eval(", "calls eval", 1},
        {"{{ self._TemplateReference__context }}", "_TemplateReference__context",
         "reaches Python internals", 1},
    };
    for (size_t i = 0; i < sizeof risky / sizeof risky[0]; i++) {
        uint64_t at;
        outcome o = certify_template(risky[i].tmpl, &at);
        cr_expect_eq(o.risks, 1, "%s", risky[i].tmpl);
        uint64_t want = at + (uint64_t)(strstr(risky[i].tmpl, risky[i].first) - risky[i].tmpl);
        cr_expect_eq(o.offset, want, "%s: at %llu, want %llu", risky[i].tmpl,
                     (unsigned long long)o.offset, (unsigned long long)want);
        char head[256];
        snprintf(head, sizeof head, "%s: '", risky[i].why);
        cr_expect_eq(strncmp(o.message, head, strlen(head)), 0, "%s: %s", risky[i].tmpl,
                     o.message);
        char count[64];
        snprintf(count, sizeof count, "(%u risky %s in ", risky[i].count,
                 risky[i].count == 1 ? "fragment" : "fragments");
        cr_expect(strstr(o.message, count) != NULL, "%s: %s", risky[i].tmpl, o.message);
        /* a warning: certified when only errors fail, with a verdict that says why to care */
        cr_expect(o.certified);
        cr_expect_eq(strncmp(o.verdict, "usable, but its chat template can run code", 42), 0,
                     "%s", o.verdict);
    }
}

/* The fragment and its surroundings are quoted escaped: a template cannot drive the terminal. */
Test(template, quoted_bytes_are_escaped)
{
    static const char tmpl[] = "\x1b[2J\x1b]0;pwned\x07{{ ''.__class__ }}\xff";
    uint64_t at;
    outcome o = certify_template(tmpl, &at);
    cr_assert_eq(o.risks, 1);
    cr_expect_str_eq(o.message,
                     "reaches Python internals: '__class__' in '\\x1b[2J\\x1b]0;pwned\\x07{{ "
                     "''.__class__ }}\\xff' (1 risky fragment in 33 bytes)");
}

/* Larger than 64 KiB: flagged for its size alone, at the template's first byte. */
Test(template, templates_larger_than_any_real_one)
{
    size_t n = 64 * 1024 + 1;
    char *big = malloc(n + 1);
    cr_assert_not_null(big);
    memset(big, 'x', n);
    big[n] = '\0';
    uint64_t at;
    outcome o = certify("tokenizer.chat_template", big, n, &at, GS_CERTIFY_ERROR);
    cr_expect_eq(o.risks, 1);
    cr_expect_eq(o.offset, at);
    cr_expect_str_eq(o.message, "65,537 bytes: larger than any real chat template (they take a "
                                "few kilobytes), so it hides more than a template");
    memcpy(big + 100, "__class__", 9);
    o = certify("tokenizer.chat_template", big, n, &at, GS_CERTIFY_ERROR);
    cr_expect(strstr(o.message, "(1 risky fragment in 65,537 bytes, larger than any real chat "
                                "template)") != NULL,
              "%s", o.message);
    /* exactly 64 KiB is not too large */
    o = certify("tokenizer.chat_template", big + 200, n - 201, &at, GS_CERTIFY_ERROR);
    cr_expect_eq(o.risks, 0, "%s", o.message);
    free(big);
}

/* Named templates are checked; other keys that start alike, and other values, are not. */
Test(template, which_keys_hold_templates)
{
    static const char bad[] = "{{ ''.__class__ }}";
    static const struct {
        const char *key;
        size_t risks;
    } keys[] = {
        {"tokenizer.chat_template.tool_use", 1},
        {"tokenizer.chat_template.rag", 1},
        {"tokenizer.chat_templatex", 0},
        {"general.description", 0},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        uint64_t at;
        outcome o = certify(keys[i].key, bad, sizeof bad - 1, &at, GS_CERTIFY_ERROR);
        cr_expect_eq(o.risks, keys[i].risks, "%s", keys[i].key);
    }
}

/* With --fail-on warning the risk fails the run, and the verdict names it. */
Test(template, failing_on_warnings)
{
    uint64_t at;
    static const char bad[] = "{{ ''.__class__ }}";
    outcome o = certify("tokenizer.chat_template", bad, sizeof bad - 1, &at, GS_CERTIFY_WARNING);
    cr_expect(!o.certified);
    cr_expect_str_eq(o.verdict,
                     "not certified (warnings fail): a chat template (tokenizer.chat_template*) "
                     "that reaches Python internals (__class__, __globals__, __import__, os., "
                     "subprocess, |attr chains, ...) or is larger than any real one: rendered by "
                     "an unsandboxed Jinja2 it can run code (CVE-2024-34359)");
}
