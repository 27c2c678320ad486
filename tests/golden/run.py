#!/usr/bin/env python3
"""Golden tests for the ptxjitc command.

Three kinds of golden test live beside this file:

  kernels/NAME.py   A kernel file in Numba's dialect.  Header comment lines
                    say how to compile it:
                        # kernel: NAME         (needed when the file has several kernels)
                        # sig: void(float32[::1], float32[::1])
                        # golden: ast, opt     (optional: compare --dump ast / --dump opt)
                    Several "# kernel:"/"# sig:" pairs make several entries.
                    Each entry is compiled for sm_90 (with --sim, so that the
                    simulator's program is built too) and sm_75, and the PTX
                    is given to `ptxas` for both architectures (ptxjitc gets
                    --driver with ptxas's CUDA release, so that the PTX
                    .version is one this ptxas accepts).

  errors/NAME.py    A kernel that must be refused with a user error:
                        # sig: ...             (and # kernel: when needed)
                        # error: fragment      the message must contain it
                        # line: N              the line the message must name
                        # flags: --sim         more ptxjitc options (--sim: the
                                               simulator's lowering too)
                        # where: signature     the error is in the signature: the
                                               message shows it with a caret, or
                                               points at the kernel's def
                    ptxjitc must exit with status 1, and its stderr must be
                    exactly errors/NAME.err.  Every message must start with
                    "errors/NAME.py:LINE:COL: error: ", show the source line
                    with a caret under it, and give a "hint:" line.

  Any test file may say "# xfail: REASON": a known failure that is reported
  (XFAIL) but not counted as failed; once it passes it is reported as XPASS
  and counted as failed, so that the line gets removed.

  ast/NAME.ast      `--dump ast` of kernels/NAME.py (files that say "# golden: ast")
  ir/NAME.ir        `--dump opt` of kernels/NAME.py (files that say "# golden: opt")

--same-as OTHER compiles every kernel entry with a second ptxjitc too (one
built by another C compiler, at another optimisation level) and requires
the same IR and the same PTX, byte for byte: the compiler's output must
not depend on what built it (C leaves, for one, the order in which a
call's arguments are evaluated to the C compiler).

ptxjitc runs with tests/golden as its working directory and relative file
names, so the messages and dumps do not depend on where the checkout is.

    python3 tests/golden/run.py --ptxjitc build/ptxjitc [--update] [--same-as OTHER] [-j N] [FILTER...]

--update rewrites the .err, .ast and .ir files from what ptxjitc prints now
(review the diff before committing).  The last line of the output is always
"golden: N passed, N failed"; the exit status is 1 when anything failed.
"""

import argparse
import concurrent.futures
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARCHS = ("sm_90", "sm_75")
TIMEOUT = 60          # seconds for any one command; more means a hang
HEADER = re.compile(r"^#\s*(sig|kernel|error|line|where|golden|xfail|flags)\s*:\s*(.*?)\s*$")
DEF = re.compile(r"^def\s+([A-Za-z_][A-Za-z_0-9]*)\s*\(")
DUMPS = {"ast": ("ast", ".ast"), "opt": ("ir", ".ir")}


class Entry:
    """One thing to compile: a file, a kernel name and a signature."""

    def __init__(self, rel, kernel, sig, meta):
        self.rel = rel            # path relative to tests/golden
        self.kernel = kernel
        self.sig = sig
        self.meta = meta          # the file's other header values

    @property
    def name(self):
        return os.path.splitext(os.path.basename(self.rel))[0]

    def label(self):
        return "%s [%s%s]" % (self.rel, self.kernel, ", " + self.sig if self.sig else "")

    def stem(self):
        """A name for this entry's files, different for each kernel and
        signature: the entries run in parallel, and two signatures of one
        kernel must not write one file."""
        return "%s.%s.%08x" % (self.name, self.kernel, zlib.crc32(self.sig.encode()))


def read_headers(path):
    """Returns the header (key, value) pairs of a file, in order."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                out.append((m.group(1), m.group(2)))
    return out


def kernel_defs(path):
    """Names of the top-level defs decorated as kernels (not device=True)."""
    names = []
    decos = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("@"):
                decos.append(line)
                continue
            m = DEF.match(line)
            if m:
                if any("jit" in d for d in decos) and not any("device=True" in d for d in decos):
                    names.append(m.group(1))
            if line.strip() and not line.startswith("@"):
                decos = []
    return names


def entries_of(rel):
    """The entries of one test file, or a string saying what is wrong."""
    path = os.path.join(HERE, rel)
    heads = read_headers(path)
    meta = {}
    pairs = []
    cur = {}
    for key, val in heads:
        if key == "kernel":
            if "kernel" in cur:
                pairs.append(cur)
                cur = {}
            cur["kernel"] = val
        elif key == "sig":
            if "sig" in cur:
                pairs.append(cur)
                cur = {"kernel": cur.get("kernel")}
            cur["sig"] = val
        else:
            meta.setdefault(key, []).append(val)
    if cur:
        pairs.append(cur)
    if not pairs or any("sig" not in p for p in pairs):
        return "%s: no '# sig:' header line for every kernel" % rel
    out = []
    for p in pairs:
        k = p.get("kernel")
        if not k:
            defs = kernel_defs(path)
            if len(defs) != 1:
                return "%s: %d kernels (%s); name one with '# kernel:'" % (rel, len(defs), ", ".join(defs))
            k = defs[0]
        out.append(Entry(rel, k, p["sig"], meta))
    return out


def run(cmd, cwd=HERE):
    """Runs a command; returns (rc, stdout, stderr), rc None on a timeout."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % TIMEOUT
    except OSError as e:
        return 127, "", str(e)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def describe_rc(rc):
    if rc is None:
        return "hung (timed out after %d s)" % TIMEOUT
    if rc < 0:
        return "crashed (signal %d)" % -rc
    return "exit status %d" % rc


def diff(expected, got, a="expected", b="got"):
    lines = difflib.unified_diff(expected.splitlines(True), got.splitlines(True), a, b)
    text = "".join(l if l.endswith("\n") else l + "\n" for l in lines)
    return text or "(texts differ only in line endings)\n"


def indent(text, pre="    "):
    return "".join(pre + l + "\n" for l in text.rstrip("\n").split("\n"))


def ptxas_driver(ptxas):
    """The CUDA release of ptxas in cuDriverGetVersion's form (12040 for
    12.4), so that ptxjitc writes a .version this ptxas knows; 0 if unknown."""
    rc, so, se = run([ptxas, "--version"])
    m = re.search(r"release (\d+)\.(\d+)", so + se) if rc == 0 else None
    return int(m.group(1)) * 1000 + int(m.group(2)) * 10 if m else 0


class Runner:
    def __init__(self, args):
        self.ptxjitc = args.ptxjitc
        self.twin = os.path.abspath(args.same_as) if args.same_as else None
        self.ptxas = args.ptxas
        self.driver = ptxas_driver(args.ptxas) if args.ptxas else 0
        self.update = args.update
        self.tmp = tempfile.mkdtemp(prefix="ptxjit-golden-")

    def compile_cmd(self, e, *extra):
        flags = [f for line in e.meta.get("flags", []) for f in line.split()]
        return [self.ptxjitc, e.rel, "--kernel", e.kernel, "--sig", e.sig] + flags + list(extra)

    # kernels/: compile for every arch, validate with ptxas
    def check_kernel(self, e):
        problems = []
        for arch in ARCHS:
            out = os.path.join(self.tmp, "%s.%s.ptx" % (e.stem(), arch))
            cmd = self.compile_cmd(e, "--arch", arch, "-o", out)
            if self.driver:
                cmd[-2:-2] = ["--driver", str(self.driver)]
            if arch == ARCHS[0]:
                cmd[-2:-2] = ["--sim"]      # the simulator's lowering too
            rc, so, se = run(cmd)
            if rc != 0:
                problems.append("ptxjitc %s (%s):\n    $ %s\n%s" % (
                    describe_rc(rc), arch, " ".join(cmd), indent(se or so or "(no output)")))
                break
            try:
                with open(out, encoding="utf-8", errors="replace") as f:
                    ptx = f.read()
            except OSError:
                problems.append("ptxjitc exited 0 but wrote no %s" % out)
                break
            if ".entry" not in ptx:
                problems.append("PTX for %s has no .entry" % arch)
                continue
            if self.ptxas:
                pcmd = [self.ptxas, "-arch=" + arch, out, "-o", os.devnull]
                rc, so, se = run(pcmd)
                if rc != 0:
                    problems.append("ptxas -arch=%s rejected the PTX (%s):\n%s    PTX kept at %s" % (
                        arch, describe_rc(rc), indent(se or so), out))
        if self.twin and not problems:
            problems += self.check_twin(e)
        return problems

    def check_twin(self, e):
        """The IR before and after optimisation and the PTX, from ptxjitc and
        from the --same-as one: they must be the same."""
        got = []
        for exe in (self.ptxjitc, self.twin):
            cmd = [exe] + self.compile_cmd(e, "--dump", "ir,opt")[1:]
            rc, so, se = run(cmd)
            if rc != 0:
                return ["%s: %s\n    $ %s\n%s" % (exe, describe_rc(rc), " ".join(cmd), indent(se or so))]
            got.append((so, se))
        if got[0] == got[1]:
            return []
        which = "PTX" if got[0][0] != got[1][0] else "IR dump"
        text = diff(got[0][0] + got[0][1], got[1][0] + got[1][1], self.ptxjitc, self.twin)
        lines = text.split("\n")
        return ["the %s differs from --same-as %s's (%d diff lines, the first 40):\n%s" % (
            which, self.twin, len(lines), indent("\n".join(lines[:40])))]

    # errors/: exit status 1, the exact message, its shape
    def check_error(self, e):
        path = os.path.join(HERE, e.rel)
        golden = os.path.splitext(path)[0] + ".err"
        out = os.path.join(self.tmp, e.stem() + ".err.ptx")
        cmd = self.compile_cmd(e, "-o", out)
        rc, so, se = run(cmd)
        problems = []
        if rc != 1:
            problems.append("expected exit status 1 (user error), got %s:\n    $ %s\n%s" % (
                describe_rc(rc), " ".join(cmd), indent(se or so or "(no output)")))
            return problems
        for frag in e.meta.get("error", []):
            if frag not in se:
                problems.append("message lacks %r:\n%s" % (frag, indent(se)))
        problems += self.message_shape(e, se)
        if self.update and not problems:
            write_if_changed(golden, se)
            return []
        try:
            with open(golden, encoding="utf-8") as f:
                want = f.read()
        except OSError:
            problems.append("no golden %s (run with --update, then review it):\n%s" % (
                os.path.relpath(golden, ROOT), indent(se)))
            return problems
        if se != want:
            problems.append("message differs from %s:\n%s" % (
                os.path.relpath(golden, ROOT), indent(diff(want, se))))
        return problems

    def message_shape(self, e, msg):
        """file:line:col: error: ..., the source line, a caret, a hint."""
        problems = []
        lines = msg.rstrip("\n").split("\n")
        if "signature" in e.meta.get("where", []) and not lines[0].startswith(e.rel + ":"):
            # an error in the --sig text: shown with a caret under it
            if not re.match(r"^.*: error: \S", lines[0]):
                problems.append("first line is not '...: error: ...':\n%s" % indent(msg))
            if not any(e.sig in l for l in lines[1:]) or \
                    not any(re.match(r"^\s*\^~*\s*$", l) for l in lines):
                problems.append("message does not show the signature with a caret under it:\n%s" % indent(msg))
            if not any(l.startswith("hint: ") for l in lines):
                problems.append("message gives no 'hint:' line saying what is supported:\n%s" % indent(msg))
            return problems
        m = re.match(r"^(.*?):(\d+):(\d+): error: \S", lines[0])
        if not m or m.group(1) != e.rel:
            problems.append("first line is not '%s:LINE:COL: error: ...':\n%s" % (e.rel, indent(msg)))
            return problems
        line, col = int(m.group(2)), int(m.group(3))
        for want in e.meta.get("line", []):
            if int(want) != line:
                problems.append("message names line %d, the error is on line %s:\n%s" % (
                    line, want, indent(msg)))
        src = open(os.path.join(HERE, e.rel), encoding="utf-8").read().split("\n")
        text = src[line - 1] if 0 < line <= len(src) else None
        caret = [i for i, l in enumerate(lines) if re.match(r"^\s*\^~*\s*$", l)]
        if text is None or len(lines) < 3 or text.strip() not in lines[1] or not caret:
            problems.append("message does not show the source line with a caret under it:\n%s" % indent(msg))
        else:
            # the caret's column in the message must be the column in the file
            shift = lines[1].index(text) if text in lines[1] else None
            cpos = lines[caret[0]].index("^")
            if shift is not None and cpos - shift + 1 != col:
                problems.append("caret is under column %d, the message says column %d:\n%s" % (
                    cpos - shift + 1, col, indent(msg)))
            elif shift is not None:
                # as a terminal shows it: tabs in the source line must not
                # move the character away from the caret
                seen = len(lines[1][:shift + col - 1].expandtabs())
                if len(lines[caret[0]][:cpos].expandtabs()) != seen:
                    problems.append("the caret is not under column %d when tabs are expanded "
                                    "(the source line has tabs, the caret line has not):\n%s" % (
                                        col, indent(msg.expandtabs())))
        if not any(l.startswith("hint: ") for l in lines):
            problems.append("message gives no 'hint:' line saying what is supported:\n%s" % indent(msg))
        return problems

    # ast/, ir/: dumps
    def check_dump(self, e, what):
        folder, ext = DUMPS[what]
        golden = os.path.join(HERE, folder, e.name + ext)
        cmd = self.compile_cmd(e, "--dump", what, "-o", os.path.join(self.tmp, "%s.%s.ptx" % (e.stem(), what)))
        rc, so, se = run(cmd)
        if rc != 0:
            return ["ptxjitc --dump %s: %s\n    $ %s\n%s" % (what, describe_rc(rc), " ".join(cmd),
                                                             indent(se or so or "(no output)"))]
        got = so if so.strip() else se
        if not got.strip():
            return ["ptxjitc --dump %s printed nothing" % what]
        if self.update:
            write_if_changed(golden, got)
            return []
        try:
            with open(golden, encoding="utf-8") as f:
                want = f.read()
        except OSError:
            return ["no golden %s (run with --update, then review it)" % os.path.relpath(golden, ROOT)]
        if got != want:
            return ["--dump %s differs from %s:\n%s" % (what, os.path.relpath(golden, ROOT),
                                                       indent(diff(want, got)))]
        return []


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print("updated %s" % os.path.relpath(path, ROOT))


def find_ptxas(explicit):
    if explicit:
        return explicit
    p = shutil.which("ptxas")
    if p:
        return p
    for d in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if d and os.access(os.path.join(d, "bin", "ptxas"), os.X_OK):
            return os.path.join(d, "bin", "ptxas")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxjitc", default=os.path.join(ROOT, "build", "ptxjitc"))
    ap.add_argument("--ptxas", help="ptxas to validate the PTX with (default: PATH, then /usr/local/cuda/bin)")
    ap.add_argument("--no-ptxas", action="store_true", help="do not validate the PTX")
    ap.add_argument("--update", action="store_true", help="rewrite the .err/.ast/.ir goldens")
    ap.add_argument("--same-as", metavar="OTHER", help="a second ptxjitc that must write the same IR and PTX")
    ap.add_argument("-j", "--jobs", type=int, default=max(2, os.cpu_count() or 2))
    ap.add_argument("-l", "--list", action="store_true", help="list the tests and exit")
    ap.add_argument("filters", nargs="*", help="run only tests whose file name contains one of these")
    args = ap.parse_args()

    args.ptxjitc = os.path.abspath(args.ptxjitc)
    if not os.access(args.ptxjitc, os.X_OK):
        print("golden: %s is not an executable; build it with `make cli`" % args.ptxjitc)
        print("golden: 0 passed, 1 failed")
        return 1
    args.ptxas = None if args.no_ptxas else find_ptxas(args.ptxas)
    if args.no_ptxas:
        print("golden: PTX validation skipped (--no-ptxas)")
    elif not args.ptxas:
        print("golden: PTX validation skipped: ptxas is not on PATH nor in /usr/local/cuda/bin "
              "(install the CUDA toolkit, or pass --ptxas); the PTX is only checked to be produced")

    def chosen(rel):
        return not args.filters or any(f in rel for f in args.filters)

    tests = []        # (label, function, args)
    bad = []          # malformed test files
    for folder, kind in (("kernels", "kernel"), ("errors", "error")):
        d = os.path.join(HERE, folder)
        for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if not fn.endswith(".py"):
                continue
            rel = folder + "/" + fn
            if not chosen(rel):
                continue
            es = entries_of(rel)
            if isinstance(es, str):
                bad.append(es)
                continue
            if kind == "error":
                if not es[0].meta.get("error"):
                    bad.append("%s: no '# error:' header line" % rel)
                    continue
                tests.append(("error " + es[0].label(), "check_error", (es[0],)))
                continue
            for e in es:
                tests.append(("kernel " + e.label(), "check_kernel", (e,)))
            for g in es[0].meta.get("golden", []):
                for what in re.split(r"[,\s]+", g.strip()):
                    if what not in DUMPS:
                        bad.append("%s: '# golden: %s' (known: %s)" % (rel, what, ", ".join(DUMPS)))
                        continue
                    tests.append(("dump %s %s" % (what, es[0].label()), "check_dump", (es[0], what)))
    # goldens whose source is gone
    for folder, ext in DUMPS.values():
        d = os.path.join(HERE, folder)
        for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if fn.endswith(ext) and not os.path.exists(os.path.join(HERE, "kernels", fn[:-len(ext)] + ".py")):
                bad.append("%s/%s: no kernels/%s.py" % (folder, fn, fn[:-len(ext)]))
    d = os.path.join(HERE, "errors")
    for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if fn.endswith(".err") and not os.path.exists(os.path.join(d, fn[:-4] + ".py")):
            bad.append("errors/%s: no errors/%s.py" % (fn, fn[:-4]))

    if args.list:
        for label, _, _ in tests:
            print(label)
        return 0

    runner = Runner(args)
    failed = 0
    passed = 0
    xfailed = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = [ex.submit(getattr(runner, fn), *a) for _, fn, a in tests]
            for (label, _, a), fut in zip(tests, futs):
                try:
                    problems = fut.result()
                except Exception as exc:  # a bug in this script: report it as a failure
                    problems = ["runner error: %r" % exc]
                xfail = a[0].meta.get("xfail")
                if xfail and problems:
                    xfailed += 1
                    print("XFAIL %s (%s)" % (label, xfail[0]))
                    continue
                if xfail:
                    failed += 1
                    print("XPASS %s: passes now; remove its '# xfail:' line" % label)
                    continue
                if problems:
                    failed += 1
                    print("FAIL %s" % label)
                    for p in problems:
                        print(indent(p.rstrip("\n"), "  "), end="")
                else:
                    passed += 1
    finally:
        if not failed:
            shutil.rmtree(runner.tmp, ignore_errors=True)
        else:
            print("golden: PTX and outputs of failed tests kept under %s" % runner.tmp)
    for b in bad:
        failed += 1
        print("FAIL %s" % b)
    if xfailed:
        print("golden: %d known failures (# xfail) not counted" % xfailed)
    print("golden: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
