"""Manifests and comparison: ggufsafe.hash/verify/diff give what `ggufsafe hash`, `verify` and
`diff` print, byte for byte, and name what changed."""
import json
import os

import pytest

import ggufsafe
from conftest import SAMPLE, run


def test_hash_equals_command(cli):
    m = ggufsafe.hash(SAMPLE)
    assert m.to_text().encode() == run([cli, "hash", "-q", SAMPLE]).stdout
    (part,) = m.parts
    assert part.size == 148896 and part.kv_count == 32 and part.tensor_count == 33
    assert part.sha256 == "538272288539eaa6134473818489a7d053abe98cc4134c509bea061be00a6a51"
    entries = m.entries()
    assert len(entries) == 65 and entries[0].kind == "kv" and entries[-1].kind == "tensor"
    assert entries[32].name == "blk.0.q4_0.weight" and entries[32].type == "q4_0"
    assert entries[32].shape == "512,8" and entries[32].state == "hashed"


def test_verify_same_and_changed(tmp_path, cli):
    m = ggufsafe.hash(SAMPLE)
    ok = ggufsafe.verify(SAMPLE, m)
    assert ok.ok and bool(ok) and ok.differences == [] and ok.to_text() == ""
    # A manifest whose digest of one tensor is wrong: that tensor and the file are named.
    text = m.to_text()
    line = next(x for x in text.splitlines() if "blk.0.q8_0.weight" in x)
    digest = next(w for w in line.split() if len(w) == 64)
    bad = tmp_path / "bad.manifest"
    bad.write_text(text.replace(digest, "0" * 64))
    result = ggufsafe.verify(SAMPLE, str(bad))
    assert not result.ok
    changed = [(d.change, d.item, d.subject) for d in result.differences]
    assert ("changed", "tensor", "blk.0.q8_0.weight") in changed
    cmd = run([cli, "verify", "-q", SAMPLE, str(bad)])
    assert cmd.returncode == 1
    assert result.to_text().encode() in cmd.stdout
    assert ggufsafe.Manifest.parse(text).to_text() == text


def test_malformed_manifest(tmp_path):
    with pytest.raises(ggufsafe.GGUFError) as e:
        ggufsafe.Manifest.parse("not a manifest\n")
    assert e.value.status == "GS_E_INVALID_ARGUMENT" and "line 1" in e.value.detail
    with pytest.raises(FileNotFoundError):
        ggufsafe.verify(SAMPLE, str(tmp_path / "none.manifest"))
    with pytest.raises(IsADirectoryError):
        ggufsafe.Manifest.load(tmp_path)


def test_diff_equals_command(cli, corpus_dir):
    d = ggufsafe.diff(SAMPLE, SAMPLE)
    assert d.passed and d.summary["compared"] == 28 and d.summary["failing"] == 0
    assert all(t.max_abs == 0.0 for t in d.tensors if t.kind == "compared")
    assert d.to_json().encode() == run([cli, "diff", "--json", "-q", SAMPLE, SAMPLE]).stdout
    assert d.to_text().encode() == run([cli, "diff", "-q", SAMPLE, SAMPLE]).stdout
    assert d.to_html().encode() == run([cli, "diff", "-q", "--html", "-", "--output", os.devnull,
                                        SAMPLE, SAMPLE]).stdout
    opts = ["--tensor", "blk.0.q*", "--exclude", "*q8_0*", "--max-nmse", "0.01"]
    d = ggufsafe.diff(SAMPLE, SAMPLE, tensors="blk.0.q*", exclude=["*q8_0*"], max_nmse=0.01)
    assert d.to_json().encode() == run([cli, "diff", "--json", "-q", *opts, SAMPLE,
                                        SAMPLE]).stdout
    assert all("q8_0" not in t.name and t.name.startswith("blk.0.q") for t in d.tensors)
    other = os.path.join(corpus_dir, "header", "version_3.gguf")
    d = ggufsafe.diff(SAMPLE, other)
    assert d.to_json().encode() == run([cli, "diff", "--json", "-q", SAMPLE, other]).stdout
    assert d.summary["only_a"] == 33 and d.passed  # tensors on one side only do not fail
    assert [t.kind for t in d.tensors][:33] == ["only-a"] * 33
    assert json.loads(d.to_json()) == d.data
    with pytest.raises(ValueError):
        ggufsafe.diff(SAMPLE, SAMPLE, max_abs=float("nan"))
