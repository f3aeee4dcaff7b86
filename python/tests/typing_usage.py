"""Checked by mypy (ci/python.sh), never run: the README's uses type-check, in the checkout and
against the installed package (its inline annotations and py.typed)."""
import numpy as np
import numpy.typing as npt

import ggufsafe


def check_a_download(path: str) -> bool:
    with ggufsafe.open(path) as f:
        tokens = f.metadata["tokenizer.ggml.tokens"]
        assert isinstance(tokens, ggufsafe.GGUFArray)
        last: object = tokens[len(tokens) - 1]
        first: npt.NDArray[np.float32] = f.dequantize(f.tensors[0].name, rows=(0, 1))
        del last, first
    report: ggufsafe.Report = ggufsafe.certify(path, deep=True)
    codes = [finding.code for finding in report.findings]
    return report.certified and not codes


def certify_a_folder(folder: str) -> int:
    reports: ggufsafe.ReportSet = ggufsafe.certify([folder])
    return sum(1 for r in reports if not r.certified)


def compare(a: str, b: str) -> float:
    d = ggufsafe.diff(a, b, max_nmse=1e-3)
    worst = max((t.nmse or 0.0) for t in d.tensors)
    return worst if d.passed else float("inf")


def manifest(path: str) -> bool:
    m = ggufsafe.hash(path)
    return ggufsafe.verify(path, m).ok and bool(m.parts[0].sha256)
