"""Threads: the GIL is released during library calls (readers on other threads run while a
certification is in flight), an open file is read from several threads at once, and close waits
for a call in flight instead of freeing under it. No timing is asserted anywhere."""
import faulthandler
import os
import sys
import threading

import numpy as np
import pytest

import ggufsafe
from ggufsafe._lib import ffi, lib
from conftest import SAMPLE


@pytest.fixture
def no_preemption():
    # With a switch interval this long, a thread holding the GIL keeps it until it releases it
    # itself: another Python thread runs only where a library call lets the GIL go.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    yield
    sys.setswitchinterval(old)


def reader(f, expected, counter, stop, errors):
    name, first_token, q8 = expected
    try:
        while not stop.is_set():
            assert f.metadata["general.architecture"] == "llama"
            assert f.metadata["tokenizer.ggml.tokens"][0] == first_token
            assert f.tensor(name).n_elements == 4096
            assert f.dequantize("blk.0.q8_0.weight", rows=(2, 3)).tobytes() == q8
            counter[0] += 1
    except Exception as e:  # reported by the test, not lost in the thread
        errors.append(e)


@pytest.mark.heavy
def test_readers_run_while_certify_is_in_flight(corpus_dir, no_preemption):
    big = os.path.join(corpus_dir, "boundary", "tensors_40k.gguf")
    with ggufsafe.open(SAMPLE) as f:
        expected = ("blk.0.q4_0.weight", f.metadata["tokenizer.ggml.tokens"][0],
                    f.dequantize("blk.0.q8_0.weight")[2:3].tobytes())
        counters = [[0] for _ in range(2)]
        stop = threading.Event()
        errors = []
        threads = [threading.Thread(target=reader, args=(f, expected, c, stop, errors))
                   for c in counters]
        for t in threads:
            t.start()
        # Each reader has read at least once before the certification starts.
        while not all(c[0] for c in counters) and not errors:
            threading.Event().wait(0.001)
        seen = []  # (each reader's count) at each progress callback, inside the C call

        def progress(done, total):
            seen.append(tuple(c[0] for c in counters))

        try:
            report = ggufsafe.certify(big, deep=True, profile="lenient", progress=progress)
        finally:
            stop.set()
            for t in threads:
                t.join()
        assert errors == []
    assert report.deep and len(seen) > 1000
    # Between the first and the last callback of the one call, every reader made progress: the
    # certification did not hold the GIL.
    assert all(b > a for a, b in zip(seen[0], seen[-1])), (seen[0], seen[-1])


def test_many_threads_read_one_file():
    with ggufsafe.open(SAMPLE) as f:
        names = [t.name for t in f.tensors if t.type_name not in ("i8", "i16", "i32", "i64",
                                                                   "f64")]
        want = {n: f.dequantize(n).tobytes() for n in names}
        tokens = list(f.metadata["tokenizer.ggml.tokens"])
        results, errors = [], []

        def work(k):
            try:
                for n in names[k::2] + names:
                    results.append(f.dequantize(n).tobytes() == want[n])
                results.append(list(f.metadata["tokenizer.ggml.tokens"]) == tokens)
            except Exception as e:
                errors.append(e)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == [] and all(results) and len(results) > 8 * len(names)


def test_close_waits_for_a_call_in_flight():
    f = ggufsafe.open(SAMPLE)
    ptr = f._h.acquire()  # what every reader does for the length of its C call
    closer = threading.Thread(target=f.close)
    closer.start()
    while not f.closed:
        threading.Event().wait(0.001)
    # New readers are refused at once, the one in flight still reads valid memory.
    with pytest.raises(ValueError, match="closed"):
        f.metadata["general.name"]
    assert closer.is_alive() and int(lib.gs_kv_count(ptr)) == 32
    f._h.release()
    closer.join()
    assert f._h.ptr == ffi.NULL


def test_report_rendering_releases_the_gil(tmp_path):
    # The writer blocks in write(2) on a full pipe until this thread drains it: with the GIL
    # held during the call that would never happen (faulthandler ends the hang as a failure).
    report = ggufsafe.certify(SAMPLE, deep=True)
    want = report.to_json().encode()
    r, w = os.pipe()
    import fcntl
    fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ (Linux): a 4 KiB pipe, so the writer must wait
    got = bytearray()
    writer = threading.Thread(target=lambda: (report.write_json(w), os.close(w)))
    faulthandler.dump_traceback_later(120, exit=True)
    try:
        writer.start()
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            got += chunk
        writer.join()
    finally:
        faulthandler.cancel_dump_traceback_later()
        os.close(r)
    assert len(want) > 3 * 4096 and bytes(got) == want
