"""Finds and loads libggufsafe and libggufsafe_certify (cffi, ABI mode).

Lookup order, the first directory holding both libraries wins:
  1. the copies bundled in the package (ggufsafe/_libs/, put there by setup.py when it built the
     C library from the checkout);
  2. GGUFSAFE_LIBRARY_DIR (one directory, or several separated by os.pathsep);
  3. the system: pkg-config's libdir for ggufsafe, then the dynamic linker's own search
     (LD_LIBRARY_PATH, ldconfig's cache) by soname.
The declarations are the headers' own (_cdefs), parsed when the package was built
(_ffi_built). cffi releases the GIL around every call into these libraries.
"""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
from typing import Any, List, Optional, Tuple

from . import _cdefs

SONAME_READER = "libggufsafe.so.0"
SONAME_CERTIFY = "libggufsafe_certify.so.0"


def _ffi() -> Any:
    """The declarations setup.py parsed from the shipped headers when it built the package
    (ggufsafe/_ffi_built.py: importing it parses nothing, where parsing the headers took about
    half of the import), else the headers parsed now (a package imported from the checkout)."""
    try:
        return importlib.import_module(f"{__package__}._ffi_built").ffi
    except ImportError:
        return _cdefs.parse_ffi()


ffi = _ffi()


def _bundled_dir() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_libs")


def _pkg_config_libdir() -> Optional[str]:
    exe = shutil.which("pkg-config")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "--variable=libdir", "ggufsafe"], capture_output=True,
                             text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    libdir = out.stdout.strip()
    return libdir if out.returncode == 0 and libdir else None


def candidate_dirs(ask_pkg_config: bool = True) -> List[Tuple[str, str]]:
    """(where, directory) pairs in lookup order (pkg-config's only when asked)."""
    dirs = [("bundled", _bundled_dir())]
    for d in os.environ.get("GGUFSAFE_LIBRARY_DIR", "").split(os.pathsep):
        if d:
            dirs.append(("GGUFSAFE_LIBRARY_DIR", d))
    libdir = _pkg_config_libdir() if ask_pkg_config else None
    if libdir is not None:
        dirs.append(("pkg-config", libdir))
    return dirs


def _find(soname: str, dirs: List[Tuple[str, str]]) -> Optional[str]:
    for _, d in dirs:
        path = os.path.join(d, soname)
        if os.path.isfile(path):
            return path
    return None


def _find_both(dirs: List[Tuple[str, str]]) -> Tuple[Optional[str], Optional[str]]:
    reader_path = _find(SONAME_READER, dirs)
    if reader_path is None:
        return None, None
    # The certify library from the reader's directory, or the first directory holding it (a
    # build tree keeps it in cli/).
    here = os.path.dirname(reader_path)
    return reader_path, _find(SONAME_CERTIFY, [("reader", here)] + dirs)


def _load() -> Tuple[Any, Any, str, str]:
    # pkg-config is asked only when the directories before it lack a library: running it at
    # every import cost a process (about 13 ms) for a bundled or GGUFSAFE_LIBRARY_DIR library.
    dirs = candidate_dirs(ask_pkg_config=False)
    reader_path, certify_path = _find_both(dirs)
    if reader_path is None or certify_path is None:
        dirs = candidate_dirs()
        reader_path, certify_path = _find_both(dirs)
    reader_name = reader_path or SONAME_READER
    certify_name = certify_path or SONAME_CERTIFY
    try:
        # The reader first: the certify library's DT_NEEDED libggufsafe.so.0 then resolves to
        # this very copy (the dynamic linker matches loaded objects by soname).
        reader = ffi.dlopen(reader_name)
        certify = ffi.dlopen(certify_name)
    except OSError as e:
        looked = ", ".join(f"{w} {d}" for w, d in dirs)
        raise ImportError(
            f"ggufsafe: cannot load {reader_name} and {certify_name} ({e}); looked in: "
            f"{looked}, then the dynamic linker's path. Install libggufsafe (cmake --install), "
            "set GGUFSAFE_LIBRARY_DIR to the directory holding libggufsafe.so.0, or reinstall "
            "the package from the checkout so that it bundles the library") from e
    return reader, certify, reader_name, certify_name


lib, certify_lib, reader_path, certify_path = _load()
libc = ffi.dlopen(None)
