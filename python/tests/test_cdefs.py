"""The binding's declarations (ggufsafe/_cdefs.py: the headers the package ships, as cffi reads
them) against the installed headers, by the C compiler: every function declared again after the
headers (a different prototype is a "conflicting types" error), every enumerator and constant
asserted, every struct's size and each field's offset and size printed by C and compared with
cffi's layout; and header_cdef(), the header-to-cdef step, on small inputs."""
import importlib
import os
import re
import shutil
import subprocess

import _cffi_backend  # type: ignore[import]
import pytest

import ggufsafe
from ggufsafe import _cdefs
from ggufsafe._lib import certify_lib, certify_path, ffi, lib, reader_path
from conftest import REPO, clean_env

SOURCES = tuple(_cdefs.declarations())
# Imported from the checkout (python/ on sys.path) rather than installed by pip.
IN_CHECKOUT = os.path.abspath(ggufsafe.__file__).startswith(os.path.join(REPO, "python", ""))


def include_dir():
    env = os.environ.get("GGUFSAFE_INCLUDE_DIR")
    if env:
        return env
    if shutil.which("pkg-config"):
        out = subprocess.run(["pkg-config", "--variable=includedir", "ggufsafe"],
                             capture_output=True, text=True, check=False)
        d = out.stdout.strip()
        if out.returncode == 0 and os.path.isfile(os.path.join(d, "ggufsafe.h")):
            return d
    return os.path.join(REPO, "include")


def statements():
    for src in SOURCES:
        body = "\n".join(x for x in src.splitlines() if not x.lstrip().startswith("#"))
        for stmt in body.split(";"):
            yield " ".join(stmt.split())


def functions():
    out = []
    for stmt in statements():
        m = re.search(r"\b(gs_\w+)\s*\(", stmt)
        if m and "typedef" not in stmt and "{" not in stmt and "}" not in stmt:
            out.append((m.group(1), stmt))
    return out


def names(pattern):
    return [n for src in SOURCES for n in re.findall(pattern, src)]


def c_program():
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += [f'#include "{h}"' for h in _cdefs.HEADERS]
    # (name)(...): the name of a function the header also defines as a macro is not expanded.
    lines += [re.sub(rf"\b{n}\s*\(", f"({n})(", decl, count=1) + ";" for n, decl in functions()]
    for enum in names(r"typedef enum (\w+)"):
        for name, value in ffi.typeof(enum).relements.items():
            lines.append(f'_Static_assert({name} == {value}, "{name}");')
    for src in SOURCES:
        for name, value in re.findall(r"#define (GS_\w+) (\d+)", src):
            lines.append(f'_Static_assert({name} == {value}, "{name}");')
    lines.append("int main(void) {")
    for struct in names(r"typedef struct (\w+) \{"):
        lines.append(f'printf("{struct} %zu\\n", sizeof({struct}));')
        for field, _ in ffi.typeof(struct).fields:
            if not field.startswith("_"):
                lines.append(f'printf("{struct}.{field} %zu %zu\\n", offsetof({struct}, {field}),'
                             f' sizeof((({struct} *)0)->{field}));')
    lines += ["return 0;", "}"]
    return "\n".join(lines) + "\n"


def cffi_layout():
    out = []
    for struct in names(r"typedef struct (\w+) \{"):
        out.append(f"{struct} {ffi.sizeof(struct)}")
        for field, f in ffi.typeof(struct).fields:
            if not field.startswith("_"):
                out.append(f"{struct}.{field} {f.offset} {ffi.sizeof(f.type)}")
    return out


def test_declarations_compile_against_the_headers(tmp_path):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    src = tmp_path / "cdefs_check.c"
    src.write_text(c_program())
    exe = tmp_path / "cdefs_check"
    build = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", include_dir(),
                            str(src), "-o", str(exe)], capture_output=True, text=True,
                           check=False, env=clean_env())
    assert build.returncode == 0, build.stderr
    printed = subprocess.run([str(exe)], capture_output=True, text=True, check=True,
                             env=clean_env()).stdout
    assert printed.splitlines() == cffi_layout()


def test_an_installed_package_reads_its_own_headers():
    # From the checkout the package reads include/; installed, the copies setup.py bundled.
    where = dict(_cdefs.include_dirs())["checkout" if IN_CHECKOUT else "bundled"]
    assert _cdefs.include_dir() == where


def test_every_exported_function_of_the_headers_is_declared():
    declared = {n for n, _ in functions()}
    for h in _cdefs.HEADERS:
        with open(os.path.join(_cdefs.include_dir(), h), encoding="utf-8") as f:
            api = re.findall(r"\bGS_API\b[^;(]*?\b(gs_\w+)\s*\(", f.read())
        assert api and set(api) <= declared, h


def test_header_cdef_keeps_declarations_and_integer_constants():
    header = "\n".join([
        "/* a comment with a ; and a #define GS_NO 1 */",
        "#ifndef X_H",
        "#define X_H",
        "#include <stdint.h>",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "#if defined(GGUFSAFE_BUILDING) && defined(__GNUC__)",
        '#define GS_API __attribute__((visibility("default")))',
        "#else",
        "#define GS_API",
        "#endif",
        "#define GS_A 128",
        "#define GS_B 0x100u /* trailing comment */",
        "#define GS_C 017",
        "#define GS_D (1u << 20)",
        "#define GS_E UINT32_MAX",
        "#define gs_f(x) \\",
        "    gs_f_sized((x), sizeof *(x))",
        "typedef struct gs_s { char t[GS_A]; } gs_s; // line comment",
        "GS_API int gs_f_sized(gs_s *s,",
        "                      size_t n);",
        "#ifdef __cplusplus",
        "}",
        "#endif",
        "#endif",
    ])
    got = [line.strip() for line in _cdefs.header_cdef(header).splitlines() if line.strip()]
    assert got == ["#define GS_A 128", "#define GS_B 256", "#define GS_C 15",
                   "typedef struct gs_s { char t[GS_A]; } gs_s;", "int gs_f_sized(gs_s *s,",
                   "size_t n);"]


@pytest.mark.parametrize("header", ["#if A\nint a;\n", "#endif\n", "#else\n#endif\n",
                                    "#ifdef __cplusplus\n}\n#endif\n#endif\n"])
def test_header_cdef_rejects_unbalanced_conditionals(header):
    with pytest.raises(ValueError):
        _cdefs.header_cdef(header)


# What cffi raises for a name a library does not export, or the size of an opaque type:
# AttributeError and ValueError in its in-line mode, ffi.error in the out-of-line one.
CFFI_ERRORS = (AttributeError, ValueError, _cffi_backend.FFI.error)


def _exported(lib_, name):
    """lib_.name, or None when its library does not export it."""
    try:
        return getattr(lib_, name)
    except CFFI_ERRORS:
        return None


def test_every_declared_function_is_exported():
    declared = {n for n, _ in functions()}
    assert {"gs_open_file", "gs_certify_path", "gs_diff_compare", "gs_manifest_compare"} <= declared
    missing = [n for n, _ in functions()
               if _exported(lib, n) is None and _exported(certify_lib, n) is None]
    assert missing == []


def _canon(f, t, depth=0):
    """A ctype as its shape: kinds, sizes, field names and offsets, enumerators, argument and
    result types. The out-of-line mode names a type by what it is (struct gs_x), the in-line one
    by its typedef (gs_x): names of types are left out; a struct behind a pointer is its kind and
    size only (types may point to themselves)."""
    try:
        size = f.sizeof(t)
    except CFFI_ERRORS:
        size = None  # opaque (FILE, gs_file), void, or a function type
    if t.kind == "primitive":
        return ("primitive", t.cname, size)
    if t.kind == "pointer":
        return ("pointer", _canon(f, t.item, depth + 1))
    if t.kind == "array":
        return ("array", t.length, _canon(f, t.item, depth + 1))
    if t.kind == "function":
        return ("function", tuple(_canon(f, x, depth + 1) for x in t.args),
                _canon(f, t.result, depth + 1), t.ellipsis)
    if t.kind == "enum":
        return ("enum", size, tuple(sorted(t.elements.items())))
    if t.kind in ("struct", "union") and size is not None and depth == 0:
        return (t.kind, size, tuple((n, x.offset, _canon(f, x.type, depth + 1))
                                    for n, x in t.fields))
    return (t.kind, size)


def _ffi_view(f, libs):
    """What an FFI declares: every type's shape, and what each declared name is in the given
    libraries (dlopened through f): a function's type, a constant's value, or None where that
    library does not export it."""
    typedefs, structs, unions = f.list_types()
    layouts = {}
    for name in typedefs + ["struct " + s for s in structs] + ["union " + u for u in unions]:
        layouts[name] = _canon(f, f.typeof(name))
    names = {}
    for which, lib_ in libs.items():
        for n in dir(lib_):
            v = _exported(lib_, n)
            names[(which, n)] = _canon(f, f.typeof(v)) if isinstance(v, f.CData) else v
    return layouts, names


def test_the_shipped_declarations_are_the_headers_parsed_now():
    # An installed package imports the declarations setup.py parsed at build time
    # (ggufsafe/_ffi_built.py); they must be what its headers declare, type for type and name for
    # name.
    if IN_CHECKOUT:
        pytest.skip("imported from the checkout: the headers are parsed at import")
    shipped = importlib.import_module("ggufsafe._ffi_built")
    assert ffi is shipped.ffi
    parsed = _cdefs.parse_ffi()

    def view(f):
        return _ffi_view(f, {"reader": f.dlopen(reader_path), "certify": f.dlopen(certify_path)})

    mine, theirs = view(shipped.ffi), view(parsed)
    assert mine[0] == theirs[0]
    assert mine[1] == theirs[1]
    assert len(mine[1]) > 300


def test_the_comparison_of_declarations_sees_a_changed_field(tmp_path):
    # The check above compares shapes: a field of another type, or an enumerator of another
    # value, must make two declarations differ.
    src = _cdefs.include_dir()
    for h in _cdefs.HEADERS:
        shutil.copyfile(os.path.join(src, h), tmp_path / h)
    base = _ffi_view(_cdefs.parse_ffi(str(tmp_path)), {})
    header = tmp_path / "ggufsafe.h"
    text = header.read_text(encoding="utf-8")
    changed = text.replace("    size_t len;", "    uint32_t len;", 1)
    assert changed != text
    header.write_text(changed, encoding="utf-8")
    assert _ffi_view(_cdefs.parse_ffi(str(tmp_path)), {}) != base
    header.write_text(text.replace("GS_OK = 0", "GS_OK = 7", 1), encoding="utf-8")
    assert "GS_OK = 0" in text
    assert _ffi_view(_cdefs.parse_ffi(str(tmp_path)), {}) != base

