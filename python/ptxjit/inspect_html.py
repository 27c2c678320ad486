"""A kernel as one self-contained HTML page: each source line beside the PTX
instructions its `.loc` directives give it, coloured by how many there are,
the whole PTX with links back, the SASS when the toolkit's nvdisasm or
cuobjdump is installed, and the resources and theoretical occupancy of the
machine code for a block size.

kernel.inspect_html(path) (ptxjit/cuda/dispatcher.py) and
`ptxjitc --html PATH` (ptxjit/cli.py) gather the PTX, the source files and
the resources, and call write_page.  Nothing here needs the driver.
"""

import ast
import html
import linecache
import os
import re
import shutil
import subprocess
import tempfile

_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)")
_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"')
_TARGET = re.compile(r"^\s*\.target\s+(sm_\d+a?)")

# Per multiprocessor: max resident warps, max resident blocks, shared memory
# bytes, registers (CUDA C++ Programming Guide, "Technical Specifications per
# Compute Capability"), by compute capability major*10 + minor.
_SM_LIMITS = {
    75: (32, 16, 65536, 65536), 80: (64, 32, 167936, 65536), 86: (48, 16, 102400, 65536),
    87: (48, 16, 167936, 65536), 89: (48, 24, 102400, 65536), 90: (64, 32, 233472, 65536),
    100: (64, 32, 233472, 65536), 120: (48, 24, 102400, 65536),
}


def is_instruction(text):
    """A PTX line that is an instruction: not a directive, label, brace,
    comment or blank."""
    s = text.strip()
    return bool(s) and not s.startswith(("//", ".", "{", "}")) and not s.endswith(":")


def attribute(ptx):
    """(files, owner, by_line) of PTX text: files maps .file numbers to
    names; owner[i] is the (file, line) the i-th PTX line belongs to (the
    last .loc before it), or None; by_line maps (file, line) to the indices
    of the instruction lines the .loc directives give it."""
    files, owner, by_line = {}, [], {}
    cur = None
    for i, text in enumerate(ptx.splitlines()):
        m = _FILE.match(text)
        if m:
            files[int(m.group(1))] = m.group(2)
        m = _LOC.match(text)
        if m:
            cur = (int(m.group(1)), int(m.group(2)))
        elif text.strip() == "}":
            cur = None
        owner.append(cur)
        if cur is not None and is_instruction(text) and not m:
            by_line.setdefault(cur, []).append(i)
    return files, owner, by_line


def arch_of(ptx):
    for text in ptx.splitlines():
        m = _TARGET.match(text)
        if m:
            return m.group(1)
    return "sm_90"


def _tool(name):
    found = shutil.which(name)
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.isfile(os.path.join(root, "bin", name)):
            return os.path.join(root, "bin", name)
    return None


def _run(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r if r.returncode == 0 else None


def toolkit_view(ptx):
    """(resources, their note, sass, its note) from the toolkit, when
    installed: ptxas -v's registers, shared, local and constant bytes, and
    the SASS of the cubin ptxas makes (nvdisasm, else cuobjdump)."""
    ptxas = _tool("ptxas")
    if ptxas is None:
        why = "ptxas is not installed (the CUDA toolkit's ptxas, nvdisasm and cuobjdump show them)"
        return None, why, None, why
    arch = arch_of(ptx).rstrip("a")
    with tempfile.TemporaryDirectory() as d:
        src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        r = _run([ptxas, "-v", "-lineinfo", "-arch=" + arch, "-o", cubin, src])
        if r is None:
            why = "ptxas could not assemble the PTX for %s" % arch
            return None, why, None, why
        info = r.stdout + r.stderr

        def num(pat):
            m = re.search(pat, info)
            return int(m.group(1)) if m else 0
        res = {"registers per thread": num(r"Used (\d+) registers"),
               "shared memory per block (bytes)": num(r"(\d+) bytes smem"),
               "local memory per thread (bytes)": num(r"(\d+) bytes stack frame"),
               "constant memory (bytes)": num(r"(\d+) bytes cmem\[0\]")}
        sass, note = None, None
        for tool, args in (("nvdisasm", ["-g", "-c"]), ("cuobjdump", ["-sass"])):
            path = _tool(tool)
            out = path and _run([path] + args + [cubin])
            if out:
                sass = out.stdout
                break
        if sass is None:
            note = ("the SASS needs nvdisasm or cuobjdump, which are not installed: install the CUDA "
                    "toolkit's cuda-nvdisasm (or cuda-cuobjdump) package, or set CUDA_HOME to a toolkit")
    return res, "from ptxas -v for %s" % arch, sass, note


def occupancy(cc, regs, smem, block):
    """(blocks per SM, fraction of the SM's warps, what limits it) for a
    1-D block of `block` threads, from the documented per-SM limits."""
    limits = _SM_LIMITS.get(cc) or _SM_LIMITS[max(k for k in _SM_LIMITS if k <= max(cc, 75))]
    max_warps, max_blocks, sm_smem, sm_regs = limits
    warps = -(-block // 32)
    regs_warp = -(-max(regs, 1) * 32 // 256) * 256
    by = {"warps": max_warps // warps, "blocks": max_blocks,
          "registers": sm_regs // (regs_warp * warps) if regs else max_blocks,
          "shared memory": sm_smem // (smem + (1024 if cc >= 80 else 0)) if smem else max_blocks}
    limiter = min(by, key=lambda k: by[k])
    n = by[limiter]
    return n, n * warps / max_warps, limiter


def _source_blocks(files, by_line, kernel):
    """[(file number, name, first line, lines)] to show: every top-level
    def holding a line the PTX names, and the kernel's own def."""
    blocks = []
    for num, name in sorted(files.items()):
        lines = linecache.getlines(name)
        if kernel and kernel[0] == name and kernel[3]:
            lines = kernel[3]
        wanted = {ln for (f, ln) in by_line if f == num}
        if kernel and kernel[0] == name:
            wanted.add(kernel[1])
        spans = []
        try:
            tree = ast.parse("".join(lines))
            for node in tree.body:
                first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
                last = getattr(node, "end_lineno", node.lineno)
                if any(first <= w <= last for w in wanted):
                    spans.append((first, last))
        except (SyntaxError, ValueError):
            pass
        covered = {ln for a, b in spans for ln in range(a, b + 1)}
        spans += [(w, w) for w in sorted(wanted) if w not in covered and 0 < w <= len(lines)]
        for a, b in sorted(spans):
            blocks.append((num, name, a, [lines[k - 1].rstrip("\n") for k in range(a, b + 1)]))
    return blocks


_STYLE = """
body{font-family:sans-serif;margin:1em 2em;color:#222}
h1{font-size:1.3em} h2{font-size:1.1em;margin-top:1.5em}
table{border-collapse:collapse} td,th{padding:1px 6px;vertical-align:top;text-align:left}
table.res td,table.res th{border:1px solid #ccc}
table.src tr{border-top:1px solid #eee}
td.n,td.c{text-align:right;color:#777;font-family:monospace}
td.code pre,td.ptx pre,pre.listing{margin:0;font-family:monospace;font-size:12px;white-space:pre}
td.ptx pre{color:#335}
pre.listing span{display:block} pre.listing a{color:#999;text-decoration:none}
tr:target,span:target,.hi{background:#ffe98a !important}
p.note{color:#a40}
"""

_SCRIPT = """
document.querySelectorAll('tr[data-key]').forEach(function(r){
 r.addEventListener('mouseenter',function(){document.querySelectorAll('span.'+r.dataset.key)
  .forEach(function(s){s.classList.add('hi')})});
 r.addEventListener('mouseleave',function(){document.querySelectorAll('span.hi')
  .forEach(function(s){s.classList.remove('hi')})});});
"""


def render(title, ptx, kernel=None, resources=None, resources_note="", block=256, cc=None,
           sass=None, sass_note=None):
    """The page as a string.  kernel: (file, def line, name, file lines or
    None); resources: a dict of name -> number (registers per thread and
    shared memory per block used for the occupancy)."""
    esc = html.escape
    files, owner, by_line = attribute(ptx)
    ptx_lines = ptx.splitlines()
    counts = [len(v) for v in by_line.values()]
    top = max(counts) if counts else 1
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>%s</title><style>%s</style></head><body>"
           % (esc(title), _STYLE), "<h1>%s</h1>" % esc(title)]
    out.append("<h2>Resources</h2>")
    if resources:
        out.append("<table class='res' id='resources'>")
        for k, v in resources.items():
            out.append("<tr><th>%s</th><td>%s</td></tr>" % (esc(k), esc(str(v))))
        if cc:
            n, frac, lim = occupancy(cc, resources.get("registers per thread", 0),
                                     resources.get("shared memory per block (bytes)", 0), block)
            out.append("<tr><th>theoretical occupancy, %d threads a block</th><td>%d%% (%d blocks an SM, "
                       "limited by %s)</td></tr>" % (block, round(100 * frac), n, esc(lim)))
        out.append("</table><p>%s</p>" % esc(resources_note))
    else:
        out.append("<p class='note' id='resources'>Registers, memory and occupancy are unknown: %s.</p>" % esc(resources_note))
    out.append("<h2>Source and PTX</h2><p>Each source line with the PTX instructions its <code>.loc</code> "
               "directives give it; the shade grows with their number. Hover a line to mark its "
               "instructions in the whole PTX below; the count links to the first.</p>")
    for num, name, first, lines in _source_blocks(files, by_line, kernel):
        out.append("<h3>%s, lines %d to %d</h3><table class='src'>" % (esc(name), first, first + len(lines) - 1))
        for k, text in enumerate(lines):
            ln = first + k
            mine = by_line.get((num, ln), [])
            shade = "background:rgba(230,120,40,%.2f)" % (0.08 + 0.6 * len(mine) / top) if mine else ""
            key = "f%dl%d" % (num, ln)
            link = "<a href='#ptx-%d'>%d</a>" % (mine[0] + 1, len(mine)) if mine else ""
            body = "\n".join(ptx_lines[i].strip() for i in mine)
            out.append("<tr id='src-%s' data-key='%s' data-file='%s' data-line='%d' style='%s'>"
                       "<td class='n'>%d</td><td class='c'>%s</td><td class='code'><pre>%s</pre></td>"
                       "<td class='ptx'><pre>%s</pre></td></tr>"
                       % (key, key, esc(name), ln, shade, ln, link, esc(text), esc(body)))
        out.append("</table>")
    out.append("<h2>The whole PTX</h2><pre class='listing' id='ptx'>")
    for i, text in enumerate(ptx_lines):
        key = "f%dl%d" % owner[i] if owner[i] else ""
        back = "<a href='#src-%s'>%4d</a> " % (key, i + 1) if key else "<a>%4d</a> " % (i + 1)
        out.append("<span id='ptx-%d' class='%s'>%s%s</span>" % (i + 1, key, back, esc(text)))
    out.append("</pre><h2>SASS</h2>")
    if sass:
        out.append("<pre class='listing' id='sass'>%s</pre>" % esc(sass))
    else:
        out.append("<p class='note' id='sass'>No SASS: %s.</p>" % esc(sass_note or "unknown"))
    out.append("<script>%s</script></body></html>" % _SCRIPT)
    return "\n".join(out)


def write_page(path, title, ptx, kernel=None, resources=None, resources_note="", block=256, cc=None):
    """Writes the page; the toolkit (when installed) adds the SASS, and the
    resources where none are given."""
    res, res_note, sass, note = toolkit_view(ptx)
    if resources is None:
        resources, resources_note = res, res_note
        cc = cc or int(arch_of(ptx)[3:].rstrip("a"))
    if not resources:
        cc = None
    text = render(title, ptx, kernel, resources, resources_note, block, cc, sass, note)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path
