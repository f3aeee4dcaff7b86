# The public API of ggufsafe, for type checkers (ci/python.sh: mypy, and mypy.stubtest against
# the package as imported).
import os
from dataclasses import dataclass
from collections.abc import Mapping, Sequence
from typing import IO, Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
library_version: str
library_paths: Tuple[str, str]

_Path = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]
_Text = Union[str, bytes]
_Value = Union[int, float, bool, str, bytes, GGUFArray]
_F32 = npt.NDArray[np.float32]
_Rows = Union[None, slice, range, Tuple[int, int]]

class GGUFError(ValueError):
    status: str
    code: int
    offset: Optional[int]
    context: Optional[str]
    context_kind: Optional[str]
    detail: str
    path: Optional[str]
    def __init__(self, status: str, message: str, *, code: int = ..., offset: Optional[int] = ...,
                 context: Optional[str] = ..., context_kind: Optional[str] = ...,
                 detail: str = ..., path: Optional[str] = ...) -> None: ...

class KVInfo(NamedTuple):
    key: _Text
    type: str
    elem_type: str
    length: int
    offset: int
    value_offset: int
    size: int

class GGUFArray(Sequence[Any]):
    def __init__(self, handle: Any, index: int, elem: int, rng: range) -> None: ...
    @property
    def elem_type(self) -> str: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> GGUFArray: ...
    def __iter__(self) -> Iterator[Any]: ...
    def tolist(self) -> List[Any]: ...
    def to_numpy(self) -> npt.NDArray[Any]: ...
    def __eq__(self, other: object) -> bool: ...

class Metadata(Mapping[_Text, _Value]):
    def __init__(self, handle: Any) -> None: ...
    def __getitem__(self, key: _Text) -> _Value: ...
    def __contains__(self, key: object) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[_Text]: ...
    def info(self, key: _Text) -> KVInfo: ...

class TensorInfo(NamedTuple):
    name: _Text
    type_name: str
    type_id: int
    shape: Tuple[int, ...]
    n_elements: int
    n_bytes: int
    offset: int
    ne: Tuple[int, ...]
    relative_offset: int
    data_in_file: bool

class TensorList(Sequence[TensorInfo]):
    def __init__(self, handle: Any) -> None: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: int) -> TensorInfo: ...
    @overload
    def __getitem__(self, i: slice) -> List[TensorInfo]: ...

class Layout(NamedTuple):
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
    def actual_size(self) -> int: ...

class GGUFFile:
    path: Optional[str]
    def __init__(self, handle: Any, path: Optional[str]) -> None: ...
    metadata: Metadata
    tensors: TensorList
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> GGUFFile: ...
    def __exit__(self, *exc: Any) -> None: ...
    @property
    def version(self) -> int: ...
    @property
    def profile(self) -> str: ...
    @property
    def layout(self) -> Layout: ...
    def tensor(self, name: _Text) -> TensorInfo: ...
    def dequantize(self, name: _Text, rows: _Rows = ...) -> _F32: ...
    def tensor_bytes(self, name: _Text) -> bytes: ...

def open(path: _Path, profile: str = ..., metadata_only: bool = ...,
         copy_metadata: bool = ...) -> GGUFFile: ...
def open_bytes(data: Union[bytes, bytearray, memoryview], profile: str = ...,
               metadata_only: bool = ...) -> GGUFFile: ...
def type_id(type: Union[int, str]) -> int: ...
def dequantize(raw: Union[bytes, bytearray, memoryview], type: Union[int, str], n: int) -> _F32: ...

@dataclass(frozen=True)
class Finding:
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
    state: str
    version: int
    file_size: int
    kv_count: int
    tensor_count: int

class Report:
    path: str
    profile: str
    fail_on: str
    deep: bool
    is_set: bool
    certified: bool
    counts: Dict[str, int]
    kind: str
    architecture: Union[str, bytes, None]
    verdict: str
    root_cause: Optional[int]
    read_failed: bool
    findings: List[Finding]
    parts: List[Part]
    def __init__(self, ptr: Any) -> None: ...
    def verdict_for(self, profile: str = ..., fail_on: str = ...) -> bool: ...
    @property
    def stats(self) -> List[Dict[str, Any]]: ...
    def to_json(self) -> str: ...
    def to_sarif(self) -> str: ...
    def to_text(self) -> str: ...
    def write_json(self, file: Union[int, IO[Any]]) -> None: ...

class ReportSet(Sequence[Report]):
    reports: List[Report]
    def __init__(self, reports: List[Report]) -> None: ...
    @property
    def certified(self) -> bool: ...
    @property
    def findings(self) -> List[Tuple[str, Finding]]: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: int) -> Report: ...
    @overload
    def __getitem__(self, i: slice) -> List[Report]: ...

# A str is a Sequence[str] too: a single path (str, bytes, PathLike) gives a Report.
@overload
def certify(path_or_paths: _Path, deep: bool = ..., profile: str = ..., jobs: int = ..., *, fail_on: str = ..., part_only: bool = ..., metadata_only: bool = ..., progress: Optional[Callable[[int, int], None]] = ...) -> Report: ...  # type: ignore[misc]  # noqa: E501
@overload
def certify(path_or_paths: Sequence[_Path], deep: bool = ..., profile: str = ...,
            jobs: int = ..., *, fail_on: str = ..., part_only: bool = ...,
            metadata_only: bool = ...,
            progress: Optional[Callable[[int, int], None]] = ...) -> ReportSet: ...

@dataclass(frozen=True)
class ManifestPart:
    size: int
    sha256: str
    kv_count: int
    tensor_count: int
    error: Optional[str]

@dataclass(frozen=True)
class ManifestEntry:
    kind: str
    name: str
    type: str
    shape: str
    sha256: str
    state: str
    offset: int
    size: int

class Manifest:
    def __init__(self, ptr: Any) -> None: ...
    @classmethod
    def parse(cls, text: Union[str, bytes]) -> Manifest: ...
    @classmethod
    def load(cls, path: _Path) -> Manifest: ...
    @property
    def parts(self) -> List[ManifestPart]: ...
    def entries(self, part: int = ...) -> List[ManifestEntry]: ...
    def to_text(self) -> str: ...

@dataclass(frozen=True)
class Difference:
    change: str
    item: str
    part: Optional[int]
    subject: str
    detail: Optional[str]
    renamed_from: Optional[str] = ...
    def __init__(self, change: str, item: str, part: Optional[int], subject: str,
                 detail: Optional[str], renamed_from: Optional[str] = ...) -> None: ...

class Verification:
    differences: List[Difference]
    def __init__(self, ptr: Any) -> None: ...
    @property
    def ok(self) -> bool: ...
    def __bool__(self) -> bool: ...
    def to_text(self) -> str: ...

def hash(path: _Path, profile: str = ..., *, part_only: bool = ..., jobs: int = ...,
         metadata_only: bool = ...) -> Manifest: ...
def verify(path: _Path, manifest: Union[Manifest, _Path], *, part_only: bool = ...,
           jobs: int = ..., metadata_only: bool = ...) -> Verification: ...

@dataclass(frozen=True)
class TensorDiff:
    name: _Text
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
    key: _Text
    kind: str
    first_difference: Optional[int]

class DiffReport:
    passed: bool
    summary: Dict[str, Any]
    tensors: List[TensorDiff]
    kvs: List[KVDiff]
    def __init__(self, owner: Any) -> None: ...
    def to_json(self) -> str: ...
    def to_text(self) -> str: ...
    def to_html(self) -> str: ...
    @property
    def data(self) -> Any: ...

def diff(a: _Path, b: _Path, *, tensors: Union[None, str, Sequence[str]] = ...,
         exclude: Union[None, str, Sequence[str]] = ..., max_nmse: Optional[float] = ...,
         max_abs: Optional[float] = ..., min_cos: Optional[float] = ..., jobs: int = ...,
         profile: str = ..., part_only: bool = ...,
         metadata_only: bool = ...) -> DiffReport: ...
