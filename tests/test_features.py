"""The feature table (tests/features.py) against the tests and the docs:

  * docs/features.md is what tools/gen_features.py makes of the table;
  * every test a row names exists (file.py::test_name, a function of the
    file or a method of one of its classes), and every supported row names
    at least one;
  * every row of Numba's feature inventory appears, when the inventory is
    at hand (shared/reference/numba_cuda_features.md beside the checkout).
"""

import ast
import importlib.util
import os
import re

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = _load(os.path.join(ROOT, "tools", "gen_features.py"), "gen_features")
TABLE = GEN.load_table()
STATUSES = {TABLE.YES, TABLE.PARTLY, TABLE.NO, TABLE.NA}


def _test_names(path):
    """The test functions of a file: module-level ones and class methods,
    as name and Class::name."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add("%s::%s" % (node.name, sub.name))
    return names


def test_page_is_up_to_date():
    with open(GEN.PAGE, encoding="utf-8") as f:
        page = f.read()
    assert page == GEN.render(TABLE), "docs/features.md is stale: run python3 tools/gen_features.py"


def test_rows_are_well_formed():
    seen = set()
    for row in TABLE.FEATURES:
        assert len(row) == 6, row
        sec, feature, _, status, note, tests = row
        assert sec in TABLE.SECTIONS, row
        assert status in STATUSES, row
        assert isinstance(tests, list), row
        assert (sec, feature) not in seen, "listed twice: %s %s" % (sec, feature)
        seen.add((sec, feature))
        if status in (TABLE.PARTLY, TABLE.NA):
            assert note, "a %s row says why: %s %s" % (status, sec, feature)


def test_every_listed_test_exists():
    cache = {}
    missing = []
    for row in TABLE.FEATURES:
        for t in row[5]:
            file, _, name = t.partition("::")
            path = os.path.join(HERE, file)
            if not os.path.isfile(path):
                missing.append("%s (no file tests/%s)" % (t, file))
                continue
            if path not in cache:
                cache[path] = _test_names(path)
            if name.split("[")[0] not in cache[path]:
                missing.append(t)
    assert not missing, "tests/features.py names tests that do not exist: " + ", ".join(missing)


def test_every_supported_feature_has_a_test():
    bare = ["%s %s" % (r[0], r[1]) for r in TABLE.FEATURES if r[3] == TABLE.YES and not r[5]]
    assert not bare, "supported features without a test: " + "; ".join(bare)


def _reference():
    for up in ("", "..", os.path.join("..", "..")):
        path = os.path.join(ROOT, up, "shared", "reference", "numba_cuda_features.md")
        if os.path.isfile(path):
            return path
    return None


def reference_rows(path):
    """(section, feature) of every row of the inventory's feature tables (its section 2)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    body = text.split("## 2. Feature table", 1)[1].split("\n## 3.", 1)[0]
    rows, sec = [], None
    for line in body.splitlines():
        m = re.match(r"### (2\.\d+) ", line)
        if m:
            sec = m.group(1)
        elif sec and line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if cells[0] != "area":
                rows.append((sec, cells[1]))
    return rows


def test_every_row_of_numbas_inventory_is_listed():
    path = _reference()
    if path is None:
        pytest.skip("Numba's feature inventory (shared/reference/numba_cuda_features.md) is not at hand")
    ours = {(r[0], r[1]) for r in TABLE.FEATURES}
    theirs = reference_rows(path)
    assert len(theirs) > 200
    missing = ["%s %s" % r for r in theirs if r not in ours]
    assert not missing, "rows of the inventory missing from tests/features.py: " + "; ".join(missing)
