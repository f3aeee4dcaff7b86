"""The package's version: the project's (project(... VERSION) in the top CMakeLists.txt), which
setup.py gives the distribution and writes over this module in the package it builds; here, for
a package imported from the checkout, read from the checkout (or the installed metadata)."""
import os
import re
from importlib import metadata


def _from_checkout() -> str:
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "CMakeLists.txt")
    try:
        with open(top, encoding="utf-8") as f:
            m = re.search(r"project\(\s*ggufsafe\s+VERSION\s+([0-9.]+)", f.read())
    except OSError:
        m = None
    return m.group(1) if m else "0+unknown"


try:
    __version__ = metadata.version("ggufsafe")
except metadata.PackageNotFoundError:
    __version__ = _from_checkout()
