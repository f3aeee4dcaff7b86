"""Builds the ggufsafe package: over an installed libggufsafe, or bundling one built here.

GGUFSAFE_BUNDLE=1 always builds the C library from the checkout with CMake (Release, tests and
the command off) into python/build/cmake and copies libggufsafe.so.0 and
libggufsafe_certify.so.0 into the package; GGUFSAFE_BUNDLE=0 never does; unset, it bundles when
no libggufsafe is found (GGUFSAFE_LIBRARY_DIR, pkg-config ggufsafe, the dynamic linker's cache).
The version is the C project's: project(... VERSION) in ../CMakeLists.txt, else the installed
ggufsafe.pc's. Either way the package ships the library's public headers (ggufsafe/_include/,
from ../include, else pkg-config's includedir for ggufsafe): its cffi declarations are read from
them (ggufsafe/_cdefs.py), once, here: the package ships them parsed
(ggufsafe/_ffi_built.py).
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SONAMES = ("libggufsafe.so.0", "libggufsafe_certify.so.0")
sys.path.insert(0, os.path.join(HERE, "ggufsafe"))
from _cdefs import HEADERS, parse_ffi  # noqa: E402  (the module imports nothing of the package)
del sys.path[0]


def project_version():
    try:
        with open(os.path.join(TOP, "CMakeLists.txt"), encoding="utf-8") as f:
            m = re.search(r"project\(\s*ggufsafe\s+VERSION\s+([0-9.]+)", f.read())
        if m:
            return m.group(1)
    except OSError:
        pass
    out = subprocess.run(["pkg-config", "--modversion", "ggufsafe"], capture_output=True,
                         text=True, check=False)
    if out.returncode == 0 and out.stdout.strip():
        return out.stdout.strip()
    sys.exit("ggufsafe: no version: neither ../CMakeLists.txt nor pkg-config's ggufsafe.pc")


def installed_library():
    """Where an installed libggufsafe is, or None."""
    for d in os.environ.get("GGUFSAFE_LIBRARY_DIR", "").split(os.pathsep):
        if d and all(os.path.isfile(os.path.join(d, s)) for s in SONAMES):
            return d
    if shutil.which("pkg-config"):
        out = subprocess.run(["pkg-config", "--variable=libdir", "ggufsafe"],
                             capture_output=True, text=True, check=False)
        d = out.stdout.strip()
        if out.returncode == 0 and d and os.path.isfile(os.path.join(d, SONAMES[0])):
            return d
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    if os.path.exists(ldconfig):
        out = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=False)
        if all(s in out.stdout for s in SONAMES):
            return "ldconfig"
    return None


def want_bundle():
    choice = os.environ.get("GGUFSAFE_BUNDLE", "")
    if choice in ("0", "1"):
        return choice == "1"
    return installed_library() is None


def build_c_library():
    """The two shared libraries, built from the checkout; their paths."""
    if not os.path.isfile(os.path.join(TOP, "include", "ggufsafe.h")):
        sys.exit("ggufsafe: no libggufsafe is installed and there is no checkout to build it "
                 "from: install it (cmake --install) or set GGUFSAFE_LIBRARY_DIR")
    cmake = os.environ.get("CMAKE", "cmake")
    build = os.path.join(HERE, "build", "cmake")
    configure = [cmake, "-S", TOP, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                 "-DGGUFSAFE_BUILD_TESTS=OFF", "-DGGUFSAFE_BUILD_TOOLS=ON"]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
        subprocess.run(configure, check=True)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    subprocess.run([cmake, "--build", build, "-j", jobs, "--target", "ggufsafe_shared",
                    "ggufsafe_certify_shared"], check=True)
    found = {}
    for root, _, files in os.walk(build):
        for s in SONAMES:
            if s in files:
                found.setdefault(s, os.path.realpath(os.path.join(root, s)))
    missing = [s for s in SONAMES if s not in found]
    if missing:
        sys.exit(f"ggufsafe: the CMake build made no {', '.join(missing)}")
    return found


def pkgconfig_includedir():
    """pkg-config's includedir for an installed ggufsafe, or None."""
    if not shutil.which("pkg-config"):
        return None
    out = subprocess.run(["pkg-config", "--variable=includedir", "ggufsafe"],
                         capture_output=True, text=True, check=False)
    d = out.stdout.strip()
    return d if out.returncode == 0 and d else None


def header_dir():
    """The directory of the headers the package ships: those of the library it loads. Bundled,
    the checkout's, which the library is built from; over an installed library, that library's
    (pkg-config's includedir), else the checkout's."""
    checkout = os.path.join(TOP, "include")
    dirs = [checkout] if want_bundle() else [pkgconfig_includedir(), checkout]
    for d in dirs:
        if d and all(os.path.isfile(os.path.join(d, h)) for h in HEADERS):
            return d
    sys.exit(f"ggufsafe: the library's headers ({', '.join(HEADERS)}) are neither in "
             "pkg-config's includedir for ggufsafe nor in ../include")


class BuildPy(build_py):
    def run(self):
        super().run()
        headers = os.path.join(self.build_lib, "ggufsafe", "_include")
        shutil.rmtree(headers, ignore_errors=True)
        os.makedirs(headers)
        src = header_dir()
        for h in HEADERS:
            shutil.copyfile(os.path.join(src, h), os.path.join(headers, h))
        # The declarations, parsed once here from the headers just shipped: the package imports
        # them ready (cffi's out-of-line ABI mode) instead of parsing the headers at each import.
        ffi = parse_ffi(headers)
        ffi.set_source("ggufsafe._ffi_built", None)
        ffi.emit_python_code(os.path.join(self.build_lib, "ggufsafe", "_ffi_built.py"))
        # The built package states its version: asking importlib.metadata at each import took
        # longer than the rest of the package's own modules.
        with open(os.path.join(self.build_lib, "ggufsafe", "_version.py"), "w",
                  encoding="utf-8") as f:
            f.write('"""The package\'s version, written by setup.py when it built the package."""\n'
                    f"__version__ = {self.distribution.get_version()!r}\n")
        dest = os.path.join(self.build_lib, "ggufsafe", "_libs")
        # A copy left in python/build/lib by an earlier bundled build must not ship unasked.
        shutil.rmtree(dest, ignore_errors=True)
        if not want_bundle():
            return
        libs = build_c_library()
        os.makedirs(dest)
        for soname, path in libs.items():
            shutil.copyfile(path, os.path.join(dest, soname))


class MaybeBinaryDistribution(Distribution):
    """A wheel that bundles the C libraries is platform-specific."""

    def has_ext_modules(self):
        return want_bundle()


setup(version=project_version(), cmdclass={"build_py": BuildPy},
      distclass=MaybeBinaryDistribution)
