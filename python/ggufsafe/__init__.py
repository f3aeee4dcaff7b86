"""ggufsafe: a fuzz-hardened GGUF reader, from Python.

A binding (cffi, ABI mode) over the installed libggufsafe and libggufsafe_certify: every byte
of a file is read by the C library. The GIL is released during every library call (parsing,
decoding, hashing, certification, comparison), and an open GGUFFile may be read from several
threads at once.
"""
from ._certify import Finding, Part, Report, ReportSet, certify
from ._diff import DiffReport, KVDiff, TensorDiff, diff
from ._errors import GGUFError
from ._file import (GGUFArray, GGUFFile, KVInfo, Layout, Metadata, TensorInfo, TensorList,
                    dequantize, open, open_bytes, type_id)
from ._lib import ffi as _ffi
from ._lib import lib as _lib
from ._lib import certify_path as _certify_path
from ._lib import reader_path as _reader_path
from ._manifest import Difference, Manifest, ManifestEntry, ManifestPart, Verification, hash, verify
from ._version import __version__

library_version: str = _ffi.string(_lib.gs_version()).decode("ascii")
"""The loaded libggufsafe's version."""
library_paths = (_reader_path, _certify_path)
"""The libraries loaded: paths, or sonames found by the dynamic linker."""

__all__ = [
    "DiffReport", "Difference", "Finding", "GGUFArray", "GGUFError", "GGUFFile", "KVDiff",
    "KVInfo", "Layout", "Manifest", "ManifestEntry", "ManifestPart", "Metadata", "Part",
    "Report", "ReportSet", "TensorDiff", "TensorInfo", "TensorList", "Verification",
    "__version__", "certify", "dequantize", "diff", "hash", "library_paths", "library_version",
    "open", "open_bytes", "type_id", "verify",
]
