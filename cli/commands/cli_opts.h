/* The command line of every ggufsafe command: one table of options and operands per command,
 * read by one parser (cli_opts.c) and turned into --help (cli_usage.c), man pages and shell
 * completion (generate_*.c). Adding an option is one table entry and the field it fills:
 *
 *   {.name = "rows", .arg = "N", CLI_COUNT(info_args, rows, 0, 1u << 30),
 *    .help = "tensors shown at each end of the directory (default 6)"},
 *
 * The parser takes --name value, --name=value, -x value, -xVALUE and bundled flags (-qj2); "--"
 * ends the options and "-" alone is an operand. An unknown option, a missing or bad value, an
 * option given twice that is not repeatable, two CLI_EXCLUDES options together and a wrong
 * number of operands are usage errors (exit 2) naming the option; -h/--help, in every command,
 * prints the usage. docs/cli.md, "Conventions of every command". */
#ifndef GGUFSAFE_CLI_OPTS_H
#define GGUFSAFE_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What an option's value is, and the type of the field it fills. */
typedef enum cli_kind {
    CLI_KIND_FLAG,   /* no value; bool, set to true */
    CLI_KIND_COUNT,  /* decimal digits in [min, max]; uint64_t */
    CLI_KIND_FLOAT,  /* a finite decimal number in [lo, hi]; cli_real */
    CLI_KIND_CHOICE, /* one of choices; int, the index of the choice */
    CLI_KIND_PATH,   /* a file name (completion offers files); const char * */
    CLI_KIND_GLOB,   /* an fnmatch pattern; const char * */
    CLI_KIND_TEXT    /* any non-empty text; const char * */
} cli_kind;

/* Bits of cli_opt.flags. */
#define CLI_HIDDEN 1u     /* parsed, but in no help, man page or completion */
#define CLI_ALONE 2u      /* a mode of its own: given, the command takes no operands */

/* The values of a repeatable option (or operand), in the order given; items point into argv. */
typedef struct cli_list {
    const char **items;
    size_t n;
} cli_list;

/* A number option: given or not, and its value. */
typedef struct cli_real {
    bool given;
    double value;
} cli_real;

typedef struct cli_opt {
    const char *name;             /* the long form without "--": "jobs" */
    char letter;                  /* the short form -x, or 0; one meaning in every command */
    cli_kind kind;
    size_t dest;                  /* where the value goes: an offset in the command's args */
    const char *arg;              /* the value's name in help: "N", "FILE", "GLOB" */
    const char *help;             /* lines of help, '\n' between them */
    bool repeatable;              /* every value kept, in order, in a cli_list (PATH, GLOB,
                                     TEXT); otherwise a second one is a usage error */
    unsigned flags;               /* CLI_HIDDEN, CLI_ALONE */
    const char *const *choices;   /* CHOICE: the accepted values, NULL-terminated */
    uint64_t min, max;            /* COUNT */
    double lo, hi;                /* FLOAT: lo <= value <= hi (hi may be INFINITY) */
    const char *excludes;         /* the long name of an option that may not come with this one */
} cli_opt;

typedef struct cli_operand {
    const char *name;             /* "FILE", "MANIFEST", "A" */
    size_t dest;                  /* const char *, or cli_list when repeatable */
    bool repeatable;              /* one or more (the last operand only) */
    /* How the synopsis (--help, the man page) shows it, when not as name (and "..." when
     * repeatable): "[REF] A" for diff's first operand, which is REF when three files are given. */
    const char *synopsis;
} cli_operand;

/* Every args struct begins with this: which options were given, for checks that depend on
 * several (cli_given). */
typedef struct cli_args {
    const struct cli_command *command;
    uint64_t given;               /* bit i: options[i] was given */
} cli_args;

#define CLI_MAX_OPTIONS 64

/* The field of T named m, checked at compile time to have the type the kind fills. */
#define CLI_FIELD(T, m, type)                                                                     \
    (offsetof(T, m) + 0 * sizeof(char[_Generic(((T *)0)->m, type: 1, default: -1)]))

/* The kind and field of a table entry: .kind and .dest (and the range or choices). */
#define CLI_FLAG(T, m) .kind = CLI_KIND_FLAG, .dest = CLI_FIELD(T, m, bool)
#define CLI_COUNT(T, m, lo_, hi_)                                                                 \
    .kind = CLI_KIND_COUNT, .dest = CLI_FIELD(T, m, uint64_t), .min = (lo_), .max = (hi_)
#define CLI_FLOAT(T, m, lo_, hi_)                                                                 \
    .kind = CLI_KIND_FLOAT, .dest = CLI_FIELD(T, m, cli_real), .lo = (lo_), .hi = (hi_)
#define CLI_CHOICE(T, m, list) .kind = CLI_KIND_CHOICE, .dest = CLI_FIELD(T, m, int), .choices = (list)
#define CLI_PATH(T, m) .kind = CLI_KIND_PATH, .dest = CLI_FIELD(T, m, const char *)
#define CLI_GLOB(T, m) .kind = CLI_KIND_GLOB, .dest = CLI_FIELD(T, m, const char *)
#define CLI_TEXT(T, m) .kind = CLI_KIND_TEXT, .dest = CLI_FIELD(T, m, const char *)
/* Repeatable: every value, in a cli_list. */
#define CLI_PATHS(T, m) .kind = CLI_KIND_PATH, .dest = CLI_FIELD(T, m, cli_list), .repeatable = true
#define CLI_GLOBS(T, m) .kind = CLI_KIND_GLOB, .dest = CLI_FIELD(T, m, cli_list), .repeatable = true
#define CLI_TEXTS(T, m) .kind = CLI_KIND_TEXT, .dest = CLI_FIELD(T, m, cli_list), .repeatable = true
/* An operand's field. */
#define CLI_OPERAND(T, m) .dest = CLI_FIELD(T, m, const char *)
#define CLI_OPERANDS(T, m) .dest = CLI_FIELD(T, m, cli_list), .repeatable = true

/* The options several commands share, so that a name and a letter mean one thing everywhere. */
#define CLI_MAX_JOBS 256u
extern const char *const cli_profile_choices[]; /* "strict", "lenient": gs_profile's order */
#define CLI_OPT_JSON(T, m, what)                                                                  \
    {.name = "json", CLI_FLAG(T, m), .help = what}
#define CLI_OPT_PROFILE(T, m, what)                                                               \
    {.name = "profile", .arg = "P", CLI_CHOICE(T, m, cli_profile_choices), .help = what}
#define CLI_OPT_JOBS(T, m, what)                                                                  \
    {.name = "jobs", .letter = 'j', .arg = "N", CLI_COUNT(T, m, 1, CLI_MAX_JOBS), .help = what}
#define CLI_OPT_PART_ONLY(T, m, what)                                                             \
    {.name = "part-only", CLI_FLAG(T, m),                                                         \
     .help = "on <prefix>-00001-of-NNNNN.gguf, " what}
/* A user's libggml-base for the ggml decoder path (cli_load_ggml). */
#define CLI_OPT_GGML(T, m)                                                                        \
    {.name = "ggml", .arg = "PATH", CLI_PATH(T, m),                                               \
     .help = "load this libggml-base (a ggml build of your own) for the ggml decoder path, as "   \
             "GGUFSAFE_GGML=PATH does; GGUFSAFE_KERNEL=ggml then decodes every type with its "     \
             "to_float"}
#define CLI_OPT_QUIET(T, m)                                                                       \
    {.name = "quiet", .letter = 'q', CLI_FLAG(T, m),                                              \
     .help = "no progress bar and no closing summary; errors and the report stay"}
/* Caller-defined types (cli_types.h): repeatable on every command. */
#define CLI_TYPE_ARG "ID:NAME:BLOCK_ELEMENTS:BLOCK_BYTES"
#define CLI_OPT_TYPES(T, m)                                                                       \
    {.name = "type", .arg = CLI_TYPE_ARG, CLI_TEXTS(T, m),                                        \
     .help = "repeatable: a tensor type ggufsafe does not know (a new quant format): its id,\n"   \
             "name, elements and bytes per block; add ':override' to redefine a built-in id"}
/* Decoder plugins (cli_types.h): dequant, diff and certify. */
#define CLI_OPT_PLUGINS(T, paths, in_process, timeout)                                            \
    {.name = "plugin", .arg = "PATH.so", CLI_PATHS(T, paths),                                     \
     .help = "repeatable: a decoder plugin (include/ggufsafe_plugin.h) for types ggufsafe\n"      \
             "does not know; it runs in a child process that a crash or hang cannot take\n"     \
             "down (exit 2, naming the plugin and the tensor)"},                                 \
    {.name = "plugin-in-process", CLI_FLAG(T, in_process),                                        \
     .help = "run the plugins and ggml's decoders (--ggml, GGUFSAFE_KERNEL=ggml) inside\n"    \
             "this process (faster; for code you trust)"},                                     \
    {.name = "plugin-timeout", .arg = "MS", CLI_COUNT(T, timeout, 1, 3600000),                    \
     .help = "a plugin call unanswered after MS milliseconds is a hang (default 30000)"}
/* The decoders a decoding command loads with cli_types_load_all, in their --help order:
 * --type, --plugin (and its two settings), --ggml; members types, plugins, plugin_in_process,
 * plugin_timeout and ggml of T. */
/* The members CLI_OPT_DECODERS fills: a decoding command's new types, and where their geometry
 * and decoders come from (cli_types_load_all). */
typedef struct cli_decoder_args {
    cli_list types;         /* --type */
    cli_list plugins;       /* --plugin */
    bool plugin_in_process; /* --plugin-in-process */
    uint64_t plugin_timeout; /* --plugin-timeout; 0: the library's default */
    const char *ggml;       /* --ggml */
} cli_decoder_args;
/* --type, --plugin and --ggml into member m (a cli_decoder_args) of T. */
#define CLI_OPT_DECODERS(T, m)                                                                    \
    CLI_OPT_TYPES(T, m.types),                                                                    \
        CLI_OPT_PLUGINS(T, m.plugins, m.plugin_in_process, m.plugin_timeout),                     \
        CLI_OPT_GGML(T, m.ggml)
/* The report to FILE instead of standard output; '-' is standard output. */
#define CLI_OPT_OUTPUT(T, m, letter_)                                                             \
    {.name = "output", .letter = (letter_), .arg = "FILE", CLI_PATH(T, m),                        \
     .help = "write the report to FILE ('-': standard output), only once it is complete"}

/* -1 when the arguments are usable and args is filled; otherwise the exit code: CLI_EXIT_OK
 * after -h/--help printed the usage, CLI_EXIT_USAGE after the error line. argv[0] is the
 * command's name. args (the command's args_size bytes, zeroed, with the defaults set) gets the
 * values; free its lists with cli_args_free, whatever this returns. */
int cli_parse(const struct cli_command *cmd, int argc, char **argv, void *args);
void cli_args_free(const struct cli_command *cmd, void *args);

/* Whether the option of that long name was given (false for a name not in the table). */
bool cli_given(const cli_args *args, const char *name);

/* The entry of the table with that long name, or NULL. */
const cli_opt *cli_find_option(const struct cli_command *cmd, const char *name);

/* A decimal count in 0..max, digits only. */
bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

#endif
