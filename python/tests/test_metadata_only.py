"""metadata_only=True: a copy of the sample cut where its data begins (a header-only copy) and one
cut inside its data, through open, certify, hash, verify and diff; the reports byte for byte what
the command prints with --metadata-only, and the hints and verdicts that say what to do."""
import json

import pytest

import ggufsafe
from conftest import SAMPLE, run

DATA_OFFSET = 63840   # where the sample's tensor data begins
FULL_SIZE = 148896    # the sample's size, which its header describes


def cut(tmp_path, name, size):
    path = tmp_path / name
    with open(SAMPLE, "rb") as f:
        path.write_bytes(f.read(size))
    return str(path)


def test_open_header_only_copy(tmp_path):
    path = cut(tmp_path, "header_only.gguf", DATA_OFFSET)
    with pytest.raises(ggufsafe.GGUFError) as e:
        ggufsafe.open(path)
    assert e.value.status == "GS_E_DATA_OUTSIDE_FILE"
    with ggufsafe.open(SAMPLE) as whole, ggufsafe.open(path, metadata_only=True) as f:
        assert len(f.tensors) == 33 and not any(t.data_in_file for t in f.tensors)
        assert [t.name for t in f.tensors] == [t.name for t in whole.tensors]
        assert dict(f.metadata.items()) == dict(whole.metadata.items())
        layout = f.layout
        assert layout.tensors_outside == 33 and layout.described_size == FULL_SIZE
        assert layout.file_size == DATA_OFFSET and whole.layout.tensors_outside == 0
        assert whole.layout.described_size == FULL_SIZE
        with pytest.raises(ggufsafe.GGUFError):
            f.dequantize("blk.0.q4_0.weight")


def test_open_bytes_cut_inside_data(tmp_path):
    with open(SAMPLE, "rb") as fh:
        data = fh.read(100000)
    with ggufsafe.open(SAMPLE) as whole, ggufsafe.open_bytes(data, metadata_only=True) as f:
        inside = [t for t in f.tensors if t.data_in_file]
        assert 0 < len(inside) < 33
        assert f.layout.tensors_outside == 33 - len(inside)
        for t in inside:
            assert t.offset + t.n_bytes <= len(data)
            assert (f.dequantize(t.name) == whole.dequantize(t.name)).all()


def test_certify_header_only_copy(tmp_path, cli):
    path = cut(tmp_path, "header_only.gguf", DATA_OFFSET)
    report = ggufsafe.certify(path)
    assert not report.certified and report.root_cause == 0
    assert report.verdict.startswith(
        "incomplete download: 63,840 of the 148,896 bytes the header describes")
    first = report.findings[0]
    assert first.code == "layout.truncated" and first.tensor == "blk.0.q4_0.weight"
    assert first.hint and first.help == "docs/certify.md#layout.truncated"
    assert first.caused_by is None
    meta = ggufsafe.certify(path, metadata_only=True)
    assert meta.certified and not meta.read_failed
    assert meta.verdict == ("metadata sound: the tensor data is not in this file (a metadata-only "
                            "check); certify the complete file before using it")
    assert meta.findings[0].code == "layout.data_absent" and meta.counts["info"] == 4
    out = run([cli, "certify", "--json", "-q", "--metadata-only", path])
    assert out.returncode == 0 and meta.to_json().encode() == out.stdout
    doc = json.loads(out.stdout)
    assert doc["metadata_only"] is True and doc["verdict"] == meta.verdict
    assert [f.hint for f in meta.findings] == [f["hint"] for f in doc["findings"]]
    text = run([cli, "certify", "-q", "--metadata-only", path]).stdout
    assert meta.to_text().encode() == text


def test_hash_verify_diff_header_only_copy(tmp_path, cli):
    path = cut(tmp_path, "header_only.gguf", DATA_OFFSET)
    with pytest.raises(ggufsafe.GGUFError):
        ggufsafe.hash(path)
    m = ggufsafe.hash(path, metadata_only=True)
    assert m.to_text().encode() == run([cli, "hash", "-q", "--metadata-only", path]).stdout
    (part,) = m.parts
    assert part.size == DATA_OFFSET and part.kv_count == 32
    assert ggufsafe.verify(path, m, metadata_only=True).ok
    d = ggufsafe.diff(SAMPLE, path, metadata_only=True)
    assert d.summary["metadata_only"] is True and d.summary["compared"] == 0
    assert d.summary["kv_changed"] == 0 and d.summary["only_a"] == 0
    cmd = run([cli, "diff", "--json", "-q", "--metadata-only", SAMPLE, path])
    assert d.to_json().encode() == cmd.stdout
    assert ggufsafe.diff(SAMPLE, SAMPLE).summary["metadata_only"] is False
