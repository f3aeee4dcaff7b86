"""The library's report writers into memory: a gs_sink over an open_memstream buffer, so that a
whole rendering runs in C with the GIL released and no Python callback per piece."""
from __future__ import annotations

from typing import Any, Callable, cast

from ._errors import check
from ._lib import certify_lib, ffi, libc


def render(write: Callable[[Any, Any, Any], int], obj: Any) -> bytes:
    """The bytes write(obj, sink, err) produces."""
    buf = ffi.new("char **")
    size = ffi.new("size_t *")
    stream = libc.open_memstream(buf, size)
    if stream == ffi.NULL:
        raise MemoryError("open_memstream failed")
    sink = ffi.new("gs_sink *")
    certify_lib.gs_sink_file(sink, stream)
    err = ffi.new("gs_error *")
    status = write(obj, sink, err)
    closed = libc.fclose(stream)  # publishes buf and size
    try:
        data = cast(bytes, ffi.buffer(buf[0], size[0])[:]) if buf[0] != ffi.NULL else b""
    finally:
        libc.free(buf[0])
    check(status, err)
    if closed != 0:
        raise MemoryError("open_memstream: fclose failed")
    return data


def write_to_fd(write: Callable[[Any, Any, Any], int], obj: Any, fd: int) -> None:
    """write(obj, sink, err) straight to the file descriptor fd (a dup of it is closed after)."""
    import os
    dup = os.dup(fd)
    stream = libc.fdopen(dup, b"wb")
    if stream == ffi.NULL:
        os.close(dup)
        raise OSError("fdopen failed")
    sink = ffi.new("gs_sink *")
    certify_lib.gs_sink_file(sink, stream)
    err = ffi.new("gs_error *")
    status = write(obj, sink, err)
    flushed = libc.fclose(stream)
    check(status, err)
    if flushed != 0:
        raise OSError(ffi.errno, os.strerror(ffi.errno))
