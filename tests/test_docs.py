"""The user documentation in docs/ against the code:

  * every PTXJIT_* environment variable that the package, the C sources,
    the build or the benchmarks read, and every NUMBA_* one that the package
    honours, is listed in
    docs/environment.md (and every one listed there is read somewhere);
  * the README's first example and the Python examples of the tutorial
    pages run as printed (on the
    simulator here, on the GPU with PTXJIT_TEST_GPU=1), with their sizes
    made smaller, and their asserts hold.
"""

import glob
import importlib.util
import os
import re

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DOCS = os.path.join(ROOT, "docs")

VAR = re.compile(r"\b((?:PTXJIT|NUMBA)_[A-Z0-9_]*[A-Z0-9])\b")


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _variables_read():
    files = (glob.glob(os.path.join(ROOT, "python", "ptxjit", "**", "*.py"), recursive=True)
             + glob.glob(os.path.join(ROOT, "src", "**", "*.[ch]"), recursive=True)
             + glob.glob(os.path.join(ROOT, "bench", "*.py"))
             + [os.path.join(ROOT, "setup.py"), os.path.join(HERE, "conftest.py")])
    found = {}
    for path in files:
        ours = not os.path.relpath(path, ROOT).startswith("bench")
        for name in VAR.findall(_read(path)):
            if name.endswith("_H"):          # a C header's include guard
                continue
            if name.startswith("NUMBA_") and not ours:   # the benchmarks' settings for Numba itself
                continue
            found.setdefault(name, os.path.relpath(path, ROOT))
    return found


def test_every_environment_variable_is_documented():
    doc = _read(os.path.join(DOCS, "environment.md"))
    listed = set(re.findall(r"^\| `((?:PTXJIT|NUMBA)_[A-Z0-9_]+)`", doc, re.M))
    read = _variables_read()
    missing = sorted("%s (read in %s)" % (v, f) for v, f in read.items() if v not in listed)
    assert not missing, "docs/environment.md does not list: " + ", ".join(missing)
    stale = sorted(listed - set(read))
    assert not stale, "docs/environment.md lists variables nothing reads: " + ", ".join(stale)


def _python_blocks(page):
    path = os.path.join(ROOT, page) if page == "README.md" else os.path.join(DOCS, page)
    blocks = re.findall(r"^```python\n(.*?)^```", _read(path), re.M | re.S)
    return blocks[:1] if page == "README.md" else blocks


@pytest.mark.parametrize("page", ["README.md", "first-kernel.md", "inspection.md"])
def test_page_examples_run(page, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)      # for the files an example writes
    code = "\n".join(_python_blocks(page))
    assert "@cuda.jit" in code
    code = code.replace("1_000_000", "20_000").replace("range(100)", "range(3)")
    path = tmp_path / ("doc_%s.py" % page.replace("-", "_").replace(".md", ""))
    path.write_text(code)
    spec = importlib.util.spec_from_file_location(path.stem, str(path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
