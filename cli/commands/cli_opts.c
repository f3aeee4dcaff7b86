/* The one parser of every command's arguments (cli_opts.h states the rules). */
#include "cli_opts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "text_out.h"

const char *const cli_profile_choices[] = {"strict", "lenient", NULL};

typedef struct parser {
    const cli_command *cmd;
    char *args;           /* the command's args struct */
    size_t operands;      /* operands seen */
    const cli_opt *alone; /* a CLI_ALONE option given */
} parser;

static void *field(parser *p, size_t dest)
{
    return p->args + dest;
}

const cli_opt *cli_find_option(const cli_command *cmd, const char *name)
{
    for (size_t i = 0; i < cmd->n_options; i++) {
        if (strcmp(cmd->options[i].name, name) == 0) {
            return &cmd->options[i];
        }
    }
    return NULL;
}

bool cli_given(const cli_args *args, const char *name)
{
    const cli_opt *o = cli_find_option(args->command, name);
    return o != NULL && (args->given >> (size_t)(o - args->command->options) & 1u) != 0;
}

bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (*s == '\0') {
        return false;
    }
    uint64_t v = 0;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (max - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* A finite decimal number: digits, one sign, a point, an exponent; no spaces, no hex, no
 * "inf" or "nan" (strtod alone takes all of those). */
static bool parse_real(const char *s, double *out)
{
    if (*s == '\0') {
        return false;
    }
    for (const char *c = s; *c != '\0'; c++) {
        if (strchr("0123456789+-.eE", *c) == NULL) {
            return false;
        }
    }
    char *end;
    double v = strtod(s, &end);
    if (*end != '\0' || !isfinite(v)) {
        return false;
    }
    *out = v;
    return true;
}

/* "a or b", "a, b or c" */
static void choice_list(const cli_opt *o, char *buf, size_t cap)
{
    size_t n = 0, len = 0;
    while (o->choices[n] != NULL) {
        n++;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *sep = i == 0 ? "" : (i + 1 == n ? " or " : ", ");
        int w = snprintf(buf + len, cap - len, "%s%s", sep, o->choices[i]);
        if (w < 0 || (size_t)w >= cap - len) {
            return;
        }
        len += (size_t)w;
    }
}

/* The usage error for a value that option o does not take. */
static int bad_value(const parser *p, const cli_opt *o, const char *value)
{
    cli_text v;
    cli_text_escape_cstr(&v, value);
    const char *name = p->cmd->name;
    switch (o->kind) {
    case CLI_KIND_COUNT:
        return cli_usage_error(name, "--%s needs a count from %llu to %llu, not '%s'", o->name,
                               (unsigned long long)o->min, (unsigned long long)o->max, v.s);
    case CLI_KIND_FLOAT:
        if (isinf(o->lo) && isinf(o->hi)) {
            return cli_usage_error(name, "--%s needs a finite number, not '%s'", o->name, v.s);
        }
        if (isinf(o->hi)) {
            return cli_usage_error(name, "--%s needs a number >= %g, not '%s'", o->name, o->lo,
                                   v.s);
        }
        return cli_usage_error(name, "--%s needs a number from %g to %g, not '%s'", o->name,
                               o->lo, o->hi, v.s);
    case CLI_KIND_CHOICE: {
        char list[256];
        choice_list(o, list, sizeof list);
        return cli_usage_error(name, "--%s must be %s, not '%s'", o->name, list, v.s);
    }
    case CLI_KIND_PATH:
        return cli_usage_error(name, "--%s needs a file name", o->name);
    case CLI_KIND_GLOB:
        return cli_usage_error(name, "--%s needs a pattern", o->name);
    case CLI_KIND_TEXT:
    case CLI_KIND_FLAG:
        break;
    }
    return cli_usage_error(name, "--%s needs a value", o->name);
}

/* Appends to a repeatable option's (or operand's) list. The lists hold at most argc items. */
static bool list_push(cli_list *l, const char *item)
{
    const char **grown = realloc(l->items, (l->n + 1) * sizeof *l->items);
    if (grown == NULL) {
        return false;
    }
    l->items = grown;
    l->items[l->n++] = item;
    return true;
}

/* Stores option o's value (NULL for a flag). -1, or the exit code of a usage error. */
static int take(parser *p, const cli_opt *o, const char *value)
{
    size_t index = (size_t)(o - p->cmd->options);
    cli_args *base = (cli_args *)p->args;
    if ((base->given >> index & 1u) != 0 && !o->repeatable) {
        return cli_usage_error(p->cmd->name, "--%s given twice", o->name);
    }
    if (o->excludes != NULL) {
        const cli_opt *other = cli_find_option(p->cmd, o->excludes);
        if (other != NULL && (base->given >> (size_t)(other - p->cmd->options) & 1u) != 0) {
            return cli_usage_error(p->cmd->name, "--%s and --%s are exclusive", other->name,
                                   o->name);
        }
    }
    /* the other direction: an earlier option that names this one */
    for (size_t i = 0; i < p->cmd->n_options; i++) {
        const cli_opt *e = &p->cmd->options[i];
        if ((base->given >> i & 1u) != 0 && e->excludes != NULL &&
            strcmp(e->excludes, o->name) == 0) {
            return cli_usage_error(p->cmd->name, "--%s and --%s are exclusive", e->name, o->name);
        }
    }
    base->given |= (uint64_t)1 << index;
    if (o->flags & CLI_ALONE) {
        p->alone = o;
    }
    void *dest = field(p, o->dest);
    switch (o->kind) {
    case CLI_KIND_FLAG:
        *(bool *)dest = true;
        return -1;
    case CLI_KIND_COUNT: {
        uint64_t v;
        if (!cli_parse_u64(value, o->max, &v) || v < o->min) {
            return bad_value(p, o, value);
        }
        *(uint64_t *)dest = v;
        return -1;
    }
    case CLI_KIND_FLOAT: {
        double v;
        if (!parse_real(value, &v) || !(v >= o->lo && v <= o->hi)) {
            return bad_value(p, o, value);
        }
        *(cli_real *)dest = (cli_real){true, v};
        return -1;
    }
    case CLI_KIND_CHOICE:
        for (int i = 0; o->choices[i] != NULL; i++) {
            if (strcmp(o->choices[i], value) == 0) {
                *(int *)dest = i;
                return -1;
            }
        }
        return bad_value(p, o, value);
    case CLI_KIND_PATH:
    case CLI_KIND_GLOB:
    case CLI_KIND_TEXT:
        if (value[0] == '\0') {
            return bad_value(p, o, value);
        }
        if (o->repeatable) {
            return list_push(dest, value) ? -1 : cli_print_out_of_memory();
        }
        *(const char **)dest = value;
        return -1;
    }
    return -1;
}

/* "--name" or "--name=value" at argv[*i]. */
static int long_option(parser *p, int argc, char **argv, int *i)
{
    const char *arg = argv[*i] + 2;
    const char *eq = strchr(arg, '=');
    size_t len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
    const cli_opt *o = NULL;
    for (size_t k = 0; k < p->cmd->n_options && o == NULL; k++) {
        const cli_opt *c = &p->cmd->options[k];
        if (strlen(c->name) == len && memcmp(c->name, arg, len) == 0) {
            o = c;
        }
    }
    if (o == NULL && len == 4 && memcmp(arg, "help", 4) == 0) {
        if (eq != NULL) {
            return cli_usage_error(p->cmd->name, "--help takes no value");
        }
        cli_print_usage(p->cmd, stdout);
        return cli_finish_output(CLI_EXIT_OK);
    }
    if (o == NULL) {
        cli_text name;
        cli_text_escape(&name, argv[*i], len + 2, CLI_TEXT_MAX_SRC);
        return cli_usage_error(p->cmd->name, "unknown option '%s'", name.s);
    }
    if (o->kind == CLI_KIND_FLAG) {
        if (eq != NULL) {
            return cli_usage_error(p->cmd->name, "--%s takes no value", o->name);
        }
        return take(p, o, NULL);
    }
    if (eq != NULL) {
        return take(p, o, eq + 1);
    }
    if (*i + 1 >= argc) {
        return cli_usage_error(p->cmd->name, "option --%s needs a value", o->name);
    }
    *i += 1;
    return take(p, o, argv[*i]);
}

/* "-x", "-xVALUE", "-x VALUE" and bundles of flags ending with at most one valued letter
 * ("-qj2", "-qj 2"). */
static int short_options(parser *p, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    for (size_t k = 1; arg[k] != '\0'; k++) {
        const cli_opt *o = NULL;
        for (size_t n = 0; n < p->cmd->n_options && o == NULL; n++) {
            if (p->cmd->options[n].letter != 0 && p->cmd->options[n].letter == arg[k]) {
                o = &p->cmd->options[n];
            }
        }
        if (o == NULL && arg[k] == 'h') {
            cli_print_usage(p->cmd, stdout);
            return cli_finish_output(CLI_EXIT_OK);
        }
        if (o == NULL) {
            char letter[3] = {'-', arg[k], '\0'};
            if (k == 1 && arg[2] == '\0') {
                return cli_usage_error_arg(p->cmd->name, "unknown option", letter);
            }
            cli_text a, l;
            cli_text_escape_cstr(&a, arg);
            cli_text_escape_cstr(&l, letter);
            return cli_usage_error(p->cmd->name, "unknown option '%s' (in '%s')", l.s, a.s);
        }
        int code;
        if (o->kind == CLI_KIND_FLAG) {
            code = take(p, o, NULL);
        } else if (arg[k + 1] != '\0') {
            return take(p, o, arg + k + 1); /* the rest of the word is the value */
        } else if (*i + 1 >= argc) {
            return cli_usage_error(p->cmd->name, "option -%c (--%s) needs a value", o->letter,
                                   o->name);
        } else {
            *i += 1;
            return take(p, o, argv[*i]);
        }
        if (code >= 0) {
            return code;
        }
    }
    return -1;
}

/* "FILE", "FILE and MANIFEST", "A, B and C": operands [from, to). */
static void operand_names(const cli_command *cmd, size_t from, size_t to, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = from; i < to; i++) {
        const char *sep = i == from ? "" : (i + 1 == to ? " and " : ", ");
        int w = snprintf(buf + len, cap - len, "%s%s", sep, cmd->operands[i].name);
        if (w < 0 || (size_t)w >= cap - len) {
            return;
        }
        len += (size_t)w;
    }
}

static int operand(parser *p, const char *arg)
{
    const cli_command *cmd = p->cmd;
    size_t n = cmd->n_operands;
    const cli_operand *last = n > 0 ? &cmd->operands[n - 1] : NULL;
    if (p->operands < n && !cmd->operands[p->operands].repeatable) {
        *(const char **)field(p, cmd->operands[p->operands].dest) = arg;
    } else if (last != NULL && last->repeatable) {
        if (!list_push(field(p, last->dest), arg)) {
            return cli_print_out_of_memory();
        }
    } else {
        char names[256];
        operand_names(cmd, 0, n, names, sizeof names);
        if (n == 0) {
            return cli_usage_error_arg(cmd->name, "no operands; unexpected argument", arg);
        }
        char what[300];
        snprintf(what, sizeof what, "%s%s only; unexpected argument", n == 1 ? "one " : "",
                 names);
        return cli_usage_error_arg(cmd->name, what, arg);
    }
    p->operands++;
    return -1;
}

/* After the last argument: the operands a mode or the command needs. */
static int check_operands(const parser *p)
{
    const cli_command *cmd = p->cmd;
    if (p->alone != NULL) {
        if (p->operands > 0) {
            char names[256];
            operand_names(cmd, 0, cmd->n_operands, names, sizeof names);
            return cli_usage_error(cmd->name, "--%s takes no %s", p->alone->name, names);
        }
        return -1;
    }
    if (p->operands < cmd->n_operands) {
        char names[256];
        operand_names(cmd, p->operands, cmd->n_operands, names, sizeof names);
        return cli_usage_error(cmd->name, "%s missing", names);
    }
    return -1;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, void *args)
{
    parser p = {cmd, args, 0, NULL};
    ((cli_args *)args)->command = cmd;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int code = -1;
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            code = operand(&p, arg);
        } else if (strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (arg[1] == '-') {
            code = long_option(&p, argc, argv, &i);
        } else {
            code = short_options(&p, argc, argv, &i);
        }
        if (code >= 0) {
            return code;
        }
    }
    return check_operands(&p);
}

void cli_args_free(const cli_command *cmd, void *args)
{
    char *base = args;
    for (size_t i = 0; i < cmd->n_options; i++) {
        if (cmd->options[i].repeatable) {
            cli_list *l = (cli_list *)(void *)(base + cmd->options[i].dest);
            free(l->items);
            *l = (cli_list){NULL, 0};
        }
    }
    for (size_t i = 0; i < cmd->n_operands; i++) {
        if (cmd->operands[i].repeatable) {
            cli_list *l = (cli_list *)(void *)(base + cmd->operands[i].dest);
            free(l->items);
            *l = (cli_list){NULL, 0};
        }
    }
}
