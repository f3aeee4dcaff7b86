"""GGUFFile: an open GGUF file, its metadata, tensors, layout and decoding.

Every byte is read by libggufsafe: values, array elements and tensor infos come from its getters,
one call per value, when they are asked for (nothing is copied up front).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from typing import (Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union, cast,
                    overload)

import numpy as np
import numpy.typing as npt

from ._errors import GGUFError, check, error_from
from ._lib import ffi, lib

Value = Union[int, float, bool, str, bytes, "GGUFArray"]
PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
F32Array = npt.NDArray[np.float32]

_PROFILES = {"strict": 0, "lenient": 1}


def _profile(profile: str) -> int:
    try:
        return _PROFILES[profile]
    except (KeyError, TypeError):
        raise ValueError(f"profile must be 'strict' or 'lenient', not {profile!r}") from None


def fspath_bytes(path: PathLike) -> bytes:
    raw = os.fsencode(path)
    if b"\0" in raw:
        raise ValueError("embedded null byte in path")
    return raw


def text_or_bytes(raw: bytes) -> Union[str, bytes]:
    """str for valid UTF-8, the bytes otherwise (the rule for every string from a file)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


class _Handle:
    """Owns one gs_file *. Readers hold it (acquire/release) for the length of a C call; close
    waits until none does, so closing from another thread never frees memory under a reader."""

    __slots__ = ("ptr", "_cond", "_users", "_closed", "_keep", "__weakref__")

    def __init__(self, ptr: Any, keep: Any = None) -> None:
        self.ptr = ptr
        self._cond = threading.Condition(threading.Lock())
        self._users = 0
        self._closed = False
        self._keep = keep  # the buffer of a file opened from memory

    def acquire(self) -> Any:
        with self._cond:
            if self._closed:
                raise ValueError("operation on a closed GGUF file")
            self._users += 1
            return self.ptr

    def release(self) -> None:
        with self._cond:
            self._users -= 1
            if self._users == 0:
                self._cond.notify_all()

    def call(self, fn: Callable[[Any], Any]) -> Any:
        """fn(ptr), holding the file for the length of the call."""
        ptr = self.acquire()
        try:
            return fn(ptr)
        finally:
            self.release()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            while self._users:
                self._cond.wait()
            ptr, self.ptr = self.ptr, ffi.NULL
        lib.gs_close(ptr)
        self._keep = None

    def __del__(self) -> None:
        # The last reference is gone, so no reader can hold it: free an unclosed handle.
        if not getattr(self, "_closed", True):
            self._closed = True
            lib.gs_close(self.ptr)


# value type id -> (getter suffix, C type, Python conversion)
_SCALARS: Dict[int, Tuple[str, str]] = {
    0: ("u8", "uint8_t *"), 1: ("i8", "int8_t *"), 2: ("u16", "uint16_t *"),
    3: ("i16", "int16_t *"), 4: ("u32", "uint32_t *"), 5: ("i32", "int32_t *"),
    6: ("f32", "float *"), 7: ("bool", "bool *"), 10: ("u64", "uint64_t *"),
    11: ("i64", "int64_t *"), 12: ("f64", "double *"),
}
_STRING, _ARRAY = 8, 9
_NUMPY_DTYPES = {0: "<u1", 1: "<i1", 2: "<u2", 3: "<i2", 4: "<u4", 5: "<i4", 6: "<f4",
                 7: "u1", 10: "<u8", 11: "<i8", 12: "<f8"}
_SCALAR_GETTERS = {t: getattr(lib, "gs_kv_get_" + s) for t, (s, _) in _SCALARS.items()}
_ARRAY_GETTERS = {t: getattr(lib, "gs_kv_get_array_" + s) for t, (s, _) in _SCALARS.items()}


def _unpack_str(s: Any) -> Union[str, bytes]:
    return text_or_bytes(ffi.unpack(s.ptr, s.len) if s.len else b"")


def value_type_name(t: int) -> str:
    return cast(str, ffi.string(lib.gs_value_type_name(t)).decode("ascii"))


class KVInfo(NamedTuple):
    """A key-value record as stored: its value type ("u32", "string", "array", ...), for arrays
    the element type and length (1 for scalars), and where its bytes are."""
    key: Union[str, bytes]
    type: str
    elem_type: str
    length: int
    offset: int
    value_offset: int
    size: int


class GGUFArray(Sequence[Any]):
    """An array value, read element by element from the file: len, indexing, slicing (a view,
    nothing copied) and iteration call the library's getter per element. to_numpy() copies a
    numeric or bool array in one go."""

    __slots__ = ("_h", "_index", "_elem", "_range")

    def __init__(self, handle: _Handle, index: int, elem: int, rng: range) -> None:
        self._h = handle
        self._index = index
        self._elem = elem
        self._range = rng

    @property
    def elem_type(self) -> str:
        """The element type: "u8" ... "f64", "bool" or "string"."""
        return value_type_name(self._elem)

    def __len__(self) -> int:
        return len(self._range)

    def _get(self, ptr: Any, i: int) -> Any:
        if self._elem == _STRING:
            out = ffi.new("gs_str *")
            check(lib.gs_kv_get_array_string(ptr, self._index, i, out))
            return _unpack_str(out)
        getter = _ARRAY_GETTERS.get(self._elem)
        if getter is None:
            raise GGUFError("GS_E_WRONG_TYPE", f"array of element type {self._elem}")
        out = ffi.new(_SCALARS[self._elem][1])
        check(getter(ptr, self._index, i, out))
        return out[0]

    def _at(self, i: int) -> Any:
        return self._h.call(lambda ptr: self._get(ptr, i))

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> GGUFArray: ...

    def __getitem__(self, i: Union[int, slice]) -> Any:
        if isinstance(i, slice):
            return GGUFArray(self._h, self._index, self._elem, self._range[i])
        try:
            return self._at(self._range[i])
        except IndexError:
            raise IndexError("GGUF array index out of range") from None
        except TypeError:
            raise TypeError(f"GGUF array indices must be integers or slices, not "
                            f"{type(i).__name__}") from None

    def __iter__(self) -> Iterator[Any]:
        for i in self._range:
            yield self._at(i)

    def tolist(self) -> List[Any]:
        return list(self)

    def to_numpy(self) -> npt.NDArray[Any]:
        """A copy of a numeric or bool array as a numpy array of its own dtype (little-endian,
        bool as numpy bool). TypeError for string arrays."""
        dtype = _NUMPY_DTYPES.get(self._elem)
        if dtype is None:
            raise TypeError(f"an array of {self.elem_type} has no numpy form")
        ptr = self._h.acquire()
        try:
            data = ffi.new("const void **")
            count = ffi.new("uint64_t *")
            check(lib.gs_kv_get_array_data(ptr, self._index, data, count))
            size = np.dtype(dtype).itemsize
            whole = np.frombuffer(ffi.buffer(data[0], int(count[0]) * size), dtype=dtype)
            out = whole[self._range.start:self._range.stop:self._range.step].copy()
        finally:
            self._h.release()
        return out.astype(bool) if self._elem == 7 else out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (GGUFArray, list, tuple)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<GGUFArray {self.elem_type}[{len(self)}]>"


def _read_value(h: _Handle, ptr: Any, index: int, info: Any) -> Value:
    t = int(info.type)
    if t == _ARRAY:
        return GGUFArray(h, index, int(info.elem_type), range(int(info.count)))
    if t == _STRING:
        out = ffi.new("gs_str *")
        check(lib.gs_kv_get_string(ptr, index, out))
        return _unpack_str(out)
    getter = _SCALAR_GETTERS[t]
    cout = ffi.new(_SCALARS[t][1])
    check(getter(ptr, index, cout))
    return cast(Value, cout[0])


def _key_bytes(key: Union[str, bytes]) -> bytes:
    if isinstance(key, str):
        return key.encode("utf-8")
    if isinstance(key, bytes):
        return key
    raise KeyError(key)


class Metadata(Mapping[Union[str, bytes], Value]):
    """The key-value metadata, read-only, in file order. Keys are str (bytes when not valid
    UTF-8); either form looks a key up. Values: ints exact, floats, bools, str for valid UTF-8
    and bytes otherwise, arrays as GGUFArray (lazy)."""

    __slots__ = ("_h",)

    def __init__(self, handle: _Handle) -> None:
        self._h = handle

    def _info(self, ptr: Any, index: int) -> Any:
        info = ffi.new("gs_kv_info *")
        check(lib.gs_kv_info_at_sized(ptr, index, info, ffi.sizeof("gs_kv_info")))
        return info

    def _find(self, ptr: Any, key: Union[str, bytes]) -> int:
        raw = _key_bytes(key)
        index = ffi.new("size_t *")
        st = lib.gs_kv_find_n(ptr, raw, len(raw), index)
        if st != 0:
            raise KeyError(key)
        return int(index[0])

    def __getitem__(self, key: Union[str, bytes]) -> Value:
        ptr = self._h.acquire()
        try:
            index = self._find(ptr, key)
            return _read_value(self._h, ptr, index, self._info(ptr, index))
        finally:
            self._h.release()

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, (str, bytes)):
            return False
        ptr = self._h.acquire()
        try:
            self._find(ptr, key)
            return True
        except KeyError:
            return False
        finally:
            self._h.release()

    def __len__(self) -> int:
        return int(self._h.call(lib.gs_kv_count))

    def _key_at(self, i: int) -> Union[str, bytes]:
        return self._h.call(  # type: ignore[no-any-return]
            lambda ptr: _unpack_str(self._info(ptr, i).key))

    def __iter__(self) -> Iterator[Union[str, bytes]]:
        for i in range(len(self)):
            yield self._key_at(i)

    def info(self, key: Union[str, bytes]) -> KVInfo:
        """How the key-value is stored: types, count, byte offsets and size."""
        ptr = self._h.acquire()
        try:
            info = self._info(ptr, self._find(ptr, key))
            return KVInfo(_unpack_str(info.key), value_type_name(info.type),
                          value_type_name(info.elem_type), int(info.count), int(info.offset),
                          int(info.value_offset), int(info.size))
        finally:
            self._h.release()

    def __repr__(self) -> str:
        return f"<ggufsafe.Metadata {len(self)} keys>"


class TensorInfo(NamedTuple):
    """A tensor as the file describes it. shape is ggml's ne reversed (numpy order); offset is
    absolute (from the start of the file); ne is ggml's order; data_in_file is False only for
    data the file does not hold (diagnostic and metadata-only opens)."""
    name: Union[str, bytes]
    type_name: str
    type_id: int
    shape: Tuple[int, ...]
    n_elements: int
    n_bytes: int
    offset: int
    ne: Tuple[int, ...]
    relative_offset: int
    data_in_file: bool


def _tensor_info(ptr: Any, index: int) -> TensorInfo:
    t = ffi.new("gs_tensor_info *")
    check(lib.gs_tensor_info_at_sized(ptr, index, t, ffi.sizeof("gs_tensor_info")))
    ne = tuple(int(t.ne[d]) for d in range(int(t.n_dims)))
    return TensorInfo(_unpack_str(t.name), ffi.string(lib.gs_type_name(t.type)).decode("ascii"),
                      int(t.type), tuple(reversed(ne)), int(t.n_elements), int(t.size),
                      int(t.data_offset), ne, int(t.offset), bool(t.data_in_file))


class TensorList(Sequence[TensorInfo]):
    """The tensors in file order; each TensorInfo is read when it is asked for."""

    __slots__ = ("_h",)

    def __init__(self, handle: _Handle) -> None:
        self._h = handle

    def __len__(self) -> int:
        return int(self._h.call(lib.gs_tensor_count))

    @overload
    def __getitem__(self, i: int) -> TensorInfo: ...
    @overload
    def __getitem__(self, i: slice) -> List[TensorInfo]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[TensorInfo, List[TensorInfo]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        j = range(n)[i]
        return cast(TensorInfo, self._h.call(lambda ptr: _tensor_info(ptr, j)))

    def __repr__(self) -> str:
        return f"<ggufsafe.TensorList {len(self)} tensors>"


class Layout(NamedTuple):
    """Where the sections are (gs_layout). actual_size is the file's size, predicted_size what
    ggml's writer would have written for this metadata. tensors_outside counts the tensors
    whose data is not wholly in the file (metadata-only and diagnostic opens), described_size
    is the size the complete file has (2**64 - 1 when an offset overflows it)."""
    file_size: int
    kv_end: int
    tensor_info_end: int
    alignment: int
    data_offset: int
    data_end: int
    predicted_size: int
    trailing_bytes: int
    missing_tail_padding: int
    header_padding_nonzero: int
    first_nonzero_padding: int
    tensors_outside: int
    described_size: int

    @property
    def actual_size(self) -> int:
        return self.file_size


RowsArg = Union[None, slice, range, Tuple[int, int]]


class GGUFFile:
    """An open GGUF file (ggufsafe.open). Close it, or use it in a with block; a GGUFFile and
    everything taken from it may be read from several threads at once."""

    def __init__(self, handle: _Handle, path: Optional[str]) -> None:
        self._h = handle
        self.path = path
        self.metadata = Metadata(handle)
        self.tensors = TensorList(handle)

    # -- lifetime ---------------------------------------------------------------------------
    def close(self) -> None:
        """Frees the file (waiting for calls in flight on other threads). Values, arrays and
        tensors taken from it raise ValueError afterwards."""
        self._h.close()

    @property
    def closed(self) -> bool:
        return self._h.closed

    def __enter__(self) -> GGUFFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _call(self, fn: Callable[[Any], Any]) -> Any:
        return self._h.call(fn)

    # -- header and layout ------------------------------------------------------------------
    @property
    def version(self) -> int:
        return int(self._call(lib.gs_file_version))

    @property
    def profile(self) -> str:
        return "lenient" if self._call(lib.gs_file_profile) == 1 else "strict"

    @property
    def layout(self) -> Layout:
        def get(ptr: Any) -> Layout:
            out = ffi.new("gs_layout *")
            check(lib.gs_file_layout_sized(ptr, out, ffi.sizeof("gs_layout")))
            return Layout(*(int(getattr(out, f)) for f in Layout._fields))
        return self._call(get)  # type: ignore[no-any-return]

    # -- tensors ----------------------------------------------------------------------------
    def _tensor_index(self, ptr: Any, name: Union[str, bytes]) -> int:
        raw = _key_bytes(name)
        index = ffi.new("size_t *")
        if lib.gs_tensor_find_n(ptr, raw, len(raw), index) != 0:
            raise KeyError(name)
        return int(index[0])

    def tensor(self, name: Union[str, bytes]) -> TensorInfo:
        """The tensor called name (KeyError when there is none)."""
        return self._call(  # type: ignore[no-any-return]
            lambda ptr: _tensor_info(ptr, self._tensor_index(ptr, name)))

    def dequantize(self, name: Union[str, bytes], rows: RowsArg = None) -> F32Array:
        """The tensor decoded to float32, bit-exact with ggml: shaped as ggml's ne reversed, or,
        with rows (a slice, range or (start, stop) of the ne[0]-element rows), only those rows
        as an (n_rows, ne[0]) array, decoding nothing else."""
        ptr = self._h.acquire()
        try:
            index = self._tensor_index(ptr, name)
            info = _tensor_info(ptr, index)
            if rows is None:
                out = np.empty(info.n_elements, dtype=np.float32)
                st = lib.gs_tensor_dequantize(ptr, index, ffi.from_buffer("float[]", out),
                                              out.size)
                shape: Tuple[int, ...] = info.shape
            else:
                row_len = info.ne[0] if info.ne else 1
                n_rows_total = info.n_elements // row_len if row_len else 0
                first, stop = _row_range(rows, n_rows_total)
                n_rows = max(0, stop - first)
                out = np.empty(n_rows * row_len, dtype=np.float32)
                st = 0
                if n_rows:
                    st = lib.gs_tensor_dequantize_rows(ptr, index, first, n_rows,
                                                       ffi.from_buffer("float[]", out), out.size)
                shape = (n_rows, row_len)
            if st != 0:
                e = error_from(st, what=f"decoding tensor {info.name!r} ({info.type_name})")
                raise e
        finally:
            self._h.release()
        return out.reshape(shape)

    def tensor_bytes(self, name: Union[str, bytes]) -> bytes:
        """The tensor's data as stored, read through the library's bounded reader."""
        ptr = self._h.acquire()
        try:
            info = _tensor_info(ptr, self._tensor_index(ptr, name))
            buf = bytearray(info.n_bytes)
            if info.n_bytes:
                check(lib.gs_file_read(ptr, info.offset, ffi.from_buffer(buf), info.n_bytes))
        finally:
            self._h.release()
        return bytes(buf)

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{len(self.tensors)} tensors"
        return f"<ggufsafe.GGUFFile {self.path!r} {state}>"


def _row_range(rows: RowsArg, n_rows: int) -> Tuple[int, int]:
    if isinstance(rows, slice):
        start, stop, step = rows.indices(n_rows)
        if step != 1:
            raise ValueError("rows must be contiguous (step 1)")
        return start, max(start, stop)
    if isinstance(rows, range):
        if rows.step != 1:
            raise ValueError("rows must be contiguous (step 1)")
        start, stop = rows.start, rows.stop
    elif isinstance(rows, tuple) and len(rows) == 2:
        start, stop = int(rows[0]), int(rows[1])
    else:
        raise TypeError("rows must be None, a slice, a range or a (start, stop) pair")
    if not 0 <= start <= stop <= n_rows:
        raise IndexError(f"rows {start}..{stop} outside the tensor's {n_rows} rows")
    return start, stop


def _options(profile: str, metadata_only: bool, copy_metadata: bool) -> Any:
    opts = ffi.new("gs_options *")
    check(lib.gs_options_init_sized(opts, ffi.sizeof("gs_options")))
    opts.profile = _profile(profile)
    opts.copy_metadata = bool(copy_metadata)
    opts.metadata_only = bool(metadata_only)
    return opts


def open(path: PathLike, profile: str = "strict", metadata_only: bool = False,
         copy_metadata: bool = False) -> GGUFFile:
    """Opens and checks the GGUF file at path (GGUFError when it is malformed, OSError when it
    cannot be read). metadata_only: the tensor data need not be in the file."""
    raw = fspath_bytes(path)
    opts = _options(profile, metadata_only, copy_metadata)
    out = ffi.new("gs_file **")
    err = ffi.new("gs_error *")
    shown = os.fsdecode(raw)
    st = lib.gs_open_file(raw, opts, out, err)
    if st != 0:
        raise error_from(st, err, path=shown)
    return GGUFFile(_Handle(out[0]), shown)


def open_bytes(data: Union[bytes, bytearray, memoryview], profile: str = "strict",
               metadata_only: bool = False) -> GGUFFile:
    """Opens a GGUF held in memory (kept alive by the GGUFFile)."""
    keep = bytes(data)
    opts = _options(profile, metadata_only, False)
    out = ffi.new("gs_file **")
    err = ffi.new("gs_error *")
    buf = ffi.from_buffer(keep)
    st = lib.gs_open_memory(buf, len(keep), opts, out, err)
    if st != 0:
        raise error_from(st, err)
    return GGUFFile(_Handle(out[0], keep=(keep, buf)), None)


def type_id(type: Union[int, str]) -> int:
    """A ggml type id from its id or its ggml name ("q4_K")."""
    if isinstance(type, bool):
        raise TypeError("type must be an int id or a ggml type name")
    if isinstance(type, int):
        return type
    if isinstance(type, str):
        for t in range(int(lib.GS_TYPE_COUNT)):
            if ffi.string(lib.gs_type_name(t)).decode("ascii") == type:
                return t
        raise ValueError(f"unknown ggml type name {type!r}")
    raise TypeError("type must be an int id or a ggml type name")


def dequantize(raw: Union[bytes, bytearray, memoryview], type: Union[int, str],
               n: int) -> F32Array:
    """Decodes n elements of the given ggml type from raw (exactly their encoded size) to a
    float32 array of n elements."""
    tid = type_id(type)
    if n < 0:
        raise ValueError("n must not be negative")
    src = ffi.from_buffer(raw)
    out = np.empty(n, dtype=np.float32)
    st = lib.gs_dequantize(tid, src, len(src), ffi.from_buffer("float[]", out), n)
    if st != 0:
        raise error_from(st, what=f"decoding {n} elements of type {type!r}")
    return out
