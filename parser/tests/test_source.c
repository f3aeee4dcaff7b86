/* The reader's I/O in hostile surroundings: paths that name a FIFO (which must not hang the
 * open), a device, a directory, a socket or nothing; running out of descriptors; and
 * reopen_for_data, which holds no descriptor and refuses to read a file that was replaced,
 * resized, modified or removed after it was opened. Every test that could hang runs under an
 * alarm (and a ctest TIMEOUT): a hang is a failure, not a stuck CI. */
#define _GNU_SOURCE /* mkfifo, dirfd, utimensat */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "test_util.h"

TU_SCRATCH_SUITE(source, 20, 30);

static char *in_dir(const char *name)
{
    static char paths[4][256];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

/* The three ways gs_open_file reads a file. */
static gs_options mode_options(int mode)
{
    gs_options o;
    gs_options_init(&o);
    o.copy_metadata = mode == 1;
    o.reopen_for_data = mode == 2;
    return o;
}

static void expect_refused(const char *path, gs_status want, const char *detail)
{
    for (int mode = 0; mode < 3; mode++) {
        gs_options o = mode_options(mode);
        gs_file *f = (gs_file *)1;
        gs_error e;
        cr_assert_eq(gs_open_file(path, &o, &f, &e), want, "%s, mode %d: %s (%s)", path, mode,
                     gs_status_name(e.status), e.detail);
        cr_assert_null(f);
        cr_assert_eq(e.offset, 0);
        cr_assert_str_eq(e.detail, detail, "%s, mode %d", path, mode);
    }
}

Test(source, a_fifo_is_refused_without_blocking)
{
    char *fifo = in_dir("model.gguf");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    expect_refused(fifo, GS_E_NOT_REGULAR_FILE, "a FIFO, not a regular file");
    /* a writer waiting on the other side changes nothing */
    pid_t writer = fork();
    if (writer == 0) {
        int fd = open(fifo, O_WRONLY);
        _exit(fd >= 0 && write(fd, "GGUF", 4) == 4 ? 0 : 1);
    }
    expect_refused(fifo, GS_E_NOT_REGULAR_FILE, "a FIFO, not a regular file");
    kill(writer, SIGKILL);
}

Test(source, devices_directories_and_sockets_are_refused)
{
    expect_refused("/dev/null", GS_E_NOT_REGULAR_FILE, "a character device, not a regular file");
    expect_refused("/dev/zero", GS_E_NOT_REGULAR_FILE, "a character device, not a regular file");
    expect_refused(dir, GS_E_NOT_REGULAR_FILE, "a directory, not a regular file");
    expect_refused("/", GS_E_NOT_REGULAR_FILE, "a directory, not a regular file");
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert_geq(s, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", in_dir("sock.gguf"));
    cr_assert_eq(bind(s, (struct sockaddr *)&addr, sizeof addr), 0);
    expect_refused(addr.sun_path, GS_E_NOT_REGULAR_FILE,
                   "open: No such device or address (a socket, or a device without a driver)");
    close(s);
}

Test(source, nothing_at_the_path)
{
    expect_refused(in_dir("absent.gguf"), GS_E_NO_SUCH_FILE, "open: No such file or directory");
    gsw_bytes b = tu_small(32);
    cr_assert_eq(gsw_bytes_save(&b, in_dir("file.gguf")), 0);
    /* a path through a regular file as if it were a directory: ENOTDIR */
    expect_refused(in_dir("file.gguf/x.gguf"), GS_E_NO_SUCH_FILE, "open: Not a directory");
    gsw_bytes_free(&b);
}

/* The lowest descriptor number free now: with RLIMIT_NOFILE set to it, the next open fails. */
static int lowest_free_descriptor(void)
{
    int fd = dup(0);
    cr_assert_geq(fd, 0);
    close(fd);
    return fd;
}

static void no_more_descriptors(void)
{
    rlim_t n = (rlim_t)lowest_free_descriptor();
    struct rlimit lim = {n, n};
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
}

/* Counts this process's open descriptors. */
static int open_descriptors(void)
{
    DIR *d = opendir("/proc/self/fd");
    cr_assert_not_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n - 1; /* the directory's own */
}

Test(source, no_descriptor_left_is_an_environment_failure)
{
    gsw_bytes b = tu_small(32);
    char *path = in_dir("small.gguf");
    cr_assert_eq(gsw_bytes_save(&b, path), 0);
    gsw_bytes_free(&b);
    no_more_descriptors();
    expect_refused(path, GS_E_IO, "open: Too many open files (the process's descriptor limit, "
                                  "ulimit -n)");
}

static char *write_small(const char *name)
{
    gsw_bytes b = tu_small(32);
    char *path = in_dir(name);
    cr_assert_eq(gsw_bytes_save(&b, path), 0);
    gsw_bytes_free(&b);
    return path;
}

static gs_file *open_detached(const char *path)
{
    gs_options o = mode_options(2);
    gs_file *f;
    gs_error e;
    cr_assert_eq(gs_open_file(path, &o, &f, &e), GS_OK, "%s", e.detail);
    return f;
}

/* What tu_small_file holds: tensor a is 0..7, b is 8..15 as f32. */
static void expect_data(const gs_file *f)
{
    float a[8], b[8];
    cr_assert_eq(gs_tensor_dequantize(f, 0, a, 8), GS_OK);
    cr_assert_eq(gs_tensor_dequantize(f, 1, b, 8), GS_OK);
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(a[i], (float)i);
        cr_assert_eq(b[i], (float)(8 + i));
    }
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 1, &t), GS_OK);
    float x;
    cr_assert_eq(gs_file_read(f, t.data_offset + 4, &x, 4), GS_OK);
    cr_assert_eq(x, 9.0f);
}

static struct stat stat_of(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    return st;
}

Test(source, reopen_for_data_holds_no_descriptor_and_maps_nothing)
{
    char *path = write_small("small.gguf");
    int before = open_descriptors();
    gs_file *f = open_detached(path);
    cr_assert_eq(open_descriptors(), before, "the open gs_file holds a descriptor");
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 0, &t), GS_OK);
    cr_assert_null(t.data, "reopen_for_data maps nothing: no data pointer");
    cr_assert(t.data_in_file);
    expect_data(f);
    cr_assert_eq(open_descriptors(), before, "a read left a descriptor open");
    struct stat st = stat_of(path);
    gs_identity id;
    cr_assert_eq(gs_file_identity(f, &id), GS_OK);
    cr_assert_eq(id.device, (uint64_t)st.st_dev);
    cr_assert_eq(id.inode, (uint64_t)st.st_ino);
    cr_assert_eq(id.size, (uint64_t)st.st_size);
    cr_assert_eq(id.mtime_sec, (int64_t)st.st_mtim.tv_sec);
    cr_assert_eq(id.mtime_nsec, (int64_t)st.st_mtim.tv_nsec);
    gs_close(f);
    /* the other modes map the file and hold it open */
    gs_file *g;
    cr_assert_eq(gs_open_file(path, NULL, &g, NULL), GS_OK);
    cr_assert_eq(open_descriptors(), before + 1);
    cr_assert_eq(gs_tensor_info_at(g, 0, &t), GS_OK);
    cr_assert_not_null(t.data);
    gs_close(g);
}

Test(source, identity_arguments)
{
    gsw_bytes b;
    gs_file *f = tu_open_small(&b);
    gs_identity id;
    memset(&id, 0x5a, sizeof id);
    cr_assert_eq(gs_file_identity(f, &id), GS_E_NOT_FOUND, "a buffer is no file");
    cr_assert_eq(id.device, 0);
    cr_assert_eq(id.inode, 0);
    cr_assert_eq(gs_file_identity(NULL, &id), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_file_identity(f, NULL), GS_E_INVALID_ARGUMENT);
    cr_assert_eq(gs_file_identity_sized(f, &id, sizeof id - 1), GS_E_INVALID_ARGUMENT);
    uint8_t big[sizeof(gs_identity) + 8];
    memset(big, 0x5a, sizeof big);
    cr_assert_eq(gs_file_identity_sized(f, (gs_identity *)(void *)big, sizeof big),
                 GS_E_NOT_FOUND);
    for (size_t i = 0; i < sizeof big; i++) {
        cr_assert_eq(big[i], 0, "byte %zu", i);
    }
    gs_close(f);
    gsw_bytes_free(&b);
}

/* Every data read of f fails with GS_E_FILE_CHANGED and writes nothing. */
static void expect_changed(const gs_file *f, const char *what)
{
    float out[8];
    memset(out, 0x5a, sizeof out);
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, 8), GS_E_FILE_CHANGED, "%s", what);
    cr_assert_eq(gs_tensor_dequantize_range(f, 1, 0, out, 8), GS_E_FILE_CHANGED, "%s", what);
    uint8_t byte = 0x5a;
    cr_assert_eq(gs_file_read(f, 0, &byte, 1), GS_E_FILE_CHANGED, "%s", what);
    cr_assert_eq(byte, 0x5a, "%s: read anyway", what);
    uint32_t bits;
    memcpy(&bits, &out[0], 4);
    cr_assert_eq(bits, 0x5a5a5a5au, "%s: decoded anyway", what);
    /* the metadata is the heap copy: every getter still works */
    gs_tensor_info t;
    cr_assert_eq(gs_tensor_info_at(f, 1, &t), GS_OK);
    cr_assert_eq(t.name.len, 1);
    cr_assert_eq(t.name.ptr[0], 'b');
}

/* Sets path's times to those in st, the modification time moved by `shift` seconds. */
static void set_mtime(const char *path, const struct stat *st, time_t shift)
{
    struct timespec times[2] = {st->st_atim, {st->st_mtim.tv_sec + shift, st->st_mtim.tv_nsec}};
    cr_assert_eq(utimensat(AT_FDCWD, path, times, 0), 0);
}

Test(source, reopen_for_data_refuses_a_replaced_file)
{
    char *path = write_small("m.gguf");
    gs_file *f = open_detached(path);
    /* the same bytes, another inode, renamed into place */
    char *other = write_small("other.gguf");
    cr_assert_eq(rename(other, path), 0);
    expect_changed(f, "replaced by a copy");
    gs_close(f);
}

Test(source, reopen_for_data_refuses_a_resized_file)
{
    char *path = write_small("m.gguf");
    gs_file *f = open_detached(path);
    struct stat st = stat_of(path);
    int fd = open(path, O_WRONLY | O_APPEND);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "", 1), 1);
    close(fd);
    /* the modification time restored: the size alone says it changed */
    set_mtime(path, &st, 0);
    expect_changed(f, "one byte longer");
    gs_close(f);
}

Test(source, reopen_for_data_refuses_a_modified_file)
{
    char *path = write_small("m.gguf");
    gs_file *f = open_detached(path);
    expect_data(f);
    /* the same size, inode and device; another modification time */
    struct stat st = stat_of(path);
    set_mtime(path, &st, -10);
    expect_changed(f, "modified in place");
    gs_close(f);
}

Test(source, reopen_for_data_refuses_a_removed_file_or_a_fifo_in_its_place)
{
    char *path = write_small("m.gguf");
    gs_file *f = open_detached(path);
    cr_assert_eq(unlink(path), 0);
    expect_changed(f, "removed");
    cr_assert_eq(mkfifo(path, 0600), 0);
    expect_changed(f, "a FIFO in its place"); /* and no hang: the alarm would fire */
    gs_close(f);
}

Test(source, reopen_for_data_out_of_descriptors_is_an_io_error)
{
    char *path = write_small("m.gguf");
    gs_file *f = open_detached(path);
    no_more_descriptors();
    float out[8];
    cr_assert_eq(gs_tensor_dequantize(f, 0, out, 8), GS_E_IO);
    uint8_t byte;
    cr_assert_eq(gs_file_read(f, 0, &byte, 1), GS_E_IO);
    gs_close(f);
}
