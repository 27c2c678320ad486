#!/usr/bin/env python3
"""Writes docs/features.md, the table of what kernels can use, from
tests/features.py (the one home of the table).

    python3 tools/gen_features.py           writes docs/features.md
    python3 tools/gen_features.py --check   exits 1 when the page is stale

tests/test_features.py runs the check.
"""

import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tests", "features.py")
PAGE = os.path.join(ROOT, "docs", "features.md")

SHOWN = {"yes": "yes", "partly": "partly", "no": "**no**", "n/a": "n/a"}


def load_table():
    spec = importlib.util.spec_from_file_location("ptxjit_features", TABLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cell(text):
    """text for a Markdown table cell: a bare | would end the cell."""
    out = []
    for i, ch in enumerate(text):
        if ch == "|" and (i == 0 or text[i - 1] != "\\"):
            out.append("\\")
        out.append(ch)
    return "".join(out).replace("\n", " ")


def render(mod):
    rows = mod.FEATURES
    count = {s: sum(1 for r in rows if r[3] == s) for s in SHOWN}
    lines = [
        "# Supported Python and NumPy features",
        "",
        "<!-- Written by tools/gen_features.py from tests/features.py; edit the table there. -->",
        "",
        "What a kernel and its host code can use, feature by feature, in the order of Numba's CUDA",
        "API, then what ptxjit adds. **partly** rows say what is missing, **no** rows what to use",
        "instead, **n/a** rows are mechanisms of Numba's (NVVM, linking) with no counterpart here.",
        "The tests named beside a feature exercise it (on the simulator, and on a GPU with",
        "`PTXJIT_TEST_GPU=1`); `tests/test_features.py` checks that they exist and that this page",
        "is up to date.",
        "",
        "%d features: %d supported, %d partly, %d not supported, %d not applicable."
        % (len(rows), count["yes"], count["partly"], count["no"], count["n/a"]),
        "",
    ]
    for sec, title in mod.SECTIONS.items():
        mine = [r for r in rows if r[0] == sec]
        if not mine:
            continue
        lines += ["## %s" % title, "",
                  "| feature | Numba | ptxjit | note | tests |",
                  "|---|---|---|---|---|"]
        for _, feature, spelling, status, note, tests in mine:
            lines.append("| %s | %s | %s | %s | %s |" % (
                cell(feature), cell(spelling), SHOWN[status], cell(note),
                "<br>".join("`%s`" % t for t in tests)))
        lines.append("")
    return "\n".join(lines)


def main(argv):
    text = render(load_table())
    if "--check" in argv:
        with open(PAGE, encoding="utf-8") as f:
            if f.read() != text:
                print("docs/features.md is stale: run python3 tools/gen_features.py", file=sys.stderr)
                return 1
        return 0
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
