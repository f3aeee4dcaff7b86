"""1,000 files opened, read and dropped (half closed, half left to the garbage collector),
certified or hashed: afterwards no mapping of and no descriptor on a corpus file is left (a
leaked gs_file keeps both), and, outside sanitizer runs, the resident memory does not grow."""
import gc
import os

import ggufsafe
from conftest import SAMPLE, corpus_rows


def held(prefix):
    """Mappings and open descriptors of files under prefix."""
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
        maps = sum(1 for line in f if prefix in line)
    fds = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            fds += os.readlink(f"/proc/self/fd/{fd}").startswith(prefix)
        except OSError:
            pass
    return maps, fds


def rss_kib():
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def under_asan():
    return "asan" in os.environ.get("LD_PRELOAD", "")


def one_round(paths, i):
    path = paths[i % len(paths)]
    f = ggufsafe.open(path, profile="lenient")
    for key in list(f.metadata)[:50]:
        value = f.metadata[key]
        if isinstance(value, ggufsafe.GGUFArray) and len(value):
            value[len(value) - 1]
    for t in list(f.tensors)[:20]:
        if t.data_in_file and t.type_name in ("f32", "f16", "q8_0", "q4_0") and t.n_bytes:
            f.dequantize(t.name)
    if i % 2:
        f.close()
    del f
    if i % 10 == 0:
        report = ggufsafe.certify(path, profile="lenient")
        report.to_json()
    if i % 50 == 0:
        ggufsafe.verify(path, ggufsafe.hash(path, profile="lenient")).to_text()


def test_thousand_files_leave_nothing_behind(corpus_dir):
    # The files the lenient reader accepts, up to 1 MiB, and the ggml sample.
    paths = [os.path.join(corpus_dir, r[0]) for r in corpus_rows() if r[4] == "GS_OK"]
    paths = [p for p in paths if os.path.getsize(p) <= 1 << 20] + [SAMPLE]
    assert len(paths) > 100
    prefixes = (os.path.realpath(corpus_dir), os.path.realpath(os.path.dirname(SAMPLE)))
    gc.collect()
    before = [held(p) for p in prefixes]
    for i in range(100):
        one_round(paths, i)
    gc.collect()
    warm = rss_kib()
    for i in range(100, 1000):
        one_round(paths, i)
    gc.collect()
    assert [held(p) for p in prefixes] == before
    if not under_asan():  # ASan's quarantine keeps freed memory resident by design
        grown = rss_kib() - warm
        assert grown < 8 * 1024, f"resident memory grew by {grown} KiB over 900 files"
