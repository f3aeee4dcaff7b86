"""ggufsafe.certify: the certification library's report (ggufsafe_certify.h) as Python objects;
its text, JSON and SARIF are the library's own writers, byte for byte what the command prints."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import (IO, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union,
                    cast, overload)

from ._errors import check, error_from
from ._file import PathLike, _profile, fspath_bytes, text_or_bytes
from ._lib import certify_lib, ffi, lib
from ._render import render, write_to_fd

_SEVERITIES = ("info", "warning", "error")
_NO_PART = 0xFFFFFFFF
_NO_OFFSET = 0xFFFFFFFFFFFFFFFF
_NO_CAUSE = (1 << (8 * ffi.sizeof("size_t"))) - 1

ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class Finding:
    """One finding: code (docs/certify.md), severity ("error", "warning", "info"), effective
    (what it counts as under the run's profile), profiles (those it breaks), part (index, None
    for the set), offset (None when it has none), key or tensor (the one it names, str or bytes),
    message (escaped), hint (what it means for the user and what to do), help (where the code
    is documented: "docs/certify.md#<code>"), caused_by (the index of the finding this one is a
    consequence of, always an earlier one; None for a root cause)."""
    code: str
    severity: str
    effective: str
    profiles: Tuple[str, ...]
    part: Optional[int]
    offset: Optional[int]
    key: Union[str, bytes, None]
    tensor: Union[str, bytes, None]
    name_cut: bool
    message: str
    hint: str
    help: str
    caused_by: Optional[int]


@dataclass(frozen=True)
class Part:
    path: str
    label: str
    state: str  # "read", "missing", "rejected"
    version: int
    file_size: int
    kv_count: int
    tensor_count: int


def _str(p: Any) -> Optional[str]:
    return None if p == ffi.NULL else ffi.string(p).decode("utf-8", "backslashreplace")


def _name(f: Any) -> Union[str, bytes]:
    raw = ffi.unpack(ffi.cast("char *", f.name), f.name_len) if f.name_len else b""
    if f.name_is_text:
        return cast(str, raw.decode("utf-8", "backslashreplace"))
    return text_or_bytes(raw)


def _finding(f: Any) -> Finding:
    profiles = tuple(p for bit, p in ((1, "strict"), (2, "lenient")) if f.profiles & bit)
    name = _name(f) if f.subject != 0 else None
    return Finding(
        code=ffi.string(f.code).decode("ascii", "backslashreplace"),
        severity=_SEVERITIES[f.severity], effective=_SEVERITIES[f.effective],
        profiles=profiles, part=None if f.part == _NO_PART else int(f.part),
        offset=None if f.offset == _NO_OFFSET else int(f.offset),
        key=name if f.subject == 1 else None, tensor=name if f.subject == 2 else None,
        name_cut=bool(f.name_cut), message=_str(f.message) or "", hint=_str(f.hint) or "",
        help=_str(f.help) or "", caused_by=None if f.caused_by == _NO_CAUSE else int(f.caused_by))


class _Owned:
    """A C handle freed by free_fn when the Python object goes."""

    def __init__(self, ptr: Any, free_fn: Callable[[Any], None]) -> None:
        self.ptr = ffi.gc(ptr, free_fn)


class Report:
    """The certification of one file or split set."""

    def __init__(self, ptr: Any) -> None:
        self._owned = _Owned(ptr, certify_lib.gs_certify_free)
        self._ptr = self._owned.ptr
        s = ffi.new("gs_certify_summary *")
        s.struct_size = ffi.sizeof("gs_certify_summary")
        check(certify_lib.gs_certify_get_summary(self._ptr, s))
        self.path: str = _str(s.path) or ""
        self.profile = "lenient" if s.profile == 1 else "strict"
        self.fail_on = _SEVERITIES[s.fail_on]
        self.deep = bool(s.deep)
        self.is_set = bool(s.is_set)
        self.certified = bool(s.verdict.certified)
        self.counts: Dict[str, int] = {n: int(s.verdict.counts[i])
                                       for i, n in enumerate(_SEVERITIES)}
        self.kind = _str(s.kind) or "unknown"
        self.architecture = (text_or_bytes(ffi.unpack(s.architecture.ptr, s.architecture.len))
                             if s.architecture.ptr != ffi.NULL else None)
        # The verdict in plain words (the text report's first line), the index of the finding
        # it names, and whether the file could not be read to its end (the environment's
        # failure, not the file's: the command exits 2).
        self.verdict: str = _str(s.verdict_sentence) or ""
        self.root_cause: Optional[int] = (None if s.root_cause == _NO_CAUSE
                                          else int(s.root_cause))
        self.read_failed = bool(s.read_failed)
        self.findings: List[Finding] = []
        f = ffi.new("gs_certify_finding *")
        for i in range(int(s.finding_count)):
            f.struct_size = ffi.sizeof("gs_certify_finding")
            check(certify_lib.gs_certify_finding_at(self._ptr, i, f))
            self.findings.append(_finding(f))
        self.parts: List[Part] = []
        p = ffi.new("gs_certify_part *")
        for i in range(int(s.part_count)):
            p.struct_size = ffi.sizeof("gs_certify_part")
            check(certify_lib.gs_certify_part_at(self._ptr, i, p))
            self.parts.append(Part(_str(p.path) or "", _str(p.label) or "",
                                   ("read", "missing", "rejected")[p.state], int(p.version),
                                   int(p.file_size), int(p.kv_count), int(p.tensor_count)))
        self._stats_count = int(s.stats_count)

    def verdict_for(self, profile: str = "strict", fail_on: str = "error") -> bool:
        """Whether the file is certified under another profile or fail-on level (one run
        answers for both profiles)."""
        v = ffi.new("gs_certify_verdict *")
        v.struct_size = ffi.sizeof("gs_certify_verdict")
        check(certify_lib.gs_certify_verdict_for(self._ptr, _profile(profile),
                                                 _SEVERITIES.index(fail_on), v))
        return bool(v.certified)

    @property
    def stats(self) -> List[Dict[str, Any]]:
        """Deep runs: per-tensor statistics of the scan (empty otherwise)."""
        out = []
        st = ffi.new("gs_certify_stats *")
        for i in range(self._stats_count):
            st.struct_size = ffi.sizeof("gs_certify_stats")
            check(certify_lib.gs_certify_stats_at(self._ptr, i, st))
            name = text_or_bytes(ffi.unpack(ffi.cast("char *", st.name), st.name_len))
            out.append({"part": int(st.part), "tensor": int(st.tensor), "name": name,
                        "type": int(st.type), "elements": int(st.elements),
                        "blocks": int(st.blocks), "scanned": bool(st.scanned),
                        "zero_blocks": int(st.zero_blocks),
                        "bad_scale_blocks": int(st.bad_scale_blocks),
                        "nan": int(st.nan), "inf": int(st.inf), "finite": int(st.finite),
                        "min": float(st.min), "max": float(st.max), "sum": float(st.sum)})
        return out

    def to_json(self) -> str:
        """The JSON report (conformance/schema/certify.schema.json), byte for byte what
        `ggufsafe certify --json` prints for the same options."""
        return render(certify_lib.gs_certify_write_json, self._ptr).decode("utf-8")

    def to_sarif(self) -> str:
        """The report as SARIF 2.1.0 (`ggufsafe certify --sarif`)."""
        return render(certify_lib.gs_certify_write_sarif, self._ptr).decode("utf-8")

    def to_text(self) -> str:
        """The report for people (`ggufsafe certify`)."""
        return render(certify_lib.gs_certify_write_text, self._ptr).decode("utf-8")

    def write_json(self, file: Union[int, IO[Any]]) -> None:
        """Streams the JSON report to a file descriptor or a file object with fileno()."""
        fd = file if isinstance(file, int) else file.fileno()
        if not isinstance(file, int):
            file.flush()
        write_to_fd(certify_lib.gs_certify_write_json, self._ptr, fd)

    def __repr__(self) -> str:
        return (f"<ggufsafe.Report {self.path!r} certified={self.certified} "
                f"findings={len(self.findings)}>")


class ReportSet(Sequence[Report]):
    """The reports of several files (certify with several paths or a directory), in order."""

    def __init__(self, reports: List[Report]) -> None:
        self.reports = reports

    @property
    def certified(self) -> bool:
        return all(r.certified for r in self.reports)

    @property
    def findings(self) -> List[Tuple[str, Finding]]:
        return [(r.path, f) for r in self.reports for f in r.findings]

    def __len__(self) -> int:
        return len(self.reports)

    @overload
    def __getitem__(self, i: int) -> Report: ...
    @overload
    def __getitem__(self, i: slice) -> List[Report]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Report, List[Report]]:
        return self.reports[i]

    def __repr__(self) -> str:
        ok = sum(r.certified for r in self.reports)
        return f"<ggufsafe.ReportSet {len(self.reports)} files, {ok} certified>"


def _progress_callback(progress: Optional[ProgressFn]) -> Any:
    if progress is None:
        return ffi.NULL
    report = progress

    def cb(ctx: Any, p: Any) -> None:
        try:
            report(int(p.done), int(p.total))
        except Exception:  # noqa: BLE001 - a callback from C must not raise
            pass
    return ffi.callback("void(void *, const gs_progress *)", cb)


def _certify_one(raw: bytes, shown: str, opts: Any) -> Report:
    out = ffi.new("gs_certify **")
    err = ffi.new("gs_error *")
    st = certify_lib.gs_certify_path(raw, opts, out, err)
    if st != 0:
        raise error_from(st, err, path=shown)
    return Report(out[0])


def _is_later_part(path: bytes) -> bool:
    name = ffi.new("gs_split_name *")
    return bool(lib.gs_split_name_parse(path, len(path), name)) and name.part != 1


def _expand(paths: Iterable[PathLike]) -> List[bytes]:
    """Files as given; a directory: every *.gguf below it in bytewise order, later parts of a
    split set left out (certifying part 1 covers its set)."""
    out: List[bytes] = []
    for p in paths:
        raw = fspath_bytes(p)
        if not os.path.isdir(raw):
            out.append(raw)
            continue
        found = []
        for root, dirs, files in os.walk(raw):
            dirs.sort()
            for f in files:
                if f.endswith(b".gguf"):
                    found.append(os.path.join(root, f))
        out.extend(f for f in sorted(found) if not _is_later_part(f))
    return out


# A str is a Sequence[str] too: for a type checker a single path (str, bytes, PathLike) gives a
# Report, a sequence of them a ReportSet.
@overload
def certify(path_or_paths: PathLike, deep: bool = ..., profile: str = ..., jobs: int = ...,  # type: ignore[misc]  # noqa: E501
            *, fail_on: str = ..., part_only: bool = ..., metadata_only: bool = ...,
            progress: Optional[ProgressFn] = ...) -> Report: ...
@overload
def certify(path_or_paths: Sequence[PathLike], deep: bool = ..., profile: str = ...,
            jobs: int = ..., *, fail_on: str = ..., part_only: bool = ...,
            metadata_only: bool = ..., progress: Optional[ProgressFn] = ...) -> ReportSet: ...


def certify(path_or_paths: Union[PathLike, Sequence[PathLike]], deep: bool = False,
            profile: str = "strict", jobs: int = 1, *, fail_on: str = "error",
            part_only: bool = False, metadata_only: bool = False,
            progress: Optional[ProgressFn] = None) -> Union[Report, ReportSet]:
    """Certifies a file (a split set from its part 1): a Report. Several paths, or a
    directory: a ReportSet. Raises OSError when a file cannot be read, GGUFError when there is
    nothing to certify."""
    if fail_on not in ("error", "warning"):
        raise ValueError("fail_on must be 'error' or 'warning'")
    if jobs < 0:
        raise ValueError("jobs must not be negative")
    opts = ffi.new("gs_certify_options *")
    certify_lib.gs_certify_options_init(opts)
    opts.profile = _profile(profile)
    opts.fail_on = _SEVERITIES.index(fail_on)
    opts.deep = bool(deep)
    opts.jobs = int(jobs)
    opts.part_only = bool(part_only)
    opts.metadata_only = bool(metadata_only)
    cb = _progress_callback(progress)
    opts.progress = cb
    if isinstance(path_or_paths, (str, bytes, os.PathLike)):
        raw = fspath_bytes(path_or_paths)
        if not os.path.isdir(raw):
            return _certify_one(raw, os.fsdecode(raw), opts)
        paths: List[PathLike] = [raw]
    else:
        paths = list(path_or_paths)
    # Until the library's multi-file run is bound: one library call per file.
    return ReportSet([_certify_one(p, os.fsdecode(p), opts) for p in _expand(paths)])
