"""The `ptxjitc` command a wheel installs: the command-line compiler of
src/cli (the same as the standalone build/ptxjitc) run inside the
extension, so that it needs no C compiler on the user's machine.

    ptxjitc kernel.py --kernel add --sig "void(float32[::1], float32[::1])"

One option is added here: `--html PATH [--block N]` writes the kernel as an
HTML page (ptxjit/inspect_html.py: each source line beside its PTX, the
SASS and the resources when the CUDA toolkit is installed, the theoretical
occupancy for blocks of N threads, default 256).
"""

import os
import sys
import tempfile


def _take(args, name):
    """Removes `name VALUE` or `name=VALUE` from args; returns VALUE, or
    None when absent."""
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            value = args[i + 1]
            del args[i:i + 2]
            return value
        if a.startswith(name + "="):
            del args[i]
            return a[len(name) + 1:]
    return None


def _html(args, path, block):
    from ptxjit import _core
    from ptxjit import inspect_html

    with tempfile.TemporaryDirectory() as d:
        out = _take(args, "-o") or os.path.join(d, "kernel.ptx")
        status = _core.ptxjitc([b"ptxjitc"] + [os.fsencode(a) for a in args + ["--lineinfo", "-o", out]])
        if status != 0:
            return status
        with open(out, encoding="utf-8") as f:
            ptx = f.read()
    entry = next((ln.split()[-1].rstrip("(") for ln in ptx.splitlines() if ln.startswith(".visible .entry")), "")
    inspect_html.write_page(path, entry.rsplit("_", 1)[0] or "kernel", ptx, block=block)
    return 0


def main(argv=None):
    """Runs ptxjitc on argv (default: the command line); returns its exit
    status (0 compiled, 1 an error in the kernel, 2 internal, 3 usage)."""
    from ptxjit import _core

    args = sys.argv[1:] if argv is None else list(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    html = _take(args, "--html")
    block = _take(args, "--block")
    if block is not None and not (block.isdigit() and 1 <= int(block) <= 1024):
        print("ptxjitc: --block takes a block size of 1 to 1024 threads, not %r" % block, file=sys.stderr)
        return 3
    if html is not None:
        return _html(args, html, int(block or 256))
    return _core.ptxjitc([b"ptxjitc"] + [os.fsencode(a) for a in args])


if __name__ == "__main__":
    sys.exit(main())
