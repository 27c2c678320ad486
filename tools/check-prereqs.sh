#!/usr/bin/env bash
# check-prereqs.sh - says, before `make check` starts, everything the test
# command needs that this machine lacks, in one message, and fails.
#
#   Python modules   numpy, pytest, mpmath, setuptools, mkdocs, mkdocstrings
#                    (pip install '.[test]')
#   gcc              the build, and its libasan for `make asan-py`
#   clang            with libFuzzer and the sanitizers, for `make asan` and `make fuzz`
#   ptxas            optional: golden PTX is validated with it when present
#
# PYTHON (default python3) is the interpreter the tests will run under.
PY=${PYTHON:-python3}
missing=()

mods=$("$PY" - <<'PYEOF' 2>/dev/null
import importlib.util
print(" ".join(m for m in ("numpy", "pytest", "mpmath", "setuptools", "mkdocs", "mkdocstrings") if importlib.util.find_spec(m) is None))
PYEOF
) || mods="python3"
[ -z "$mods" ] || missing+=("Python modules for $PY: $mods  (pip install '.[test]' installs them)")

if ! command -v gcc >/dev/null; then
	missing+=("gcc  (Debian: apt-get install gcc)")
elif [ ! -e "$(gcc -print-file-name=libasan.so)" ]; then
	missing+=("gcc's AddressSanitizer runtime, libasan  (Debian: apt-get install libasan8, or gcc's own package)")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v clang >/dev/null; then
	missing+=("clang with libFuzzer and the sanitizers  (Debian: apt-get install clang libclang-rt-dev)")
else
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' >"$tmp/f.c"
	clang -fsanitize=fuzzer,address,undefined "$tmp/f.c" -o "$tmp/f" >/dev/null 2>&1 ||
		missing+=("clang's libFuzzer and sanitizer runtimes  (Debian: apt-get install libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev)")
fi

if [ ${#missing[@]} -gt 0 ]; then
	echo "make check needs, and this machine lacks:" >&2
	for m in "${missing[@]}"; do echo "  - $m" >&2; done
	exit 1
fi
command -v ptxas >/dev/null || PATH=$PATH:/usr/local/cuda/bin command -v ptxas >/dev/null ||
	echo "note: ptxas is not installed; golden PTX will not be validated with it (optional)"
exit 0
