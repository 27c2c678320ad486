#!/usr/bin/env bash
# gpu-check.sh - build ptxjit on a GPU machine and run everything there.
#
#   bash tools/gpu-check.sh [GROUP...]   (logs under $OUT, or /tmp/out)
#
# GROUPs (default: all of them, in this order): tests (make test, pytest on
# the GPU, the examples), sim (pytest on the simulator), diff (the
# differential tester on the GPU), bench (every benchmark and the suite
# table), soak (launch/alloc/thread/fault soak), sass (SASS of the suite
# kernels against CUDA C's), variants (bench/ptx_variants.py: edited machine
# code of the kernels in $VARIANTS timed beside ptxjit's and CUDA C's),
# floor (bench/c/launch_floor.c: the driver's own launch cost).  A group per call keeps each call short.
#
# For a machine without internet that already has Python 3, NumPy, pytest,
# CuPy and numba-cuda: builds the Python extension in place, builds the C
# library and the ptxjitc command, runs `make test` (C tests and golden
# files), the whole pytest suite on the GPU (PTXJIT_TEST_GPU=1) and again
# on the simulator, the examples, and the benchmarks.  Each step's output
# goes to $OUT/NN-step.log; a summary table comes last.  A failing build
# stops the script; a failing test step is recorded and the rest still run.
# The exit status is 1 when any step failed.
set -e
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
JOBS=$(nproc 2>/dev/null || echo 4)

steps=()
results=()
lastlines=()
failed=0

# run NAME COMMAND...: runs a step, keeps its log, records ok/FAIL and the
# step's last meaningful line.
run() {
	local name=$1
	shift
	local log="$OUT/$(printf "%02d" $((${#steps[@]} + 2)))-$name.log"
	local start=$SECONDS
	echo "== $name: $*"
	local status=ok
	if ! "$@" >"$log" 2>&1; then
		status=FAIL
		failed=1
	fi
	local last
	last=$(grep -E '(passed|failed|error|skipped|golden:|matches NumPy)' "$log" | tail -n 1 || true)
	[ -n "$last" ] || last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 || true)
	steps+=("$name")
	results+=("$status ($((SECONDS - start))s)")
	lastlines+=("$last")
	echo "   $status in $((SECONDS - start))s; log: $log"
	echo "   $last"
	if [ "$status" = FAIL ]; then
		tail -n 15 "$log" | sed 's/^/   | /'
	fi
}

# 0. what this machine is
{
	date -u
	uname -a
	nvidia-smi || echo "nvidia-smi: not found"
	$PY --version
	$PY -c 'import numpy; print("numpy", numpy.__version__)'
	$PY -c 'import cupy; print("cupy", cupy.__version__)' || true
	$PY -c 'import numpy as np; np.row_stack = getattr(np, "row_stack", np.vstack); import numba; print("numba", numba.__version__)' || true
	command -v ptxas && ptxas --version || echo "ptxas: not installed (golden PTX validation is skipped)"
	git log -1 --oneline 2>/dev/null || true
} >"$OUT/00-machine.log" 2>&1
echo "== machine: $OUT/00-machine.log"
grep -E 'NVIDIA H|Driver Version|^Python|^numpy|^cupy|^numba' "$OUT/00-machine.log" | sed 's/^/   /' || true

# 1. build: these must work, or nothing below means anything
echo "== build"
make -j"$JOBS" all >"$OUT/01-make.log" 2>&1 || { tail -n 40 "$OUT/01-make.log"; echo "make failed"; exit 1; }
if $PY -m pip install --no-build-isolation --no-deps -e . >"$OUT/01-pip.log" 2>&1 &&
	(cd /tmp && $PY -c 'from ptxjit import cuda') >>"$OUT/01-pip.log" 2>&1; then
	echo "   installed with pip install -e ."
else
	echo "   pip install -e . did not give an importable ptxjit (log: $OUT/01-pip.log); building in place"
	$PY setup.py build_ext --inplace >>"$OUT/01-pip.log" 2>&1 || { tail -n 40 "$OUT/01-pip.log"; echo "build failed"; exit 1; }
	export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
fi
# from here on, a failure is recorded, not fatal
set +e
$PY -c 'import ptxjit; print("ptxjit", getattr(ptxjit, "__version__", "?"), ptxjit.__file__)' | tee -a "$OUT/01-pip.log"

# 2. tests
run gpu-present $PY -c 'from ptxjit import cuda
assert cuda.is_available(), "ptxjit sees no GPU"
d = cuda.get_current_device()
print("GPU:", d.name, "compute capability", d.compute_capability)'
groups=${*:-tests sim diff bench soak sass}
# gpu_shard_files SERIAL: the test files of slice GPU_SHARD (k/n, default
# 1/1) that are not in SERIAL
gpu_shard_files() {
	local k=${GPU_SHARD%/*} n=${GPU_SHARD#*/} i=0 f
	[ -n "$GPU_SHARD" ] || { k=1; n=1; }
	for f in tests/test_*.py; do
		case " $1 " in *" $f "*) continue ;; esac
		[ $((i % n + 1)) -eq "$k" ] && echo "$f"
		i=$((i + 1))
	done
}
want() { case " $groups " in *" $1 "*) return 0 ;; esac; return 1; }
if want tests; then
	run make-test make test
	# the suite no longer fits one 10-minute call in one process: with
	# pytest-xdist it runs on GPU_WORKERS processes (default: one a core;
	# 12 took 2.7 minutes on an H200 and 8.5 on an H100 host), and the tests
	# that check what their own process compiled (every kernel of their
	# file) run afterwards in one process
	if $PY -c 'import xdist' 2>/dev/null; then
		# (those that call conftest's assert_ptx_assembles, and test_kernels.py)
		serial="tests/test_kernels.py $(grep -l 'assert_ptx_assembles(' tests/test_*.py | tr '\n' ' ')"
		# GPU_SHARD=k/n runs the k-th of n slices of the test files (a call
		# each when the whole no longer fits one call); the serial files go
		# with the first slice
		files=$(gpu_shard_files "$serial")
		# a test that stalls prints every thread's stack and then fails,
		# rather than using up the call
		limit=$($PY -c 'import pytest_timeout' 2>/dev/null && echo --timeout=240)
		run pytest-gpu env PTXJIT_TEST_GPU=1 $PY -m pytest $files -q -rs -p no:cacheprovider \
			--durations=15 -n ${GPU_WORKERS:-$JOBS} $limit -o faulthandler_timeout=200
		case ${GPU_SHARD:-1/1} in 1/*)
			run pytest-gpu-serial env PTXJIT_TEST_GPU=1 $PY -m pytest $serial -q -rs -p no:cacheprovider ;;
		esac
	else
		run pytest-gpu env PTXJIT_TEST_GPU=1 $PY -m pytest tests -q -rs -p no:cacheprovider
	fi
	run example-vector-add $PY examples/vector_add.py
	run example-reduction $PY examples/reduction.py
	run example-matmul $PY examples/matmul.py
fi
if want sim; then
	run pytest-sim env -u PTXJIT_TEST_GPU PTXJIT_SIM=1 $PY -m pytest tests -q -rs -p no:cacheprovider
fi
if want diff; then
	# each stops at its time budget (a call to the GPU machine is limited) and
	# reports the programs it ran (a program took 0.1 to 0.3 s on both paths of an H100)
	run difftest-gpu $PY tests/difftest/run.py --gpu --n ${DIFF_N:-3000} --seed ${DIFF_SEED:-100000} \
		--seconds ${DIFF_SECONDS:-240}
	run difftest-gpu-comm $PY tests/difftest/run.py --gpu --mode comm --n ${DIFF_COMM_N:-2000} \
		--seed ${DIFF_COMM_SEED:-200000} --seconds ${DIFF_SECONDS:-240}
fi

# 3. benchmarks
if want bench; then
	run bench $PY bench/run_all.py --ptxjitc build/ptxjitc
	run bench-suite $PY bench/bench_suite.py
fi
if want variants; then
	run variants $PY bench/ptx_variants.py ${VARIANTS:-rgb_to_gray stencil_5pt black_scholes math_loop}
fi
if want floor; then
	run floor sh -c "cc -O2 bench/c/launch_floor.c -ldl -o $OUT/launch_floor && $OUT/launch_floor"
fi
if want soak; then
	run soak $PY bench/soak.py all --json "$OUT/soak_gpu.json"
	run fault-probe $PY bench/fault_probe.py
fi
if want sass; then
	run sass $PY bench/dump_sass.py --out "$OUT/sass"
fi

# 4. summary
echo
echo "== summary (logs in $OUT)"
for i in "${!steps[@]}"; do
	printf '%-20s %-14s %s\n' "${steps[$i]}" "${results[$i]}" "${lastlines[$i]}"
done | tee "$OUT/summary.txt"
bench_log=$(ls "$OUT"/*-bench.log 2>/dev/null | tail -n 1)
if [ -n "$bench_log" ]; then
	echo
	# the benchmark tables: everything after the blank line that precedes them
	awk 'f; /^$/ {f=1}' "$bench_log" | tee -a "$OUT/summary.txt"
fi
exit $failed
