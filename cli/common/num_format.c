#include "num_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static bool format_special(char buf[CLI_NUM_BUF], double v)
{
    if (isnan(v)) {
        snprintf(buf, CLI_NUM_BUF, "NaN");
        return true;
    }
    if (isinf(v)) {
        snprintf(buf, CLI_NUM_BUF, "%s", v < 0 ? "-Infinity" : "Infinity");
        return true;
    }
    return false;
}

bool cli_format_f32(char buf[CLI_NUM_BUF], float v)
{
    if (format_special(buf, (double)v)) {
        return false;
    }
    /* 9 significant digits always round-trip a float; stop at the first shorter form that does. */
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(buf, CLI_NUM_BUF, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v) {
            break;
        }
    }
    return true;
}

bool cli_format_f64(char buf[CLI_NUM_BUF], double v)
{
    if (format_special(buf, v)) {
        return false;
    }
    /* 17 significant digits always round-trip a double. */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, CLI_NUM_BUF, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) {
            break;
        }
    }
    return true;
}

bool cli_format_sig(char buf[CLI_NUM_BUF], double v, int digits)
{
    if (format_special(buf, v)) {
        return false;
    }
    digits = digits < 1 ? 1 : (digits > 17 ? 17 : digits);
    snprintf(buf, CLI_NUM_BUF, "%.*g", digits, v);
    return true;
}

void cli_format_count(char buf[CLI_NUM_BUF], uint64_t v)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            buf[k++] = ',';
        }
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
}
