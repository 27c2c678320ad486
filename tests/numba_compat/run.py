#!/usr/bin/env python3
"""numba-cuda's own tests (cudapy/, or cudadrv/ with --suite), run against ptxjit.

    python3 tests/numba_compat/run.py                # every file, on the simulator
    python3 tests/numba_compat/run.py --gpu          # on the GPU
    python3 tests/numba_compat/run.py test_laplace test_warp_ops
    python3 tests/numba_compat/run.py --results tests/numba_compat/RESULTS.md
    python3 tests/numba_compat/run.py --suite cudadrv --results tests/numba_compat/RESULTS_cudadrv.md

The test files are read from the installed numba-cuda wheel
(numba_cuda/numba/cuda/tests/{cudapy,cudadrv}/test_*.py), never copied here.  By
default they run in build-ci/compat-venv, made on first use from
pyproject.toml's `compat` extra (numba and numba-cuda pinned: test-only);
--current-env uses this Python instead.  `numba.cuda` is ptxjit there
(compat_shim.py): a name ptxjit lacks raises an error that names it.

Each file runs in a process of its own (pytest with compat_plugin), with a
time limit per test (pytest-timeout) and one per file.  Every test that does
not pass is put in a class (classify()); a test counts as passed only if
ptxjit compiled, loaded or allocated something during it, and the tests of
Numba's internals are those internals.txt lists.  The score is
passed / (passed + real gaps), where real gaps are the failures, errors and
time-outs outside internals.txt.
"""

import argparse
import ast
import collections
import concurrent.futures
import datetime
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(ROOT, "build-ci", "compat-venv")


SUITES = ("cudapy", "cudadrv")


def requirements():
    """pyproject.toml's `compat` extra: the pinned test-only dependencies."""
    text = open(os.path.join(ROOT, "pyproject.toml")).read()
    m = re.search(r"^compat\s*=\s*\[(.*?)\]", text, re.M | re.S)
    return re.findall(r'"([^"]+)"', m.group(1))


def venv_python():
    """build-ci/compat-venv's Python, made or brought up to the compat extra
    (ptxjit itself is not installed there: the in-place build is used)."""
    py = os.path.join(VENV, "bin", "python")
    stamp = os.path.join(VENV, "requirements.stamp")
    want = "\n".join(requirements()) + "\n"
    if os.path.exists(py) and os.path.exists(stamp) and open(stamp).read() == want:
        return py
    subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", *requirements()], check=True)
    with open(stamp, "w") as f:
        f.write(want)
    return py


def ask(py, code):
    return subprocess.run([py, "-c", code], check=True, capture_output=True, text=True).stdout.strip()


def count_tests(path):
    """The test methods a file defines (a parametrized test counts once):
    what a file that does not import stands for."""
    tree = ast.parse(open(path).read())
    n = 0
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            n += sum(1 for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and f.name.startswith("test"))
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            n += 1
    return n


def load_internals():
    """internals.txt: (pattern, reason); a pattern is FILE::CLASS::TEST with
    shell wildcards, or a FILE alone."""
    out = []
    for line in open(os.path.join(HERE, "internals.txt")):
        line = line.split("#", 1)[0].rstrip() if line.lstrip().startswith("#") else line.rstrip()
        if not line.strip():
            continue
        pat, _, reason = line.partition(" ")
        if "::" not in pat:
            pat += "::*"
        out.append((pat, reason.strip()))
    return out


def internal_reason(internals, file, test):
    key = file + "::" + test
    for pat, reason in internals:
        if fnmatch.fnmatchcase(key, pat):
            return reason
    return None


def first_line(msg):
    for line in msg.splitlines():
        if line.strip():
            return line.strip()
    return ""


_LOC = re.compile(r"^\S+:\d+:\d+: error: ")
_ATTR = re.compile(r"(?:module '([\w.]+)'|'(\w+)' object|type object '(\w+)') has no attribute '(\w+)'")


def classify(rec, internals, file):
    """(class, detail) of one test that did not pass."""
    exc = rec.get("exc") or {}
    etype, msg = exc.get("type", ""), exc.get("message", "")
    reason = internal_reason(internals, file, rec["test"])
    if reason is not None:
        return "tests of Numba internals (internals.txt)", reason
    if rec["outcome"] == "timeout" or (etype == "Failed" and msg.startswith("Timeout")):
        return "crash or time-out", rec.get("detail") or "per-test time limit"
    if rec["outcome"] == "crash":
        return "crash or time-out", rec.get("detail", "")
    if etype == "MissingModule" and "has no attribute" in msg:
        return "missing API name", first_line(msg).split(":")[0]
    if etype == "MissingModule" or (etype == "ModuleNotFoundError" and "numba.cuda" in msg):
        return "missing numba.cuda module", first_line(msg).split(":")[0]
    m = re.search(r"cannot import name '(\w+)' from '([\w.]+)'", msg)
    if etype == "ImportError" and m:
        return "missing API name", m.group(2) + "." + m.group(1)
    if etype == "MissingName":
        return "missing API name", first_line(msg).split(":")[0]
    if etype == "AttributeError":
        m = _ATTR.search(msg)
        if m:
            owner = m.group(1) or m.group(2) or m.group(3)
            return "missing API name", owner + "." + m.group(4)
        return "other error", "AttributeError: " + first_line(msg)[:100]
    if etype == "SourceNotFoundError":
        return "source not found (exec-generated function)", ""
    if etype in ("TypingError", "CompileError") and exc.get("module", "").startswith("ptxjit"):
        text = _LOC.sub("", first_line(msg))
        text = re.sub(r"'[^']*'", "'…'", text)
        return "unsupported language feature (compiler's message)", text[:140]
    if etype in ("AssertionError", "Failed") or etype.startswith("Assertion"):
        return "wrong result or behaviour (assertion)", first_line(msg)[:120]
    where = "ptxjit" if any("/ptxjit/" in f for f, _ in exc.get("frames", [])[-2:]) else "test"
    return "other error", "%s (raised in %s): %s" % (etype, where, first_line(msg)[:100])


def run_file(py, path, args, tmp):
    stem = os.path.basename(path)[:-3]
    out = os.path.join(tmp, stem + ".jsonl")
    env = dict(os.environ)
    # a PYTHONPATH already set (make asan-py's instrumented copy) comes before the checkout
    env["PYTHONPATH"] = os.pathsep.join([HERE] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
                                        + [os.path.join(ROOT, "python")])
    env["COMPAT_OUT"] = out
    env["PTXJIT_NUMBA_SHIM"] = "1"          # sitecustomize.py: subprocesses of the tests too
    if args.gpu:
        env.pop("PTXJIT_SIM", None)
    else:
        env["PTXJIT_SIM"] = "1"
    ini = os.path.join(tmp, "pytest.ini")     # written by main()
    cmd = [py, "-m", "pytest", "-p", "compat_plugin", "-p", "no:cacheprovider", "-q",
           "--timeout=%d" % args.timeout, "--rootdir", tmp, "-c", ini, path]
    status, tail = 0, ""
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.file_timeout, cwd=tmp)
        status, tail = p.returncode, (p.stdout + p.stderr)[-1500:]
    except subprocess.TimeoutExpired:
        status, tail = "file-timeout", ""
    recs, collect_err = [], None
    if os.path.exists(out):
        for line in open(out):
            r = json.loads(line)
            if "collect_error" in r:
                collect_err = r["collect_error"]
            elif "collect_skip" in r:
                recs += [{"test": "<skipped module %d>" % i, "activity": 0, "outcome": "skipped",
                          "reason": r["collect_skip"]} for i in range(max(count_tests(path), 1))]
            else:
                recs.append(r)
    return recs, collect_err, status, tail


_COLLECT = re.compile(r"^E\s+(\w+(?:\.\w+)*): (.*)$", re.M)


def file_records(path, recs, collect_err, status, tail):
    """The file's records, with stand-ins for the tests that never reported:
    those of a file that did not import, or that the file's time limit or a
    crash cut off."""
    n = count_tests(path)
    if collect_err and not recs:
        m = list(_COLLECT.finditer(collect_err))
        etype, msg = (m[-1].group(1).rsplit(".", 1)[-1], m[-1].group(2)) if m else ("ImportError", collect_err)
        return [{"test": "<import %d>" % i, "activity": 0, "outcome": "error",
                 "exc": {"type": etype, "module": "ptxjit" if "ptxjit" in collect_err else "",
                         "message": msg, "frames": []}} for i in range(max(n, 1))]
    missing = max(n - len(recs), 0) if status not in (0, 1) else 0
    if missing:
        how = "file time limit" if status == "file-timeout" else \
            "process ended with status %s: %s" % (status, first_line(tail.strip().splitlines()[-1] if tail.strip() else ""))
        recs = recs + [{"test": "<unreported %d>" % i, "activity": 0, "outcome": "crash", "detail": how}
                       for i in range(missing)]
    return recs


def summarize(results, internals):
    """Per-file counts and the classification of every test that did not pass."""
    table, classes, details, skips, idle = [], collections.Counter(), collections.defaultdict(collections.Counter), \
        collections.Counter(), []
    for file, recs in results:
        c = collections.Counter()
        for r in recs:
            o = r["outcome"]
            if o == "passed" and r["activity"] > 0:
                c["passed"] += 1
                continue
            if o == "passed":
                c["no ptxjit"] += 1
                idle.append(file + "::" + r["test"])
                continue
            if o in ("skipped", "xfailed"):
                c["skipped"] += 1
                skips[(r.get("reason") or o)[:90]] += 1
                continue
            cls, detail = classify(r, internals, file)
            if cls.startswith("tests of Numba internals"):
                c["internals"] += 1
            elif cls == "crash or time-out":
                c["timed out"] += 1
            elif o == "failed":
                c["failed"] += 1
            else:
                c["errors"] += 1
            classes[cls] += 1
            details[cls][detail] += 1
        table.append((file, c))
    return table, classes, details, skips, idle


COLS = ["passed", "failed", "errors", "timed out", "skipped", "internals", "no ptxjit"]


def report(table, classes, details, skips, idle, meta):
    tot = collections.Counter()
    for _, c in table:
        tot.update(c)
    gaps = sum(v for k, v in classes.items() if not k.startswith("tests of Numba internals"))
    score = 100.0 * tot["passed"] / max(tot["passed"] + gaps, 1)
    L = ["# numba-cuda's %s tests under ptxjit" % meta.get("suite", "cudapy"), ""]
    L += ["- date: %s" % meta["date"], "- ptxjit commit: %s" % meta["commit"],
          "- numba %s, numba-cuda %s, Python %s" % (meta["numba"], meta["numba_cuda"], meta["python"]),
          "- target: %s; limits: %d s a test, %d s a file" % (meta["target"], meta["timeout"], meta["file_timeout"]),
          "- command: `make numba-compat` (tests/numba_compat/run.py)", ""]
    L += ["## Summary", "",
          "**%d passed of %d (passed + real gaps): %.1f%%.** %d tests of Numba internals (internals.txt), "
          "%d skipped, %d passed without any ptxjit activity (not counted)."
          % (tot["passed"], tot["passed"] + gaps, score, tot["internals"], tot["skipped"], tot["no ptxjit"]), "",
          "A file that does not import counts as many tests as it defines (a parametrized test once).", ""]
    L += ["## Classes of the tests that did not pass", "", "| class | tests |", "|---|---:|"]
    for cls, n in classes.most_common():
        L.append("| %s | %d |" % (cls, n))
    L += ["", "## Most frequent causes", "", "| class | cause | tests |", "|---|---|---:|"]
    rows = [(n, cls, d) for cls, ds in details.items() for d, n in ds.items()
            if not cls.startswith("tests of Numba internals")]
    for n, cls, d in sorted(rows, key=lambda r: (-r[0], r[1], r[2]))[:40]:
        L.append("| %s | %s | %d |" % (cls, d.replace("|", "\\|") or "-", n))
    L += ["", "## Per file", "", "| file | " + " | ".join(COLS) + " |", "|---|" + "---:|" * len(COLS)]
    for file, c in table:
        L.append("| %s | %s |" % (file, " | ".join(str(c[k]) for k in COLS)))
    L.append("| **all** | %s |" % " | ".join("**%d**" % tot[k] for k in COLS))
    L += ["", "## Skip reasons", "", "| reason | tests |", "|---|---:|"]
    for r, n in skips.most_common(15):
        L.append("| %s | %d |" % (r.replace("|", "\\|"), n))
    if idle:
        L += ["", "## Passed without ptxjit activity", ""] + ["- " + t for t in idle]
    return "\n".join(L) + "\n", score


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", help="test file names (test_x or test_x.py); default: all")
    ap.add_argument("--gpu", action="store_true", help="run on the GPU (default: PTXJIT_SIM=1)")
    ap.add_argument("--suite", default="cudapy", choices=SUITES,
                    help="numba-cuda's test folder: cudapy (the kernel language and its API, the "
                    "default) or cudadrv (the driver-level host API); a cudadrv file is named "
                    "cudadrv/test_x in the records")
    ap.add_argument("--current-env", action="store_true", help="use this Python, not build-ci/compat-venv")
    ap.add_argument("--timeout", type=int, default=60, help="seconds a test (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="files run at once (default 1)")
    ap.add_argument("--file-timeout", type=int, default=600, help="seconds a file (default 600)")
    ap.add_argument("--results", help="write the Markdown table here")
    ap.add_argument("--json", help="write every record here")
    ap.add_argument("--from-json", help="report on the records of an earlier --json run, running nothing")
    ap.add_argument("--update", action="store_true",
                    help="with --json: keep that file's records of the files not run now")
    args = ap.parse_args()

    internals = load_internals()
    if args.from_json:
        saved = json.load(open(args.from_json))
        return write_report(saved["meta"], list(saved["results"].items()), internals, args)
    py = sys.executable if args.current_env else venv_python()
    tests = ask(py, "import importlib.util as u, os; "
                "print(os.path.join(list(u.find_spec('numba_cuda').submodule_search_locations)[0], "
                "'numba', 'cuda', 'tests'))")
    prefix = "" if args.suite == "cudapy" else args.suite + "/"
    files = sorted(prefix + f for f in os.listdir(os.path.join(tests, args.suite))
                   if f.startswith("test_") and f.endswith(".py"))
    if args.files:
        want = {prefix + os.path.basename(f if f.endswith(".py") else f + ".py") for f in args.files}
        files = [f for f in files if f in want]
    folder = tests if prefix else os.path.join(tests, "cudapy")
    results, everything, seconds = [], {}, {}
    with tempfile.TemporaryDirectory(prefix="numba-compat-") as tmp:
        with open(os.path.join(tmp, "pytest.ini"), "w") as ini:
            ini.write("[pytest]\n")

        def one(f):
            t0 = time.monotonic()
            recs, cerr, status, tail = run_file(py, os.path.join(folder, f), args, tmp)
            seconds[f] = round(time.monotonic() - t0, 1)
            recs = file_records(os.path.join(folder, f), recs, cerr, status, tail)
            c = collections.Counter(r["outcome"] for r in recs)
            print("%-45s %s" % (f, " ".join("%s=%d" % kv for kv in sorted(c.items()))), flush=True)
            return f, recs

        # each file is a process of its own: threads only wait for them
        with concurrent.futures.ThreadPoolExecutor(max(args.jobs, 1)) as pool:
            for f, recs in pool.map(one, files):
                results.append((f, recs))
                everything[f] = recs
    meta = {
        "date": datetime.date.today().isoformat(),
        "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True).stdout.strip(),
        "numba": ask(py, "import numba; print(numba.__version__)"),
        "numba_cuda": ask(py, "import importlib.metadata as m; print(m.version('numba-cuda'))"),
        "python": ask(py, "import platform; print(platform.python_version())"),
        "target": "GPU" if args.gpu else "simulator (PTXJIT_SIM=1)", "suite": args.suite,
        "timeout": args.timeout, "file_timeout": args.file_timeout, "seconds": seconds,
    }
    if args.update and args.json and os.path.exists(args.json):
        saved = json.load(open(args.json))
        old = saved["results"]
        old.update(everything)
        meta["seconds"] = dict(saved["meta"].get("seconds", {}), **seconds)
        everything = dict(sorted(old.items()))
        results = list(everything.items())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": everything}, f, indent=1)
    return write_report(meta, results, internals, args)


def write_report(meta, results, internals, args):
    table, classes, details, skips, idle = summarize(results, internals)
    text, score = report(table, classes, details, skips, idle, meta)
    if args.results:
        with open(args.results, "w") as f:
            f.write(text)
    print("\n".join(text.splitlines()[8:40]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
