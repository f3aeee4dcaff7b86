"""Opening a large vocabulary from Python (a program, never a test).

    python bench/bench_open.py FILE [--reps N] [--cli PATH]

FILE: a vocabulary-shaped GGUF, e.g. the corpus's boundary/vocab_262144.gguf (262,144 tokens,
scores and token types) or gs_bench_parse --write's vocab_merges.gguf. Each run opens the file,
takes the length of tokenizer.ggml.tokens and its last token, and closes it. Rows, best of N
runs each, all measured in this run, with the ratio to the first row:
  - `ggufsafe info FILE`, the whole process (the baseline);
  - ggufsafe.open in this process;
  - a fresh Python process importing ggufsafe and doing the same (interpreter start included);
  - gguf-py's GGUFReader in this process, when `import gguf` works (llama.cpp's gguf-py).
"""
import argparse
import os
import shutil
import subprocess
import sys
import time
from typing import Callable, List, Optional, Tuple

import ggufsafe

KEY = "tokenizer.ggml.tokens"


def best(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def with_ggufsafe(path: str) -> Tuple[int, object]:
    with ggufsafe.open(path) as f:
        tokens = f.metadata[KEY]
        assert isinstance(tokens, ggufsafe.GGUFArray)
        return len(tokens), tokens[len(tokens) - 1]


def with_gguf_py(path: str) -> Optional[Callable[[], Tuple[int, object]]]:
    try:
        import gguf  # type: ignore[import]
    except ImportError:
        return None

    def run() -> Tuple[int, object]:
        reader = gguf.GGUFReader(path)
        field = reader.fields[KEY]
        last = bytes(field.parts[field.data[-1]]).decode("utf-8")
        return len(field.data), last
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--cli", default=shutil.which("ggufsafe"))
    a = ap.parse_args()
    want = with_ggufsafe(a.file)
    rows: List[Tuple[str, float]] = []
    if a.cli:
        rows.append(("`ggufsafe info FILE` (whole process)",
                     best(lambda: subprocess.run([a.cli, "info", a.file], check=True,
                                                 stdout=subprocess.DEVNULL), a.reps)))
    rows.append(("ggufsafe.open + len + last token (in process)",
                 best(lambda: with_ggufsafe(a.file), a.reps)))
    script = ("import ggufsafe; f = ggufsafe.open(%r); t = f.metadata[%r]; t[len(t) - 1]; "
              "f.close()" % (a.file, KEY))
    rows.append(("the same in a fresh `python3 -c` (interpreter and import included)",
                 best(lambda: subprocess.run([sys.executable, "-c", script], check=True),
                      a.reps)))
    gguf_py = with_gguf_py(a.file)
    if gguf_py is not None:
        assert gguf_py() == want, (gguf_py(), want)
        rows.append(("gguf-py GGUFReader + len + last token (in process)",
                     best(gguf_py, max(1, min(a.reps, 3)))))
    size = os.path.getsize(a.file)
    print(f"{a.file}: {size / 1e6:.1f} MB, {want[0]} tokens; ggufsafe {ggufsafe.__version__}, "
          f"Python {sys.version.split()[0]}, best of {a.reps}\n")
    print("| what | time | ratio to the first row |")
    print("|---|---|---|")
    for label, t in rows:
        print(f"| {label} | {t * 1e3:.1f} ms | {t / rows[0][1]:.2f}x |")
    if gguf_py is None:
        print("\n(gguf-py is not importable here: no row for it)")


if __name__ == "__main__":
    main()
