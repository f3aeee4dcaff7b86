"""GGUFError and the mapping from a gs_status (with its gs_error) to a Python exception."""
from __future__ import annotations

import errno as _errno
import os
from typing import Any, Dict, Optional, cast

from ._lib import ffi, lib

# strerror text -> errno, to turn the reader's "open: No such file or directory" back into the
# OSError subclass Python itself would raise (FileNotFoundError, PermissionError, ...).
_ERRNO_BY_TEXT: Dict[str, int] = {os.strerror(e): e for e in sorted(_errno.errorcode)}

# Statuses that are the environment's, not the file's: the errno Python would give.
_ENVIRONMENT = {"GS_E_IO": None, "GS_E_NO_SUCH_FILE": _errno.ENOENT,
                "GS_E_NOT_REGULAR_FILE": None, "GS_E_FILE_CHANGED": _errno.ESTALE,
                "GS_E_DECODER_FAILED": None}
_CONTEXT_KINDS = {0: None, 1: "header", 2: "key", 3: "tensor", 4: "part"}


class GGUFError(ValueError):
    """The file (or a value asked of it) is not what it must be.

    status: the status name ("GS_E_TRUNCATED"); code: its number; offset: the byte offset of the
    field that failed (None when there is none); context: the key, tensor or part concerned,
    escaped (None when there is none); context_kind: "key", "tensor", "part", "header" or None;
    detail: the library's specifics (limits, expected and found values).
    """

    status: str
    code: int
    offset: Optional[int]
    context: Optional[str]
    context_kind: Optional[str]
    detail: str
    path: Optional[str]

    def __init__(self, status: str, message: str, *, code: int = -1,
                 offset: Optional[int] = None, context: Optional[str] = None,
                 context_kind: Optional[str] = None, detail: str = "",
                 path: Optional[str] = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.offset = offset
        self.context = context
        self.context_kind = context_kind
        self.detail = detail
        self.path = path


def status_name(status: int) -> str:
    return cast(str, ffi.string(lib.gs_status_name(status)).decode("ascii", "replace"))


def _text(buf: Any) -> str:
    # The library escapes what it quotes from the file: plain text, but be defensive anyway.
    return cast(str, ffi.string(buf).decode("utf-8", "backslashreplace"))


def error_from(status: int, err: Any = None, *, path: Optional[str] = None,
               what: Optional[str] = None) -> Exception:
    """The exception for a failed call: err is the call's gs_error * (or None)."""
    name = status_name(status)
    sentence = ffi.string(lib.gs_status_message(status)).decode("utf-8", "replace")
    detail = context = kind = None
    offset = None
    if err is not None and err.status == status:
        detail = _text(err.detail)
        kind = _CONTEXT_KINDS.get(int(err.context_kind))
        context = _text(err.context) if kind is not None else None
        offset = int(err.offset)
    if name in _ENVIRONMENT:
        code = _ENVIRONMENT[name]
        if name == "GS_E_NOT_REGULAR_FILE":
            code = _errno.EISDIR if detail and "a directory" in detail else None
        elif code is None and detail:
            code = _ERRNO_BY_TEXT.get(detail.rsplit(": ", 1)[-1])
        target = path if path is not None else (context if kind == "part" else None)
        if code is not None:
            exc = OSError(code, f"{os.strerror(code)} ({detail})" if detail else
                          os.strerror(code), target)
        else:
            exc = OSError(f"{target}: {sentence}" + (f" ({detail})" if detail else "")
                          if target else sentence + (f" ({detail})" if detail else ""))
        exc.status = name  # type: ignore[attr-defined]  # the library's status, as on GGUFError
        return exc
    if name == "GS_E_NO_MEMORY":
        return MemoryError(f"{sentence}" + (f": {detail}" if detail else ""))
    parts = [name]
    if what:
        parts.append(what)
    if offset is not None:
        parts.append(f"at byte {offset}")
    if context:
        parts.append(f"{kind} {context}")
    message = ": ".join([" ".join(parts), sentence]) + (f" ({detail})" if detail else "")
    if path is not None:
        message = f"{path}: {message}"
    return GGUFError(name, message, code=int(status), offset=offset, context=context,
                     context_kind=kind, detail=detail or "", path=path)


def check(status: int, err: Any = None, **kw: Any) -> None:
    if status != 0:
        raise error_from(status, err, **kw)
