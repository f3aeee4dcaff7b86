#!/usr/bin/python3
"""The one dependency rule of the tree, checked on every #include "..." (docs/architecture.md).

THE RULE

    kernels -> parser -> (writer, common) -> (certify, manifest, diff) -> command

  An arrow points from what is used to its users: a layer may include the headers of its own
  folder and of the layers to its left that the table below lists for it, never of a layer to its
  right or beside it. certify, manifest and diff never include each other; nothing below the
  command includes cli/commands/. Everything may include the public headers (include/).

  The tools (tests, benchmarks, the corpus generator, fuzzers, the conformance oracle and golden
  sets) use the public API only, plus:
    - the named shared helpers below (UTF-8, escaping, checked math, the name index, the key
      grammar, gs_error filling, little-endian loads), which every layer above the reader may
      include too;
    - the internals of the folder they test: test code of folder X includes X's internals;
    - the test-only writer and test support (corpus/writer: GGUF writing, whole-file reads,
      SHA-256), which exists for them;
    - the exceptions each layer lists by name (EXCEPTIONS).

  Every tracked .c/.h file belongs to exactly one layer by its folder (the longest folder prefix
  in LAYERS wins); a file in no layer fails the check, as does an include that names no file of
  the tree, and so does a cycle between folders of different layers (two folders including each
  other; within one layer it is that layer's own affair and only reported). The files under ci/tests/fixtures/ are test inputs of this script (deliberately
  wrong) and are not part of the tree's graph.

usage: check_includes.py [ROOT]                      check the tree at ROOT (default: cwd)
       check_includes.py --expect TEXT ... FIXTURE   pass only when FIXTURE fails the check with
                                                     every TEXT among its violations
Prints the layer table, the edges between layers, the folder cycles and every violation.
"""
import os
import re
import subprocess
import sys

# folder prefix -> layer; "tool" layers are held to the public API (see the rule).
LAYERS = [
    # (layer, kind, folders)
    ("api", "library", ["include"]),
    ("kernels", "library", ["kernels"]),
    ("parser", "library", ["parser"]),
    ("writer", "library", ["corpus/writer"]),
    ("common", "library", ["cli/common"]),
    ("certify", "library", ["cli/certify"]),
    ("manifest", "library", ["cli/manifest"]),
    ("diff", "library", ["cli/diff"]),
    ("command", "library", ["cli/commands"]),
    ("kernels-tests", "tool", ["kernels/tests", "kernels/bench"]),
    ("parser-tests", "tool", ["parser/tests", "parser/bench"]),
    ("cli-tests", "tool", ["cli/tests", "cli/bench"]),
    ("corpus", "tool", ["corpus"]),
    ("fuzz", "tool", ["fuzz"]),
    ("oracle", "tool", ["conformance/oracle"]),
    ("golden", "tool", ["conformance/golden"]),
    ("plugins", "tool", ["conformance/plugins"]),
    ("fixtures", "skip", ["ci/tests/fixtures"]),
]

# layer -> the layers whose headers it may include (its own is always allowed, api too).
USES = {
    "api": set(),
    "kernels": set(),
    "parser": {"kernels"},
    "writer": set(),
    "common": set(),
    "certify": {"common"},
    "manifest": {"common"},
    "diff": {"common"},
    "command": {"common"},
    "kernels-tests": {"kernels", "writer"},
    "parser-tests": {"parser", "writer"},
    "cli-tests": {"common", "certify", "manifest", "diff", "command", "writer"},
    "corpus": {"writer"},
    "fuzz": {"writer"},
    "oracle": {"writer"},
    "golden": {"writer"},
    "plugins": set(),  # the ABI header only: a plugin links nothing of ours
}

# The reader's and the kernels' private headers that every layer above them may include.
SHARED_HELPERS = [
    "parser/utf8.h",          # UTF-8 validation
    "parser/text_escape.h",   # escaping bytes from a file for a terminal
    "kernels/checked_math.h", # checked size arithmetic
    "parser/name_index.h",    # the keyed hash index (duplicate names in linear time)
    "parser/key_grammar.h",   # the spec's key grammar (certify's compat.key_grammar)
    "parser/error.h",         # filling a gs_error as the reader does (gsi_fail)
    "parser/open_regular.h",  # opening a path without blocking, only as a regular file
    "kernels/le_load.h",      # little-endian loads
    "kernels/block_layout.h", # the named field offsets of every block layout
    "parser/child_process.h", # the one runner of child processes (time limit, captured output)
    "parser/fd_io.h",         # the one whole-buffer read/write loop on a descriptor
]

# Further private headers a layer may include, each for a stated reason.
EXCEPTIONS = {
    # gsw_model_from_file rebuilds a model from the reader's own tables; sizes come from the
    # registry
    "writer": {"parser/file_internal.h", "kernels/type_registry.h"},
    # the recipes size blocks from the registry; the regression replay runs a fuzz finding
    # under the options fuzz_open derives from its trailer; the writer's tests count
    # allocations as the reader's tests do
    "corpus": {"kernels/type_registry.h", "fuzz/fuzz_common.h", "parser/tests/test_util.h"},
    # the golden sets run the known-answer tests through the KAT runner of kernels/tests; the
    # golden tool reads --type with the command's one parser of the form
    "golden": {"kernels/tests/kat_runner.h", "cli/common/type_spec.h"},
    # two untrusted-input parsers without a public entry point of their own, fuzzed directly:
    # the --type parser and a decoder plugin's table
    "fuzz": {"cli/common/type_spec.h", "parser/plugin_table.h"},
    # the oracle's runner loads ggml through the library's one ggml loader (the GGUFSAFE_KERNEL=
    # ggml path's), which checks ggml's type traits against the registry
    "oracle": {"kernels/ggml_lib.h"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def tracked_files(root):
    """The .c/.h files of the checkout at root (tracked or not ignored), or, outside a checkout,
    every one on disk."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        top = None
    if top is not None and os.path.realpath(top) == os.path.realpath(root):
        # tracked, and new files git does not ignore (a change before its commit)
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard", "--", "*.c", "*.h"],
                             capture_output=True, text=True, check=True).stdout
        return sorted(set(p for p in out.split("\0") if p and os.path.exists(os.path.join(root, p))))
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in (".git", "build") and not x.startswith("build-"))
        for n in names:
            if n.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/"))
    return sorted(files)


def layer_of(path):
    best = None
    for name, kind, folders in LAYERS:
        for f in folders:
            if path.startswith(f + "/") and (best is None or len(f) > len(best[2])):
                best = (name, kind, f)
    return best


def resolve(inc, src, files):
    """The tracked file an #include "inc" in src names: relative to src's folder, else the one
    file whose path ends in /inc (every include directory of the build is a folder of the tree)."""
    here = os.path.normpath(os.path.join(os.path.dirname(src), inc)).replace(os.sep, "/")
    if here in files:
        return here
    hits = [f for f in files if f == inc or f.endswith("/" + inc)]
    return hits[0] if len(hits) == 1 else (None if not hits else "ambiguous:" + ",".join(hits))


def check(root):
    files = tracked_files(root)
    violations = []
    layer = {}
    for f in files:
        lay = layer_of(f)
        if lay is None:
            violations.append(f"{f}: in no layer (add its folder to LAYERS)")
        else:
            layer[f] = lay
    # the fixtures are this script's inputs, not files an include of the tree can name
    fileset = {f for f in files if f not in layer or layer[f][1] != "skip"}
    edges = {}        # (layer, layer) -> count
    folder_edges = {} # (folder, folder) -> count
    for f in files:
        if f not in layer or layer[f][1] == "skip":
            continue
        me, kind, _ = layer[f]
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            target = resolve(inc, f, fileset)
            if target is None or target.startswith("ambiguous:"):
                why = "names no file of the tree" if target is None else target
                violations.append(f'{f}: #include "{inc}" {why}')
                continue
            if target not in layer:
                continue  # reported above
            them, their_kind, _ = layer[target]
            if their_kind == "skip":
                violations.append(f"{f} -> {target}: a fixture is not part of the tree")
                continue
            edges[(me, them)] = edges.get((me, them), 0) + 1
            fa, fb = os.path.dirname(f), os.path.dirname(target)
            if fa != fb:
                folder_edges[(fa, fb)] = folder_edges.get((fa, fb), 0) + 1
            if them in ("api", me) or them in USES.get(me, set()):
                continue
            if target in SHARED_HELPERS and me not in ("api", "kernels"):
                continue
            if target in EXCEPTIONS.get(me, set()):
                continue
            if their_kind == "library" and kind == "tool":
                what = "a private header of the " + them + " library (not a shared helper)"
            else:
                what = "not allowed by the rule"
            violations.append(f"{f} -> {target} ({me} -> {them}): {what}")
    return files, layer, edges, folder_edges, violations


def report(root, files, layer, edges, folder_edges, violations):
    print(f"include graph of {root}: {len(files)} files")
    print("\nlayers (folder -> layer, kind, files, may include besides api and its own):")
    for name, kind, folders in LAYERS:
        n = sum(1 for f in files if f in layer and layer[f][0] == name)
        uses = ", ".join(sorted(USES.get(name, set()))) or "-"
        extra = " + shared helpers" if name not in ("api", "kernels", "parser", "fixtures") else ""
        print(f"  {name:14} {kind:8} {n:4}  {', '.join(f + '/' for f in folders)}"
              f"  [uses: {uses}{extra}]")
    print("\nshared helpers: " + ", ".join(SHARED_HELPERS))
    for name in sorted(EXCEPTIONS):
        print(f"exceptions of {name}: " + ", ".join(sorted(EXCEPTIONS[name])))
    print("\nedges between layers (includes):")
    for (a, b), n in sorted(edges.items()):
        if a != b:
            print(f"  {a:14} -> {b:14} {n}")
    cycles = sorted((a, b, folder_edges[(a, b)], folder_edges[(b, a)])
                    for (a, b) in folder_edges if a < b and (b, a) in folder_edges)
    print(f"\nfolder cycles (pairs of folders including each other): {len(cycles)}")
    crossing = []
    for a, b, n, m in cycles:
        la, lb = layer_of(a + "/x"), layer_of(b + "/x")
        same = la is not None and lb is not None and la[0] == lb[0]
        print(f"  {a} <-> {b}: {n}/{m} includes" + (" (within one layer)" if same else ""))
        if not same:
            crossing.append((a, b))
    present = set(files)
    unused = [h for h in SHARED_HELPERS if h not in present]
    if unused:
        print("\nnamed but not in the tree: " + ", ".join(unused))
    if violations:
        print(f"\n{len(violations)} violations:")
        for v in violations:
            print("  " + v)
    else:
        print("\ninclude graph: OK" if not crossing else "")
    return crossing


def main(argv):
    expect = []
    args = []
    i = 1
    while i < len(argv):
        if argv[i] == "--expect" and i + 1 < len(argv):
            expect.append(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    root = args[0] if args else "."
    result = check(root)
    cycles = report(root, *result)
    violations = result[4]
    if expect:
        missing = [e for e in expect if not any(e in v for v in violations)]
        for e in missing:
            print(f"expected a violation naming: {e}")
        ok = bool(violations) and not missing
        print("fixture: " + ("fails as it must" if ok else "NOT as expected"))
        return 0 if ok else 1
    if cycles:
        print(f"{len(cycles)} cycles between folders of different layers")
    return 1 if violations or cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
