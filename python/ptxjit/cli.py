"""The `ptxjitc` command a wheel installs: the command-line compiler of
src/cli (the same as the standalone build/ptxjitc) run inside the
extension, so that it needs no C compiler on the user's machine.

    ptxjitc kernel.py --kernel add --sig "void(float32[::1], float32[::1])"
"""

import os
import sys


def main(argv=None):
    """Runs ptxjitc on argv (default: the command line); returns its exit
    status (0 compiled, 1 an error in the kernel, 2 internal, 3 usage)."""
    from ptxjit import _core

    args = sys.argv[1:] if argv is None else list(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    return _core.ptxjitc([b"ptxjitc"] + [os.fsencode(a) for a in args])


if __name__ == "__main__":
    sys.exit(main())
