"""The C declarations the package binds: the library's own headers, parsed when it is built.

The headers (ggufsafe.h, ggufsafe_sink.h, ggufsafe_certify.h, ggufsafe_manifest.h,
ggufsafe_diff.h) are the only copy of the declarations. setup.py ships the ones the package was
built with in ggufsafe/_include/, and their declarations parsed by parse_ffi() in
ggufsafe/_ffi_built.py; a package imported from the checkout reads include/ at import.
header_cdef() turns a header into cffi's dialect by dropping what cffi cannot read: comments,
the C++ guards (#ifdef __cplusplus blocks), every other preprocessor line except the integer
constants (#define GS_NAME 123, kept in decimal) and the export marker GS_API; function-like
macros go with the rest, so the package calls the sized entry points they stand for.
tests/test_cdefs.py checks the result against the C compiler (every prototype, enumerator,
constant, struct size and field offset), the shipped parse against the headers parsed again,
and header_cdef() itself on small inputs.
"""
from __future__ import annotations

import os
import re
from typing import Any, List, Optional, Tuple

# In the order cffi needs them (each after the headers it uses).
HEADERS = ("ggufsafe.h", "ggufsafe_sink.h", "ggufsafe_certify.h", "ggufsafe_manifest.h",
           "ggufsafe_diff.h")

_DIRECTIVE = re.compile(r"#\s*(\w*)\s*(.*)")
_INT_DEFINE = re.compile(r"define\s+(GS_\w+)\s+(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\s*$")


def _int_literal(text: str) -> int:
    if text[:2] in ("0x", "0X"):
        return int(text, 16)
    return int(text, 8) if len(text) > 1 and text[0] == "0" else int(text)


def header_cdef(text: str) -> str:
    """A header's declarations as cffi's cdef reads them (see the module's docstring). Raises
    ValueError on unbalanced conditionals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = text.replace("\\\n", " ")
    out: List[str] = []
    skipping: List[bool] = []  # one per open #if: is this branch C++ only?
    for line in text.splitlines():
        directive = _DIRECTIVE.match(line.strip())
        if directive is None:
            if not any(skipping):
                out.append(line)
            continue
        kind, rest = directive.group(1), directive.group(2).strip()
        if kind in ("if", "ifdef", "ifndef"):
            skipping.append(kind == "ifdef" and rest == "__cplusplus")
        elif kind in ("else", "elif", "endif"):
            if not skipping:
                raise ValueError(f"#{kind} without #if")
            if kind == "endif":
                skipping.pop()
            else:
                skipping[-1] = False
        elif not any(skipping):
            constant = _INT_DEFINE.match(f"{kind} {rest}")
            if constant is not None:
                out.append(f"#define {constant.group(1)} {_int_literal(constant.group(2))}")
    if skipping:
        raise ValueError("#if without #endif")
    return re.sub(r"\bGS_API\b", "", "\n".join(out)) + "\n"


def _checkout_include() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(os.path.dirname(here)), "include")


def include_dirs() -> List[Tuple[str, str]]:
    """(where, directory) pairs in lookup order: the copies bundled at build time, then the
    checkout's include/."""
    here = os.path.dirname(os.path.abspath(__file__))
    return [("bundled", os.path.join(here, "_include")), ("checkout", _checkout_include())]


def include_dir() -> str:
    """The first directory holding every header (ImportError when there is none)."""
    dirs = include_dirs()
    for _, d in dirs:
        if all(os.path.isfile(os.path.join(d, h)) for h in HEADERS):
            return d
    looked = ", ".join(f"{w} {d}" for w, d in dirs)
    raise ImportError(f"ggufsafe: the library's headers ({', '.join(HEADERS)}) are not in "
                      f"{looked}: reinstall the package (setup.py copies them into it)")


def declarations(directory: Optional[str] = None) -> List[str]:
    """The cdef text of each header, in HEADERS order."""
    d = include_dir() if directory is None else directory
    out = []
    for h in HEADERS:
        with open(os.path.join(d, h), encoding="utf-8") as f:
            out.append(header_cdef(f.read()))
    return out


def parse_ffi(directory: Optional[str] = None) -> Any:
    """A cffi FFI holding LIBC and every header's declarations, parsed now: what setup.py does
    once when it builds the package (it saves the result as ggufsafe/_ffi_built.py, in cffi's
    out-of-line ABI mode, which loads without parsing anything), and what a package imported
    from the checkout does at import."""
    import cffi  # type: ignore[import]

    ffi = cffi.FFI()
    ffi.cdef(LIBC)
    for text in declarations(directory):
        ffi.cdef(text)
    return ffi


# libc (POSIX 2008): reports are rendered into an open_memstream buffer, so a writer runs
# entirely in C without the GIL and without a Python callback per piece. FILE comes first: the
# tool headers use it.
LIBC = r"""
typedef struct _IO_FILE FILE;
FILE *open_memstream(char **ptr, size_t *sizeloc);
FILE *fdopen(int fd, const char *mode);
FILE *fopen(const char *path, const char *mode);
int fflush(FILE *stream);
int fclose(FILE *stream);
void free(void *ptr);
"""
