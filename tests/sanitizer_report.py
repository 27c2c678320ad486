"""Reads the sanitizer logs of `make asan-py` and fails on what is ours.

    python3 tests/sanitizer_report.py LOGDIR

Every process of the run (pytest and its children) writes its reports to
LOGDIR/asan.PID or LOGDIR/ubsan.PID.  This prints and counts:

  * every AddressSanitizer error (heap overflow, use after free, ...) and
    every UndefinedBehaviorSanitizer report: all fail the run;
  * LeakSanitizer's direct leaks whose allocation was made by ptxjit's own
    code, i.e. whose first frame past the allocator lies in src/ of this
    repository: these fail the run.  Leaks allocated by Python, NumPy or
    a compiler run by a test are the interpreter's business at exit and
    are counted but not shown.

Exit status 0 when nothing of ours was found.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src") + os.sep

FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (\S+) (.*)$")
ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
              "strdup", "strndup", "valloc", "__interceptor_malloc", "__interceptor_calloc",
              "__interceptor_realloc", "__interceptor_posix_memalign", "__interceptor_strdup"}


def ours(where):
    """Whether a frame's location (file:line:col or (module+off)) is in src/."""
    path = where.split(":")[0]
    return path.startswith(SRC) or (path.startswith("src/") and os.path.exists(os.path.join(ROOT, path)))


def leak_blocks(text):
    """(header, [(func, where)]) for each leak of a LeakSanitizer report."""
    blocks, cur = [], None
    for line in text.splitlines():
        if line.startswith("Direct leak of") or line.startswith("Indirect leak of"):
            cur = (line.strip(), [])
            blocks.append(cur)
        elif cur is not None:
            m = FRAME.match(line)
            if m:
                cur[1].append((m.group(2), m.group(3)))
            elif not line.strip():
                cur = None
    return blocks


def first_caller(frames):
    for func, where in frames:
        if func in ALLOCATORS or any(s in where for s in ("compiler-rt", "libclang_rt", "libsanitizer", "libasan")):
            continue
        return func, where
    return None, ""


def main(logdir):
    errors, our_leaks, other_leaks = [], [], 0
    for name in sorted(os.listdir(logdir)):
        path = os.path.join(logdir, name)
        with open(path, errors="replace") as f:
            text = f.read()
        for m in re.finditer(r"^.*(ERROR: AddressSanitizer|runtime error:).*$", text, re.M):
            start = m.start()
            end = text.find("\n==", start + 1) if "AddressSanitizer" in m.group(0) else -1
            chunk = text[start:end if end > 0 else start + 4000]
            errors.append("%s:\n%s" % (name, chunk[:4000]))
        if "ERROR: LeakSanitizer" in text:
            for header, frames in leak_blocks(text):
                if not header.startswith("Direct"):
                    continue
                func, where = first_caller(frames)
                if func and ours(where):
                    shown = "\n".join("    %s %s" % fw for fw in frames[:12])
                    our_leaks.append("%s: %s\n%s" % (name, header, shown))
                else:
                    other_leaks += 1
    for e in errors:
        print("SANITIZER ERROR in " + e + "\n")
    for leak in our_leaks:
        print("LEAK in ptxjit's code, " + leak + "\n")
    print("sanitizer logs: %d files, %d errors, %d leaks in ptxjit's code, "
          "%d leaks elsewhere (Python, NumPy, tools; not ours)"
          % (len(os.listdir(logdir)), len(errors), len(our_leaks), other_leaks))
    return 1 if errors or our_leaks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
