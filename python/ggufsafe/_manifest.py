"""ggufsafe.hash and ggufsafe.verify: SHA-256 manifests (ggufsafe_manifest.h)."""
from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from typing import Any, List, Optional, Union

from ._errors import check, error_from
from ._file import PathLike, _profile, fspath_bytes
from ._lib import certify_lib, ffi, libc
from ._render import render

_CHANGES = ("changed", "added", "missing", "damaged")
_ITEMS = ("kv", "tensor", "file", "parts")
_STATES = ("hashed", "no-data", "aliased")
_NO_PART = (1 << (8 * ffi.sizeof("size_t"))) - 1


def _str(p: Any) -> Optional[str]:
    return None if p == ffi.NULL else ffi.string(p).decode("utf-8", "backslashreplace")


def _hex(digest: Any) -> str:
    return bytes(ffi.buffer(digest, 32)).hex()


@dataclass(frozen=True)
class ManifestPart:
    size: int
    sha256: str
    kv_count: int
    tensor_count: int
    error: Optional[str]


@dataclass(frozen=True)
class ManifestEntry:
    """A key-value ("kv") or tensor digest. name is escaped as the manifest writes it; type and
    shape are the tensor's ("" for key-values)."""
    kind: str
    name: str
    type: str
    shape: str
    sha256: str
    state: str
    offset: int
    size: int


class Manifest:
    """Digests of a file or split set: per part the whole file, each key-value and each tensor."""

    def __init__(self, ptr: Any) -> None:
        self._ptr = ffi.gc(ptr, certify_lib.gs_manifest_free)

    @classmethod
    def parse(cls, text: Union[str, bytes]) -> "Manifest":
        """A manifest from its text (GGUFError GS_E_INVALID_ARGUMENT with the line when it is
        malformed)."""
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        out = ffi.new("gs_manifest **")
        err = ffi.new("gs_error *")
        check(certify_lib.gs_manifest_parse(data, len(data), out, err), err,
              what="malformed manifest")
        return cls(out[0])

    @classmethod
    def load(cls, path: PathLike) -> "Manifest":
        """A manifest read from a file (lines bounded by the library's reader)."""
        raw = fspath_bytes(path)
        if os.path.isdir(raw):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fsdecode(raw))
        stream = libc.fopen(raw, b"rb")
        if stream == ffi.NULL:
            code = ffi.errno
            raise OSError(code, os.strerror(code), os.fsdecode(raw))
        out = ffi.new("gs_manifest **")
        err = ffi.new("gs_error *")
        try:
            st = certify_lib.gs_manifest_read(stream, out, err)
        finally:
            libc.fclose(stream)
        if st != 0:
            raise error_from(st, err, path=os.fsdecode(raw), what="malformed manifest")
        return cls(out[0])

    @property
    def parts(self) -> List[ManifestPart]:
        out = []
        p = ffi.new("gs_manifest_part *")
        for i in range(int(certify_lib.gs_manifest_part_count(self._ptr))):
            p.struct_size = ffi.sizeof("gs_manifest_part")
            check(certify_lib.gs_manifest_part_at(self._ptr, i, p))
            out.append(ManifestPart(int(p.size), _hex(p.digest), int(p.kv_count),
                                    int(p.tensor_count), _str(p.error)))
        return out

    def entries(self, part: int = 0) -> List[ManifestEntry]:
        """The key-values in file order, then the tensors, of one part."""
        p = ffi.new("gs_manifest_part *")
        p.struct_size = ffi.sizeof("gs_manifest_part")
        check(certify_lib.gs_manifest_part_at(self._ptr, part, p))
        e = ffi.new("gs_manifest_entry *")
        out = []
        for i in range(int(p.entry_count)):
            e.struct_size = ffi.sizeof("gs_manifest_entry")
            check(certify_lib.gs_manifest_entry_at(self._ptr, part, i, e))
            out.append(ManifestEntry("tensor" if e.kind == 1 else "kv", _str(e.name) or "",
                                     _str(e.type) or "", _str(e.shape) or "", _hex(e.digest),
                                     _STATES[e.state], int(e.offset), int(e.size)))
        return out

    def to_text(self) -> str:
        """The manifest's text, as `ggufsafe hash` writes it."""
        return render(certify_lib.gs_manifest_write, self._ptr).decode("utf-8")

    def __repr__(self) -> str:
        return f"<ggufsafe.Manifest {len(self.parts)} parts>"


@dataclass(frozen=True)
class Difference:
    change: str        # "changed", "added", "missing", "damaged"
    item: str          # "kv", "tensor", "file", "parts"
    part: Optional[int]
    subject: str
    detail: Optional[str]


class Verification:
    """A file compared with a manifest: ok when nothing differs."""

    def __init__(self, ptr: Any) -> None:
        self._ptr = ffi.gc(ptr, certify_lib.gs_manifest_diff_free)
        self.differences: List[Difference] = []
        d = ffi.new("gs_manifest_difference *")
        for i in range(int(certify_lib.gs_manifest_diff_count(self._ptr))):
            d.struct_size = ffi.sizeof("gs_manifest_difference")
            check(certify_lib.gs_manifest_diff_at(self._ptr, i, d))
            self.differences.append(Difference(
                _CHANGES[d.change], _ITEMS[d.item], None if d.part == _NO_PART else int(d.part),
                _str(d.subject) or "", _str(d.detail)))

    @property
    def ok(self) -> bool:
        return not self.differences

    def __bool__(self) -> bool:
        return self.ok

    def to_text(self) -> str:
        """One line per difference, as `ggufsafe verify` prints them."""
        return render(certify_lib.gs_manifest_diff_write, self._ptr).decode("utf-8")

    def __repr__(self) -> str:
        return f"<ggufsafe.Verification ok={self.ok} differences={len(self.differences)}>"


def _hash(path: PathLike, mode: int, profile: str, part_only: bool, jobs: int,
          metadata_only: bool) -> Manifest:
    raw = fspath_bytes(path)
    opts = ffi.new("gs_manifest_options *")
    certify_lib.gs_manifest_options_init(opts)
    opts.mode = mode
    opts.profile = _profile(profile)
    opts.part_only = bool(part_only)
    opts.jobs = int(jobs)
    opts.metadata_only = bool(metadata_only)
    out = ffi.new("gs_manifest **")
    err = ffi.new("gs_error *")
    st = certify_lib.gs_manifest_hash_path(raw, opts, out, err)
    if st != 0:
        raise error_from(st, err, path=os.fsdecode(raw))
    return Manifest(out[0])


def hash(path: PathLike, profile: str = "strict", *, part_only: bool = False,
         jobs: int = 1, metadata_only: bool = False) -> Manifest:
    """The manifest of a file or split set (`ggufsafe hash`): the file must open under the
    profile. metadata_only: the tensor data need not be in the file (the manifest lists the
    tensors whose data is)."""
    return _hash(path, 0, profile, part_only, jobs, metadata_only)


def verify(path: PathLike, manifest: Union[Manifest, PathLike], *, part_only: bool = False,
           jobs: int = 1, metadata_only: bool = False) -> Verification:
    """Compares a file with a manifest (a Manifest or the path of one), as `ggufsafe verify`:
    the file is read leniently so that a damaged copy still says what is damaged.
    metadata_only: the tensor data need not be in the file."""
    want = manifest if isinstance(manifest, Manifest) else Manifest.load(manifest)
    got = _hash(path, 1, "lenient", part_only, jobs, metadata_only)
    out = ffi.new("gs_manifest_diff **")
    err = ffi.new("gs_error *")
    check(certify_lib.gs_manifest_compare(want._ptr, got._ptr, out, err), err)
    return Verification(out[0])
