"""The package as installed: its version."""
import os
import re

import ggufsafe
from conftest import REPO


def test_the_package_version_is_the_projects():
    # setup.py writes it into the package it builds; from the checkout it is read from there.
    with open(os.path.join(REPO, "CMakeLists.txt"), encoding="utf-8") as f:
        project = re.search(r"project\(\s*ggufsafe\s+VERSION\s+([0-9.]+)", f.read()).group(1)
    assert ggufsafe.__version__ == project
    assert ggufsafe.library_version == project
