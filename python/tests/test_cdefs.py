"""The binding's declarations (ggufsafe/_cdefs.py) against the installed headers, by the C
compiler: every function declared again after the headers (a different prototype is a
"conflicting types" error), every enumerator and constant asserted, every struct's size and each
field's offset and size printed by C and compared with cffi's layout."""
import os
import re
import shutil
import subprocess

import pytest

from ggufsafe import _cdefs
from ggufsafe._lib import certify_lib, ffi, lib
from conftest import REPO, clean_env

SOURCES = (_cdefs.READER, _cdefs.CERTIFY, _cdefs.MANIFEST, _cdefs.DIFF)


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
    lines += [decl + ";" for _, decl in functions()]
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


def test_every_declared_function_is_exported():
    declared = {n for n, _ in functions()}
    assert {"gs_open_file", "gs_certify_path", "gs_diff_compare", "gs_manifest_compare"} <= declared
    missing = [n for n, _ in functions() if not (hasattr(lib, n) or hasattr(certify_lib, n))]
    assert missing == []
