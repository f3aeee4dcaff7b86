/* `COMMAND --help`, generated from the command's table and text. */
#include "cli_usage.h"

#include <string.h>

#include "report_header.h"

void cli_paragraphs(const char *text, cli_paragraph_fn fn, void *ctx)
{
    const char *p = text;
    while (*p != '\0') {
        while (*p == '\n') {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        const char *end = strstr(p, "\n\n");
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        while (len > 0 && p[len - 1] == '\n') {
            len--;
        }
        fn(ctx, p, len, p[0] == ' ' && p[1] == ' ');
        p += len;
    }
}

size_t cli_wrap(FILE *out, const char *text, size_t len, size_t col, size_t indent)
{
    size_t i = 0;
    bool line_empty = true;
    while (i < len) {
        size_t gap = i;
        while (i < len && (text[i] == ' ' || text[i] == '\n')) {
            i++;
        }
        size_t start = i;
        while (i < len && text[i] != ' ' && text[i] != '\n') {
            i++;
        }
        size_t word = i - start;
        if (word == 0) {
            break;
        }
        /* the spaces between two words as written ("<sha256>  <name>"), a newline as one */
        size_t spaces = memchr(text + gap, '\n', start - gap) != NULL ? 1 : start - gap;
        if (!line_empty && col + spaces + word > CLI_USAGE_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
            line_empty = true;
        }
        if (!line_empty) {
            fprintf(out, "%*s", (int)spaces, "");
            col += spaces;
        }
        fwrite(text + start, 1, word, out);
        col += word;
        line_empty = false;
    }
    return col;
}

const cli_opt *cli_synopsis_partner(const cli_command *cmd, const cli_opt *o)
{
    for (const cli_opt *p = o + 1; p < cmd->options + cmd->n_options; p++) {
        bool pair = (o->excludes != NULL && strcmp(o->excludes, p->name) == 0) ||
                    (p->excludes != NULL && strcmp(p->excludes, o->name) == 0);
        if (pair && (p->flags & CLI_HIDDEN) == 0) {
            return p;
        }
    }
    return NULL;
}

bool cli_in_synopsis(const cli_command *cmd, const cli_opt *o)
{
    if ((o->flags & (CLI_HIDDEN | CLI_ALONE)) != 0) {
        return false;
    }
    for (const cli_opt *p = cmd->options; p < o; p++) {
        if ((p->flags & (CLI_HIDDEN | CLI_ALONE)) == 0 && cli_synopsis_partner(cmd, p) == o) {
            return false;
        }
    }
    return true;
}

void cli_value_display(const cli_opt *o, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (o->kind != CLI_KIND_CHOICE) {
        snprintf(buf, cap, "%s", o->arg != NULL ? o->arg : "");
        return;
    }
    size_t len = 0;
    for (size_t i = 0; o->choices[i] != NULL; i++) {
        int w = snprintf(buf + len, cap - len, "%s%s", i ? "|" : "", o->choices[i]);
        if (w < 0 || (size_t)w >= cap - len) {
            return;
        }
        len += (size_t)w;
    }
}

/* One synopsis item: "[--name VALUE]", "[--a | --b]", "[--tensor GLOB]...". */
static void synopsis_item(const cli_command *cmd, const cli_opt *o, char *buf, size_t cap)
{
    char value[256];
    cli_value_display(o, value, sizeof value);
    int n = snprintf(buf, cap, "[--%s%s%s", o->name, value[0] ? " " : "", value);
    size_t len = n > 0 ? (size_t)n : 0;
    const cli_opt *partner = cli_synopsis_partner(cmd, o);
    if (partner != NULL && len < cap) {
        cli_value_display(partner, value, sizeof value);
        n = snprintf(buf + len, cap - len, " | --%s%s%s", partner->name, value[0] ? " " : "",
                     value);
        len += n > 0 ? (size_t)n : 0;
    }
    if (len < cap) {
        snprintf(buf + len, cap - len, "]%s", o->repeatable ? "..." : "");
    }
}

/* Prints item at col, on a new line (at indent) when it does not fit. */
static size_t put_item(FILE *out, const char *item, size_t col, size_t indent)
{
    size_t len = strlen(item);
    if (col > indent && col + 1 + len > CLI_USAGE_WIDTH) {
        fprintf(out, "\n%*s", (int)indent, "");
        col = indent;
    } else if (col > indent) {
        fputc(' ', out);
        col++;
    }
    fputs(item, out);
    return col + len;
}

static void print_synopsis(const cli_command *cmd, FILE *out)
{
    int n = fprintf(out, "usage: " CLI_TOOL_NAME " %s ", cmd->name);
    size_t indent = n > 0 ? (size_t)n : 0, col = indent;
    char item[600];
    for (size_t i = 0; i < cmd->n_operands; i++) {
        if (cmd->operands[i].synopsis != NULL) {
            snprintf(item, sizeof item, "%s", cmd->operands[i].synopsis);
        } else {
            snprintf(item, sizeof item, "%s%s", cmd->operands[i].name,
                     cmd->operands[i].repeatable ? "..." : "");
        }
        col = put_item(out, item, col, indent);
    }
    for (size_t i = 0; i < cmd->n_options; i++) {
        if (cli_in_synopsis(cmd, &cmd->options[i])) {
            synopsis_item(cmd, &cmd->options[i], item, sizeof item);
            col = put_item(out, item, col, indent);
        }
    }
    fputc('\n', out);
    for (size_t i = 0; i < cmd->n_options; i++) {
        const cli_opt *o = &cmd->options[i];
        if ((o->flags & CLI_ALONE) != 0 && (o->flags & CLI_HIDDEN) == 0) {
            fprintf(out, "       " CLI_TOOL_NAME " %s --%s\n", cmd->name, o->name);
        }
    }
}

/* "  -j, --jobs N", "      --json": the left column of the option list. */
static size_t option_left(const cli_opt *o, char *buf, size_t cap)
{
    char value[256];
    cli_value_display(o, value, sizeof value);
    if (o->kind == CLI_KIND_CHOICE && o->arg != NULL) {
        snprintf(value, sizeof value, "%s", o->arg);
    }
    int n;
    if (o->letter != 0) {
        n = snprintf(buf, cap, "  -%c, --%s%s%s", o->letter, o->name, value[0] ? " " : "", value);
    } else {
        n = snprintf(buf, cap, "      --%s%s%s", o->name, value[0] ? " " : "", value);
    }
    return n > 0 ? strlen(buf) : 0;
}

#define HELP_COLUMN_MAX 28

static const cli_opt help_option = {.name = "help", .letter = 'h', .kind = CLI_KIND_FLAG,
                                    .help = "print this help and exit"};

static void print_option(FILE *out, const cli_opt *o, size_t column)
{
    char left[300];
    size_t len = option_left(o, left, sizeof left);
    fputs(left, out);
    if (len + 2 > column) {
        fprintf(out, "\n%*s", (int)column, "");
    } else {
        fprintf(out, "%*s", (int)(column - len), "");
    }
    char help[1024];
    snprintf(help, sizeof help, "%s%s", o->help != NULL ? o->help : "",
             o->repeatable ? " (repeatable)" : "");
    cli_wrap(out, help, strlen(help), column, column);
    fputc('\n', out);
}

static void print_options(const cli_command *cmd, FILE *out)
{
    size_t column = 0;
    char left[300];
    for (size_t i = 0; i <= cmd->n_options; i++) {
        const cli_opt *o = i < cmd->n_options ? &cmd->options[i] : &help_option;
        size_t len = option_left(o, left, sizeof left) + 2;
        if ((o->flags & CLI_HIDDEN) == 0 && len > column && len <= HELP_COLUMN_MAX) {
            column = len;
        }
    }
    fputs("\noptions:\n", out);
    for (size_t i = 0; i < cmd->n_options; i++) {
        if ((cmd->options[i].flags & CLI_HIDDEN) == 0) {
            print_option(out, &cmd->options[i], column);
        }
    }
    print_option(out, &help_option, column);
}

static void print_paragraph(void *ctx, const char *text, size_t len, bool example)
{
    FILE *out = ctx;
    fputc('\n', out);
    if (example) {
        fwrite(text, 1, len, out);
    } else {
        cli_wrap(out, text, len, 0, 0);
    }
    fputc('\n', out);
}

void cli_print_usage(const cli_command *cmd, FILE *out)
{
    print_synopsis(cmd, out);
    cli_paragraphs(cmd->description, print_paragraph, out);
    print_options(cmd, out);
    if (cmd->notes != NULL) {
        cli_paragraphs(cmd->notes, print_paragraph, out);
    }
    fputs("\nexit status: ", out);
    cli_wrap(out, cmd->exit_status, strlen(cmd->exit_status), 13, 0);
    fputc('\n', out);
}
