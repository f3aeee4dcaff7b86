"""ggufsafe.diff: a candidate B against a reference A (ggufsafe_diff.h)."""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, cast

from ._errors import check, error_from
from ._file import PathLike, _profile, fspath_bytes, text_or_bytes
from ._lib import certify_lib, ffi, lib
from ._render import render

_KINDS = ("compared", "not-decodable", "shape-mismatch", "only-a", "only-b")
_KV_KINDS = ("only-a", "only-b", "changed")


@dataclass(frozen=True)
class TensorDiff:
    """One tensor of the comparison; the metrics are None unless kind is "compared"."""
    name: Union[str, bytes]
    kind: str
    type_a: Optional[str]
    type_b: Optional[str]
    n_elements: int
    max_abs: Optional[float]
    rmse: Optional[float]
    nmse: Optional[float]
    cosine: Optional[float]
    equal_fraction: Optional[float]
    exceeds: Tuple[str, ...]


@dataclass(frozen=True)
class KVDiff:
    key: Union[str, bytes]
    kind: str
    first_difference: Optional[int]


class _Owner:
    """Frees the comparison before its inputs: the result reads names from them."""

    def __init__(self) -> None:
        self.a = self.b = self.diff = ffi.NULL

    def __del__(self) -> None:
        if self.diff != ffi.NULL:
            certify_lib.gs_diff_free(self.diff)
        for side in (self.a, self.b):
            if side != ffi.NULL:
                certify_lib.gs_diff_input_close(side)


class DiffReport:
    """The comparison: summary (the JSON report's totals), tensors, kvs, passed; to_json() and
    to_text() are byte for byte what `ggufsafe diff` prints; data is the JSON report parsed."""

    def __init__(self, owner: _Owner) -> None:
        self._owner = owner
        d = owner.diff
        s = ffi.new("gs_diff_summary *")
        s.struct_size = ffi.sizeof("gs_diff_summary")
        check(certify_lib.gs_diff_get_summary(d, s))
        self.passed = bool(s.passed)
        self.summary: Dict[str, Any] = {
            name: (float(getattr(s, name)) if field.type.cname == "double" else
                   bool(getattr(s, name)) if field.type.cname == "_Bool" else
                   int(getattr(s, name)))
            for name, field in ffi.typeof("gs_diff_summary").fields
            if name not in ("struct_size", "rollup_count")}
        self.summary["rollup_count"] = [int(n) for n in s.rollup_count]
        self.tensors: List[TensorDiff] = []
        t = ffi.new("gs_diff_tensor *")
        for i in range(int(s.tensor_count)):
            t.struct_size = ffi.sizeof("gs_diff_tensor")
            check(certify_lib.gs_diff_tensor_at(d, i, t))
            compared = t.kind == 0
            exceeds = tuple(n for bit, n in ((1, "nmse"), (2, "max_abs"), (4, "cosine"))
                            if t.exceeds & bit)
            self.tensors.append(TensorDiff(
                text_or_bytes(ffi.unpack(t.name.ptr, t.name.len)), _KINDS[t.kind],
                _type(t.type_a) if t.in_a else None, _type(t.type_b) if t.in_b else None,
                int(t.n_elements), float(t.max_abs) if compared else None,
                float(t.rmse) if compared else None, float(t.nmse) if compared else None,
                float(t.cosine) if compared else None,
                float(t.equal_fraction) if compared else None, exceeds))
        self.kvs: List[KVDiff] = []
        k = ffi.new("gs_diff_kv *")
        for i in range(int(s.kv_count)):
            k.struct_size = ffi.sizeof("gs_diff_kv")
            check(certify_lib.gs_diff_kv_at(d, i, k))
            self.kvs.append(KVDiff(text_or_bytes(ffi.unpack(k.key.ptr, k.key.len)),
                                   _KV_KINDS[k.kind],
                                   int(k.first_difference) if k.has_first_difference else None))

    def to_json(self) -> str:
        return render(certify_lib.gs_diff_write_json, self._owner.diff).decode("utf-8")

    def to_text(self) -> str:
        return render(certify_lib.gs_diff_write_text, self._owner.diff).decode("utf-8")

    def to_html(self) -> str:
        """The self-contained HTML page of `ggufsafe diff --html` (docs/diff.md)."""
        return render(certify_lib.gs_diff_write_html, self._owner.diff).decode("utf-8")

    @property
    def data(self) -> Any:
        """The JSON report (conformance/schema/diff.schema.json) as Python objects."""
        return json.loads(self.to_json())

    def __repr__(self) -> str:
        return f"<ggufsafe.DiffReport passed={self.passed} tensors={len(self.tensors)}>"


def _type(t: int) -> str:
    return cast(str, ffi.string(lib.gs_type_name(t)).decode("ascii"))


def _globs(patterns: Union[None, str, bytes, Sequence[Union[str, bytes]]]) -> List[bytes]:
    if patterns is None:
        return []
    if isinstance(patterns, (str, bytes)):
        patterns = [patterns]
    return [p.encode("utf-8") if isinstance(p, str) else p for p in patterns]


def _threshold(name: str, value: Optional[float]) -> Tuple[bool, float]:
    if value is None:
        return False, 0.0
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite")
    return True, v


def diff(a: PathLike, b: PathLike, *, tensors: Union[None, str, Sequence[str]] = None,
         exclude: Union[None, str, Sequence[str]] = None, max_nmse: Optional[float] = None,
         max_abs: Optional[float] = None, min_cos: Optional[float] = None, jobs: int = 1,
         profile: str = "strict", part_only: bool = False,
         metadata_only: bool = False) -> DiffReport:
    """Compares candidate b with reference a, tensor by tensor (`ggufsafe diff A B`): tensors
    and exclude are name patterns (fnmatch), the thresholds the gate. metadata_only: no tensor
    data is read (nor need it be in the files); key-values, tensor lists, types and shapes are
    compared."""
    raw_a, raw_b = fspath_bytes(a), fspath_bytes(b)
    opts = ffi.new("gs_diff_options *")
    certify_lib.gs_diff_options_init(opts)
    opts.profile = _profile(profile)
    opts.part_only = bool(part_only)
    opts.jobs = int(jobs)
    opts.metadata_only = bool(metadata_only)
    inc, exc = _globs(tensors), _globs(exclude)
    keep = [ffi.new("char[]", p) for p in inc + exc]
    inc_arr = ffi.new("const char *[]", keep[:len(inc)]) if inc else ffi.NULL
    exc_arr = ffi.new("const char *[]", keep[len(inc):]) if exc else ffi.NULL
    opts.tensor_globs, opts.n_tensor_globs = inc_arr, len(inc)
    opts.exclude_globs, opts.n_exclude_globs = exc_arr, len(exc)
    opts.has_max_nmse, opts.max_nmse = _threshold("max_nmse", max_nmse)
    opts.has_max_abs, opts.max_abs = _threshold("max_abs", max_abs)
    opts.has_min_cos, opts.min_cos = _threshold("min_cos", min_cos)
    owner = _Owner()
    err = ffi.new("gs_error *")
    for raw, side in ((raw_a, "a"), (raw_b, "b")):
        out = ffi.new("gs_diff_input **")
        st = certify_lib.gs_diff_open(raw, ffi.NULL, opts, out, err)
        if st != 0:
            raise error_from(st, err, path=os.fsdecode(raw))
        setattr(owner, side, out[0])
    out_d = ffi.new("gs_diff **")
    st = certify_lib.gs_diff_compare(owner.a, owner.b, opts, out_d, err)
    if st != 0:
        raise error_from(st, err)
    owner.diff = out_d[0]
    return DiffReport(owner)
