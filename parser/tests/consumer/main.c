/* Opens the file named on the command line and prints "<kv count> <tensor count>". */
#include <ggufsafe.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        return 2;
    }
    gs_file *f;
    gs_error err;
    gs_status st = gs_open_file(argv[1], NULL, &f, &err);
    if (st != GS_OK) {
        fprintf(stderr, "%s: %s\n", gs_status_name(st), err.detail);
        return 1;
    }
    printf("%zu %zu\n", gs_kv_count(f), gs_tensor_count(f));
    gs_close(f);
    return 0;
}
