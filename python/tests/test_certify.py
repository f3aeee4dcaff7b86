"""Certification: the report's JSON, SARIF and text byte for byte what `ggufsafe certify` prints
for the same options, its findings equal to the JSON's, and the verdicts of corpus/manifest.tsv,
on the sample and every corpus file up to 1 MiB."""
import json
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

import ggufsafe
from conftest import SAMPLE, corpus_rows, run

ROWS = corpus_rows()
# The four corpus files above 1 MiB (boundary/: 160,000 keys, 262,144 tokens, 40,000 tensors;
# a 1 MiB alignment) take seconds each to certify twice: the C suite certifies them.
BIG = 1 << 20


def cli_json(cli, path, *args):
    p = run([cli, "certify", "--json", "--quiet", path, *args])
    return p.returncode, p.stdout


def same_findings(report, doc):
    assert report.verdict == doc["verdict"] and report.verdict
    assert report.root_cause == doc["root_cause"] and report.read_failed == doc["read_failed"]
    assert len(report.findings) == len(doc["findings"])
    for f, j in zip(report.findings, doc["findings"]):
        assert f.code == j["code"] and f.effective == j["severity"]
        assert list(f.profiles) == j["profiles"]
        assert f.message == j["message"]
        assert f.offset == j.get("offset")
        assert (None if f.part is None else f.part + 1) == j.get("part")
        for mine, theirs in ((f.key, j.get("key")), (f.tensor, j.get("tensor"))):
            if isinstance(mine, bytes):
                # Not UTF-8: raw bytes here, escaped text in the JSON (same printable prefix).
                printable = len(mine) - len(mine.lstrip(bytes(range(0x20, 0x7f))))
                assert theirs is not None and "\\x" in theirs
                assert theirs.startswith(mine[:printable].decode("ascii"))
            else:
                assert mine == theirs
        assert f.hint == j["hint"] and f.hint
        assert f.help == j["help"] == "docs/certify.md#" + f.code
        assert f.caused_by == j["caused_by"]
        assert f.caused_by is None or f.caused_by < report.findings.index(f)


def test_sample_certified_json_sarif_text(cli):
    report = ggufsafe.certify(SAMPLE)
    assert isinstance(report, ggufsafe.Report)
    assert report.certified is True and report.counts["error"] == 0
    code, out = cli_json(cli, SAMPLE)
    assert code == 0
    assert report.to_json().encode() == out
    same_findings(report, json.loads(out))
    assert report.to_sarif().encode() == run([cli, "certify", "--sarif", "-q", SAMPLE]).stdout
    text = run([cli, "certify", "-q", SAMPLE]).stdout
    assert report.to_text().encode() == text
    assert report.kind == "model" and report.architecture == "llama"
    assert [p.label for p in report.parts] == ["ggml-written.gguf"]
    assert report.verdict_for("lenient") is True


def test_sample_deep_and_progress(cli):
    seen = []
    report = ggufsafe.certify(SAMPLE, deep=True, jobs=2, progress=lambda d, t: seen.append((d, t)))
    code, out = cli_json(cli, SAMPLE, "--deep")
    assert code == 0 and report.to_json().encode() == out
    assert report.deep and len(report.stats) == 33
    assert seen and seen[-1][0] == seen[-1][1] > 0


@pytest.mark.heavy
@pytest.mark.parametrize("profile", ["strict", "lenient"])
def test_corpus_json_equals_command(corpus_dir, cli, profile):
    rows = ROWS if profile == "strict" else ROWS[::5]
    rows = [r for r in rows if os.path.getsize(os.path.join(corpus_dir, r[0])) <= BIG]
    paths = [os.path.join(corpus_dir, r[0]) for r in rows]
    # The command's runs in parallel (process start-up dominates); the library's in turn.
    with ThreadPoolExecutor(max_workers=4) as pool:
        outputs = list(pool.map(lambda p: cli_json(cli, p, "--profile", profile), paths))
    checked = 0
    for row, path, (code, out) in zip(rows, paths, outputs):
        if code == 2:
            # Nothing to certify (not GGUF at all): the library says why instead of a report.
            assert out == b""
            with pytest.raises((ggufsafe.GGUFError, OSError)):
                ggufsafe.certify(path, profile=profile)
            continue
        report = ggufsafe.certify(path, profile=profile)
        assert report.to_json().encode() == out, row[0]
        same_findings(report, json.loads(out))
        assert report.certified == (code == 0), row[0]
        if profile == "strict":
            assert code == int(row[6]), row[0]
        checked += 1
    assert checked > (350 if profile == "strict" else 70)


def test_several_paths_and_a_directory(corpus_dir, tmp_path):
    paths = [SAMPLE, os.path.join(corpus_dir, "header", "version_3.gguf")]
    reports = ggufsafe.certify(paths)
    assert isinstance(reports, ggufsafe.ReportSet) and len(reports) == 2
    assert [r.path for r in reports] == paths
    assert reports.certified == all(r.certified for r in reports)
    os.symlink(SAMPLE, tmp_path / "b.gguf")
    os.symlink(os.path.join(corpus_dir, "header", "version_4.gguf"), tmp_path / "a.gguf")
    (tmp_path / "notes.txt").write_text("not a model")
    folder = ggufsafe.certify(str(tmp_path))
    assert [os.path.basename(r.path) for r in folder] == ["a.gguf", "b.gguf"]
    assert [r.certified for r in folder] == [False, True] and folder.certified is False
    assert folder.findings[0][0] == str(tmp_path / "a.gguf")
    assert folder.findings[0][1].code == "reader.GS_E_UNSUPPORTED_VERSION"


def test_options_are_checked():
    with pytest.raises(ValueError):
        ggufsafe.certify(SAMPLE, fail_on="info")
    with pytest.raises(ValueError):
        ggufsafe.certify(SAMPLE, profile="none")
    with pytest.raises(ValueError):
        ggufsafe.certify(SAMPLE, jobs=-1)


def test_write_json_to_a_file(tmp_path):
    report = ggufsafe.certify(SAMPLE)
    out = tmp_path / "r.json"
    with open(out, "wb") as fh:
        report.write_json(fh)
    assert out.read_text() == report.to_json()
