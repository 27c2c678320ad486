"""kernel.inspect_html(path) and `ptxjitc --html PATH`: a page that
html.parser reads, with every source line of the kernel, and under each
line exactly the PTX instructions that the `.loc` directives give it (an
independent reading of the PTX here), the whole PTX, the SASS or a note on
how to get it, and the resources (the driver's on a GPU, ptxas -v's on the
simulator when the toolkit is installed, else said to be unknown).
"""

import html.parser
import inspect
import math
import os
import re

import numpy as np

from ptxjit import cuda
from ptxjit import cli
from ptxjit import inspect_html

SIG = "void(float32[::1], float32[::1], int64)"


@cuda.jit(device=True)
def smooth(x):
    y = x * x + 1.0
    return math.sqrt(y)


@cuda.jit(lineinfo=True)
def several_lines(a, out, n):
    i = cuda.grid(1)
    if i < a.size:
        acc = 0.0
        for k in range(n):
            acc += smooth(a[i] + k)
        out[i] = acc


@cuda.jit
def no_lineinfo(a, out, n):
    i = cuda.grid(1)
    if i < a.size:
        t = a[i] * 2.0
        out[i] = math.exp(t) - n


class Page(html.parser.HTMLParser):
    """The rows of the source tables (file, line, source text, PTX lines),
    the lines of the whole-PTX listing, and the text by element id."""

    def __init__(self, text):
        super().__init__()
        self.rows, self.listing, self.by_id = [], [], {}
        self._row = self._cell = self._id = self._span = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-line" in a:
            self._row = [a["data-file"], int(a["data-line"]), "", ""]
            self.rows.append(self._row)
        elif tag == "td" and self._row is not None and a.get("class") in ("code", "ptx"):
            self._cell = 2 if a["class"] == "code" else 3
        elif tag == "span" and self._id == "ptx":
            self._span = []
        if a.get("id") in ("ptx", "sass", "resources"):
            self._id = a["id"]
            self.by_id[self._id] = ""

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None
        elif tag == "tr":
            self._row = None
        elif tag == "span" and self._span is not None:
            self.listing.append(re.sub(r"^\s*\d+ ", "", "".join(self._span), count=1))
            self._span = None
        elif tag in ("pre", "table", "p") and self._id and self._span is None:
            self._id = None

    def handle_data(self, data):
        if self._row is not None and self._cell is not None:
            self._row[self._cell] += data
        if self._span is not None:
            self._span.append(data)
        if self._id:
            self.by_id[self._id] += data


def loc_owners(ptx):
    """{line: [instructions]} as the .loc directives give them: each
    instruction to the last .loc before it in its function."""
    owners, line = {}, None
    for text in ptx.splitlines():
        s = text.strip()
        m = re.match(r"\.loc\s+\d+\s+(\d+)", s)
        if m:
            line = int(m.group(1))
        elif s == "}":
            line = None
        elif line is not None and s and s[0] not in ".{/" and not s.endswith(":"):
            owners.setdefault(line, []).append(s)
    return owners


def _check_page(path, ptx, pyfuncs, at_least):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    page = Page(text)
    assert not re.search(r"<link|<img|src=|https?://", text), "the page must need no other file"
    assert page.listing == ptx.splitlines()
    mine = os.path.abspath(__file__)
    rows = {r[1]: r for r in page.rows if os.path.abspath(r[0]) == mine}
    for fn in pyfuncs:
        lines, first = inspect.getsourcelines(fn)
        for k, src in enumerate(lines):
            assert rows[first + k][2] == src.rstrip("\n"), (first + k, src)
    owners = loc_owners(ptx)
    assert len(owners) >= at_least
    for line, row in rows.items():
        shown = [s for s in row[3].split("\n") if s]
        assert shown == owners.get(line, []), line
    assert set(owners) <= set(rows)
    return page


def test_ptx_lines_are_those_the_loc_directives_give(tmp_path, rng):
    a = rng.random(300, dtype=np.float32) + 0.5
    out = np.zeros_like(a)
    several_lines[3, 128](a, out, 4)
    want = sum(np.sqrt((a + k) * (a + k) + 1, dtype=np.float64) for k in range(4))
    np.testing.assert_allclose(out, want, rtol=1e-5)
    path = str(tmp_path / "k.html")
    assert several_lines.inspect_html(path, SIG, block=128) == path
    page = _check_page(path, several_lines.inspect_asm(SIG), [several_lines.py_func, smooth.py_func], 7)
    if cuda.is_simulator():
        have_ptxas = inspect_html._tool("ptxas") is not None
        assert ("registers per thread" in page.by_id["resources"]) == have_ptxas
        if not have_ptxas:
            assert "unknown" in page.by_id["resources"]
    else:
        regs = several_lines.get_regs_per_thread(SIG)
        assert re.search(r"registers per thread\s*%d\b" % regs, page.by_id["resources"])
        assert "theoretical occupancy, 128 threads a block" in page.by_id["resources"]
    if inspect_html._tool("nvdisasm") or inspect_html._tool("cuobjdump"):
        assert several_lines.__name__ in page.by_id["sass"] or "Function" in page.by_id["sass"]
    else:
        assert "nvdisasm" in page.by_id["sass"]


def test_a_kernel_without_lineinfo_gets_it_for_the_page(tmp_path, rng):
    a = rng.random(200, dtype=np.float32)
    out = np.zeros_like(a)
    no_lineinfo[2, 128](a, out, 3)
    np.testing.assert_allclose(out, (np.exp(a.astype(np.float64) * 2.0) - 3).astype(np.float32), rtol=1e-6, atol=1e-6)
    assert ".loc" not in no_lineinfo.inspect_asm(SIG)
    path = str(tmp_path / "k.html")
    no_lineinfo.inspect_html(path)
    with open(path, encoding="utf-8") as f:
        page = Page(f.read())
    ptx = "\n".join(page.listing)
    assert ".loc" in ptx
    _check_page(path, ptx, [no_lineinfo.py_func], 4)


def empty(x):
    pass


def test_lineinfo_names_the_file_of_an_empty_function(tmp_path):
    """With lineinfo (or debug) the PTX of a function, even an empty one,
    names its source file and starts at its def line (Numba's too), so a
    profiler places the prologue; ptxas takes it."""
    from conftest import assert_ptx_assembles
    line = inspect.getsourcelines(empty)[1]
    for opts in (dict(lineinfo=True), dict(debug=True, opt=False), dict(device=True, lineinfo=True),
                 dict(device=True, debug=True, opt=False)):
        ptx, _ = cuda.compile_ptx(empty, ("float32[::1]",) if not opts.get("device") else ("float32",), **opts)
        assert '.file 1 "%s"' % __file__ in ptx, opts
        assert "\t.loc 1 %d 1\n" % line in ptx, opts
    ptx, _ = cuda.compile_ptx(empty, ("float32[::1]",))
    assert ".file" not in ptx and ".loc" not in ptx
    k = cuda.jit("void(float32[::1])", lineinfo=True)(empty)
    assert_ptx_assembles([k], 1)


@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


def uses_fact(x, n):
    x[0] = fact(n)


def _section(ptx, name):
    m = re.search(r"\.section %s\n\{\n(.*?)\n\}" % re.escape(name), ptx, re.S)
    return m.group(1).split("\n") if m else None


def test_debug_writes_dwarf_naming_each_function(tmp_path):
    """debug=True adds .debug_abbrev and .debug_info: one compile unit (the
    source file and its directory) with a subprogram for the kernel and for
    each function it calls for real, between labels of its first and last
    instruction, at its def line.  The unit's length is its size, ptxas -g
    takes the module and (where readelf is installed) readelf decodes it."""
    import shutil
    import subprocess
    ptx, _ = cuda.compile_ptx(uses_fact, "void(int64[::1], int64)", debug=True, opt=False)
    assert _section(ptx, ".debug_abbrev") is not None
    info = _section(ptx, ".debug_info")
    size = {".b8": 1, ".b32": 4, ".b64": 8}
    assert info[0].startswith(".b32 ") and int(info[0][5:]) == sum(size[w.split()[0]] for w in info[1:])
    data = bytes(int(w.split()[1]) for w in info if w.startswith(".b8 "))
    for name in (b"uses_fact_", b"fact_f0\0", os.path.basename(__file__).encode() + b"\0",
                 os.path.dirname(__file__).encode() + b"\0"):
        assert name in data
    entry = re.search(r"\.entry (\w+)\(", ptx).group(1)
    for f in (entry, "fact_f0"):
        assert "$L__begin_%s:" % f in ptx and "$L__end_%s:" % f in ptx
        assert ".b64 $L__begin_%s\n.b64 $L__end_%s" % (f, f) in ptx
    text, first = inspect.getsourcelines(fact.py_func)
    line = first + next(k for k, t in enumerate(text) if t.startswith("def "))
    assert ".b32 %d\n.b8 1\n.b8 0" % line in ptx        # fact's decl_line, external, the unit's end
    assert ".debug_info" not in cuda.compile_ptx(uses_fact, "void(int64[::1], int64)", lineinfo=True)[0]
    ptxas = shutil.which("ptxas")
    if not ptxas:
        return
    src, obj = tmp_path / "d.ptx", tmp_path / "d.o"
    src.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_90", "-g", "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    readelf = shutil.which("readelf")
    if readelf:
        out = subprocess.run([readelf, "--debug-dump=info", str(obj)], capture_output=True, text=True).stdout
        assert "DW_TAG_compile_unit" in out and out.count("DW_TAG_subprogram") == 2
        assert re.search(r"DW_AT_name\s*: fact_f0", out) and re.search(r"DW_AT_name\s*: %s" % entry, out)


CLI_KERNEL = '''import math
from ptxjit import cuda


@cuda.jit
def scale(x, out, a):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i] * a
        out[i] = math.sin(v) + v
'''


def test_python_and_cli_entry_points_make_the_page(tmp_path):
    src = tmp_path / "kern.py"
    src.write_text(CLI_KERNEL)
    args = [str(src), "--kernel", "scale", "--sig", "void(float64[::1], float64[::1], float64)"]
    ptx_path, page_path = str(tmp_path / "k.ptx"), str(tmp_path / "k.html")
    assert cli.main(args + ["--lineinfo", "-o", ptx_path]) == 0
    assert cli.main(args + ["--html", page_path, "--block", "64"]) == 0
    with open(ptx_path, encoding="utf-8") as f:
        ptx = f.read()
    with open(page_path, encoding="utf-8") as f:
        page = Page(f.read())
    assert page.listing == ptx.splitlines()
    owners = loc_owners(ptx)
    rows = {r[1]: r for r in page.rows}
    lines = CLI_KERNEL.splitlines()
    for ln in range(5, len(lines) + 1):
        assert rows[ln][2] == lines[ln - 1]
        assert [s for s in rows[ln][3].split("\n") if s] == owners.get(ln, [])
    assert len(owners) >= 4
    assert cli.main(args + ["--html", page_path, "--block", "0"]) == 3
