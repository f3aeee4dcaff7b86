/* Certifies the file named on the command line through an installed libggufsafe_certify (deep
 * scan included) and prints "<verdict> <errors> <warnings> <notes> <findings>"; the JSON report,
 * collected in memory through a sink callback, must give the same verdict. */
#include <ggufsafe_certify.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buffer {
    char *data;
    size_t len;
} buffer;

static int collect(void *ctx, const void *data, size_t n)
{
    buffer *b = ctx;
    char *p = realloc(b->data, b->len + n + 1);
    if (p == NULL) {
        return 12; /* ENOMEM */
    }
    memcpy(p + b->len, data, n);
    b->len += n;
    p[b->len] = '\0';
    b->data = p;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        return 2;
    }
    gs_certify_options opts;
    gs_certify_options_init(&opts);
    opts.deep = true;
    opts.jobs = 2;
    gs_certify *report;
    gs_error err;
    gs_status st = gs_certify_path(argv[1], &opts, &report, &err);
    if (st != GS_OK) {
        fprintf(stderr, "%s: %s\n", gs_status_name(st), err.detail);
        return 1;
    }
    gs_certify_summary sum = {.struct_size = sizeof sum};
    if (gs_certify_get_summary(report, &sum) != GS_OK) {
        return 1;
    }
    buffer json = {NULL, 0};
    gs_sink sink;
    gs_sink_init(&sink, collect, &json);
    st = gs_certify_write_json(report, &sink, &err);
    const char *want = sum.verdict.certified ? "\"certified\": true" : "\"certified\": false";
    int rc = st == GS_OK && json.data != NULL && strstr(json.data, want) != NULL ? 0 : 1;
    printf("%s %llu %llu %llu %zu\n", sum.verdict.certified ? "certified" : "not-certified",
           (unsigned long long)sum.verdict.counts[GS_CERTIFY_ERROR],
           (unsigned long long)sum.verdict.counts[GS_CERTIFY_WARNING],
           (unsigned long long)sum.verdict.counts[GS_CERTIFY_INFO], sum.finding_count);
    free(json.data);
    gs_certify_free(report);
    return rc;
}
