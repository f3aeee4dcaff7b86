"""The corpus through ggufsafe.open: every verdict and offset equal to corpus/manifest.tsv, under
both profiles, and every accepted file read through: every key listed, the first and last 2,000
values, array elements and tensors of each read."""
import os

import pytest

import ggufsafe
from conftest import corpus_rows

ROWS = corpus_rows()


def read_everything(f: ggufsafe.GGUFFile) -> int:
    n = 0
    keys = list(f.metadata)
    for key in keys[:2000] + keys[-2000:]:
        value = f.metadata[key]
        assert isinstance(key, (str, bytes))
        if isinstance(value, ggufsafe.GGUFArray):
            # Element by element; at most the first and last 1,000 of long arrays.
            picks = list(range(min(len(value), 1000)))
            picks += list(range(max(1000, len(value) - 1000), len(value)))
            for i in picks:
                value[i]
                n += 1
        n += 1
    tensors = f.tensors
    for i in list(range(min(len(tensors), 2000))) + list(range(len(tensors) - 2000, len(tensors))):
        if i < 0:
            continue
        t = tensors[i]
        assert f.tensor(t.name) == t
        n += 1
    f.layout
    return n


@pytest.mark.parametrize("profile,col", [("strict", 2), ("lenient", 4)])
def test_corpus_verdicts(corpus_dir, profile, col):
    assert len(ROWS) > 400
    mismatches = []
    for row in ROWS:
        path = os.path.join(corpus_dir, row[0])
        want_status, want_offset = row[col], row[col + 1]
        try:
            with ggufsafe.open(path, profile=profile) as f:
                read_everything(f)
            got = ("GS_OK", "-")
        except ggufsafe.GGUFError as e:
            got = (e.status, str(e.offset))
            assert str(e).startswith(path + ": " + e.status)
        if got != (want_status, want_offset):
            mismatches.append((row[0], (want_status, want_offset), got))
    assert mismatches == []


def test_error_fields_on_a_bad_key(corpus_dir):
    row = next(r for r in ROWS if r[2] == "GS_E_BAD_KEY")
    with pytest.raises(ggufsafe.GGUFError) as e:
        ggufsafe.open(os.path.join(corpus_dir, row[0]))
    assert isinstance(e.value, ValueError)
    assert e.value.status == "GS_E_BAD_KEY"
    assert e.value.code == 46
    assert e.value.offset == int(row[3])
    assert e.value.context_kind == "key"
    assert e.value.context


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        ggufsafe.open(tmp_path / "absent.gguf")
    assert e.value.filename == str(tmp_path / "absent.gguf")
    assert e.value.status == "GS_E_NO_SUCH_FILE"
    with pytest.raises(FileNotFoundError):
        ggufsafe.certify(str(tmp_path / "absent.gguf"))


def test_not_regular_files_are_os_errors(tmp_path):
    with pytest.raises(IsADirectoryError) as e:
        ggufsafe.open(tmp_path)
    assert e.value.status == "GS_E_NOT_REGULAR_FILE"
    fifo = tmp_path / "pipe.gguf"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as e:  # refused at once: the reader never blocks on a FIFO
        ggufsafe.open(fifo)
    assert e.value.status == "GS_E_NOT_REGULAR_FILE" and "FIFO" in str(e.value)
    with pytest.raises(OSError):
        ggufsafe.certify(str(fifo))


def test_path_with_nul_is_value_error():
    with pytest.raises(ValueError, match="null byte"):
        ggufsafe.open("a\0b.gguf")


def test_bad_profile():
    with pytest.raises(ValueError, match="profile"):
        ggufsafe.open("x.gguf", profile="loose")


def test_open_bytes_equals_open(corpus_dir):
    path = os.path.join(corpus_dir, "boundary", "vocab_262144.gguf")
    with open(path, "rb") as fh:
        data = fh.read()
    with ggufsafe.open(path) as a, ggufsafe.open_bytes(data) as b:
        assert list(a.metadata) == list(b.metadata)
        assert a.layout == b.layout
    with pytest.raises(ggufsafe.GGUFError) as e:
        ggufsafe.open_bytes(data[:100])
    assert e.value.status in ("GS_E_TRUNCATED", "GS_E_COUNT_EXCEEDS_FILE",
                              "GS_E_STRING_EXCEEDS_FILE")
