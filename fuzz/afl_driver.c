/* afl_<target>: AFL++ persistent mode with shared-memory test cases, around the same
 * LLVMFuzzerTestOneInput the libFuzzer and replay builds use. Built by afl-clang-fast
 * (fuzz/build_afl.sh), which defines the __AFL_* macros; built by any other compiler, the
 * fallback below reads one test case from stdin, so `afl_open < crash` reproduces a finding
 * anywhere. (afl-clang-fast's own macros also read stdin when not run by afl-fuzz.) */
#include <unistd.h>

#include "fuzz_common.h"

#ifndef __AFL_FUZZ_TESTCASE_LEN
static ssize_t fuzz_stdin_len;
static uint8_t fuzz_stdin_buf[1 << 20];
#define __AFL_FUZZ_TESTCASE_LEN fuzz_stdin_len
#define __AFL_FUZZ_TESTCASE_BUF fuzz_stdin_buf
#define __AFL_FUZZ_INIT() void sync(void)
#define __AFL_LOOP(x) \
    ((fuzz_stdin_len = read(0, fuzz_stdin_buf, sizeof fuzz_stdin_buf)) > 0 ? 1 : 0)
#define __AFL_INIT() sync()
#endif

__AFL_FUZZ_INIT();

int main(void)
{
#ifdef __AFL_HAVE_MANUAL_CONTROL
    __AFL_INIT(); /* deferred fork server: start after the process is set up */
#endif
    /* Taken once, after __AFL_INIT and before the loop, as AFL++ requires. */
    const uint8_t *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(10000)) {
        const size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
        LLVMFuzzerTestOneInput(buf, len);
    }
    return 0;
}
