"""Where the tests find their inputs: the checkout (python/..), a CMake build of it (the generated
corpus and the ggufsafe command) named by GGUFSAFE_TEST_BUILD, or the first of build/gcc-release
and build/gcc. With GGUFSAFE_TEST_REQUIRE=1 (ci/python.sh) a missing input fails the test
instead of skipping it."""
import os
import shutil
import subprocess
from typing import List, Optional

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(REPO, "conformance", "samples", "ggml-written.gguf")
SAMPLE_SHA = os.path.join(REPO, "conformance", "samples", "ggml-written.dequant.sha256")
MANIFEST_TSV = os.path.join(REPO, "corpus", "manifest.tsv")


def _build_dir() -> Optional[str]:
    env = os.environ.get("GGUFSAFE_TEST_BUILD")
    if env:
        return env
    for d in ("build/gcc-release", "build/gcc"):
        path = os.path.join(REPO, d)
        if os.path.isfile(os.path.join(path, "corpus", "generated", "manifest.tsv")):
            return path
    return None


BUILD = _build_dir()


def need(what: str, path: Optional[str]) -> str:
    if path is not None and os.path.exists(path):
        return path
    message = f"{what} not found ({path}): build the checkout or set GGUFSAFE_TEST_BUILD"
    if os.environ.get("GGUFSAFE_TEST_REQUIRE") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def corpus_dir() -> str:
    return need("the generated corpus",
                os.path.join(BUILD, "corpus", "generated") if BUILD else None)


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("GGUFSAFE_CLI") or (os.path.join(BUILD, "cli", "ggufsafe")
                                              if BUILD else shutil.which("ggufsafe"))
    return need("the ggufsafe command", path)


def corpus_rows() -> List[List[str]]:
    with open(MANIFEST_TSV, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return [line.split("\t") for line in lines[1:] if line]


def clean_env() -> dict:
    """The environment for programs the tests run (the command, the C compiler): without the
    sanitizer runtime an ASan pytest run preloads."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def run(cmd: List[str]) -> "subprocess.CompletedProcess[bytes]":
    return subprocess.run(cmd, capture_output=True, env=clean_env(), check=False, timeout=600)
