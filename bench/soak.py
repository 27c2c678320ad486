"""Soak tests of the runtime: many launches, many allocations, many threads,
and a kernel that faults followed by correct work in the same process.

    python3 bench/soak.py all                      # on the GPU: the full sizes
    python3 bench/soak.py launches --n 1000000     # one of them
    python3 bench/soak.py all --target sim --quick # reduced, on the simulator
    python3 bench/soak.py all --target fake --quick  # reduced, on tests/fake_cuda

Subcommands:

  launches  --n launches of a small kernel on device arrays (every 100th
            with NumPy arguments, so the copies' ring is exercised too);
            host RSS and device memory (cuMemGetInfo) before and after,
            and the counter the kernel increments must equal the launches.
  alloc     --n device allocation/free cycles of sizes from 1 byte to 8 MiB
            (every 16th also copied to and from the device and checked);
            memory before and after, the allocator's cache trimmed at both.
  threads   --threads Python threads, each compiling a kernel of its own
            (four kinds: elementwise float, integer // and %, a block
            reduction in shared memory with atomics, a 2-D transpose) and
            launching it --iters times with NumPy and device arrays, some on
            a stream of its own; every result is compared with NumPy.  A
            thread not done after --timeout seconds is a deadlock: every
            thread's stack is printed and the run fails.
  fault     --rounds times: a kernel that stores to a wild address (illegal
            address on the GPU) with a NumPy argument and beside a device
            array of the user; the error must name the fault, the NumPy
            arrays must be unchanged, every call after it must say that the
            context was lost, cuda.close() must give a working context, old
            device arrays must raise a clear error, and new work must be right.

"Flat" memory passes: host RSS grows by less than --rss-mib (default 16) and
device free memory changes by less than --dev-mib (default 8) from the
measurement after warm-up to the end.  The exit status is 0 when every
subcommand passed; --json FILE writes the figures.

Targets: gpu (default), sim (PTXJIT_SIM=1: the simulator; the fault is a
bounds error there, and device memory is the allocator's count), fake (the
driver stand-in tests/fake_cuda/fake_libcuda.c, built here with cc: its
kernels compute nothing, so results are checked through its launch_xor32
hook, and faults are injected with its fault_on_launch).
"""

import argparse
import ctypes
import faulthandler
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MiB = 1 << 20


def setup_target(target):
    """Sets the environment for the target before ptxjit is imported; the
    fake driver's handle (ctypes) for target fake."""
    if target == "sim":
        os.environ["PTXJIT_SIM"] = "1"
        return None
    os.environ["PTXJIT_SIM"] = "0"
    if target != "fake":
        return None
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    out = os.path.join(tempfile.mkdtemp(prefix="ptxjit_soak_"), "libcuda_fake.so")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-pthread", "-o", out,
                    os.path.join(ROOT, "tests", "fake_cuda", "fake_libcuda.c")], check=True)
    os.environ["PTXJIT_LIBCUDA"] = out
    fake = ctypes.CDLL(out)
    fake.fake_get.restype = ctypes.c_long
    return fake


def import_ptxjit():
    try:
        import ptxjit  # noqa: F401
    except ImportError:
        sys.path.insert(0, os.path.join(ROOT, "python"))
    import numpy as np
    from ptxjit import _core, cuda, errors
    return np, cuda, errors, _core


def rss_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Soak:
    def __init__(self, args, fake):
        self.args = args
        self.fake = fake
        self.target = args.target
        self.np, self.cuda, self.errors, self.core = import_ptxjit()
        self.results = {}
        self.kernels = load_kernels(self.cuda)

    def setf(self, key, v):
        self.fake.fake_set(key.encode(), ctypes.c_long(v))

    def get(self, key):
        return self.fake.fake_get(key.encode())

    def memory(self):
        try:    # hand glibc's free heap back first: what stays is in use
            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):
            pass
        free, total = self.core.mem_info()
        return {"rss": rss_bytes(), "dev_free": free, "dev_total": total,
                "dev_used_by_us": self.core.mem_stats()["live_bytes"]}

    def flat(self, before, after):
        rss = after["rss"] - before["rss"]
        dev = before["dev_free"] - after["dev_free"]
        ok = rss < self.args.rss_mib * MiB and abs(dev) < self.args.dev_mib * MiB
        return ok, {"rss_growth_mib": round(rss / MiB, 2), "device_free_drop_mib": round(dev / MiB, 2)}

    def report(self, name, ok, **figures):
        figures["pass"] = bool(ok)
        self.results[name] = figures
        print("%-9s %s  %s" % (name, "PASS" if ok else "FAIL",
                               ", ".join("%s=%s" % kv for kv in figures.items() if kv[0] != "pass")), flush=True)
        return ok

    # ------------------------------------------------------------ launches

    def launches(self):
        np, cuda = self.np, self.cuda
        n = self.args.n or (20000 if self.args.quick else 1000000)
        k = self.kernels["count"]
        counter = cuda.to_device(np.zeros(1, np.int64))
        host = np.zeros(1, np.int64)
        if self.fake:
            self.setf("launch_xor32", 1)      # every launch flips bit 0 of the first int32
        for _ in range(100):                  # warm up: module loaded, ring and cache made
            k[1, 1](counter)
            k[1, 1](host)
        cuda.synchronize()
        counter.copy_to_device(np.zeros(1, np.int64))
        host[:] = 0
        before = self.memory()
        driver0 = self.get("launches") if self.fake else None
        t0 = time.perf_counter()
        nhost = 0
        for i in range(n):
            if i % 100 == 99:
                k[1, 1](host)
                nhost += 1
            else:
                k[1, 1](counter)
        cuda.synchronize()
        dt = time.perf_counter() - t0
        after = self.memory()
        got = [int(counter.copy_to_host()[0]), int(host[0])]
        want = [n - nhost, nhost]
        if self.fake:                         # the fake's launches toggle bit 0
            got, want = [g & 1 for g in got] + [self.get("launches") - driver0], [w & 1 for w in want] + [n]
        ok, fig = self.flat(before, after)
        return self.report("launches", ok and got == want, launches=n, with_numpy_args=nhost,
                           count_ok=got == want, us_per_launch=round(dt / n * 1e6, 2),
                           rss_before_mib=round(before["rss"] / MiB, 1),
                           rss_after_mib=round(after["rss"] / MiB, 1),
                           dev_free_before_mib=round(before["dev_free"] / MiB, 1),
                           dev_free_after_mib=round(after["dev_free"] / MiB, 1), **fig)

    # --------------------------------------------------------------- alloc

    def alloc(self):
        np, cuda = self.np, self.cuda
        n = self.args.n or (5000 if self.args.quick else 100000)
        rng = np.random.default_rng(1)
        sizes = np.minimum((2.0 ** rng.uniform(0, 23, n)).astype(np.int64), 8 * MiB)
        for s in sizes[:200]:                 # warm up
            cuda.device_array(int(s), np.uint8)
        self.core.trim()
        before = self.memory()
        t0 = time.perf_counter()
        bad = 0
        keep = []
        for i, s in enumerate(sizes):
            s = int(s)
            if i % 16 == 0:
                h = rng.integers(0, 255, s, dtype=np.uint8)
                d = cuda.to_device(h)
                bad += not np.array_equal(d.copy_to_host(), h)
            else:
                d = cuda.device_array(s, np.uint8)
            keep.append(d)
            if len(keep) > 8:                 # a few live at once, freed out of order
                keep.pop(int(rng.integers(0, len(keep))))
        del keep, d
        cuda.synchronize()
        dt = time.perf_counter() - t0
        stats = self.core.mem_stats()
        self.core.trim()
        after = self.memory()
        ok, fig = self.flat(before, after)
        return self.report("alloc", ok and bad == 0 and after["dev_used_by_us"] == 0, cycles=n,
                           copies_wrong=bad, us_per_cycle=round(dt / n * 1e6, 2),
                           cache_hits=stats["cache_hits"], driver_allocs=stats["driver_allocs"],
                           live_bytes_after=after["dev_used_by_us"],
                           rss_before_mib=round(before["rss"] / MiB, 1),
                           rss_after_mib=round(after["rss"] / MiB, 1),
                           dev_free_before_mib=round(before["dev_free"] / MiB, 1),
                           dev_free_after_mib=round(after["dev_free"] / MiB, 1), **fig)

    # ------------------------------------------------------------- threads

    def threads(self):
        np, cuda = self.np, self.cuda
        nthreads = self.args.threads
        iters = self.args.iters or (10 if self.args.quick else 300)
        names = sorted(k for k in self.kernels if k.startswith("t_"))
        errors_seen = []
        done = [0] * nthreads
        start = threading.Barrier(nthreads)

        def work(t):
            try:
                rng = np.random.default_rng(100 + t)
                kname = names[t % len(names)]
                kind, c = kname.split("_")[1], int(kname.split("_")[2])
                k = self.kernels[kname]
                s = cuda.stream() if t % 2 else None
                start.wait()
                for it in range(iters):
                    check_kernel(np, cuda, k, kind, c, rng, s, it, self.fake is not None)
                    done[t] += 1
            except BaseException as e:  # noqa: B902 - reported below
                import traceback
                errors_seen.append("thread %d: %s\n%s" % (t, e, traceback.format_exc()))

        if self.fake:
            self.setf("launch_xor32", 0)
        ths = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(nthreads)]
        before = self.memory()
        t0 = time.perf_counter()
        for th in ths:
            th.start()
        deadline = t0 + self.args.timeout
        for th in ths:
            th.join(max(0.0, deadline - time.perf_counter()))
        alive = [i for i, th in enumerate(ths) if th.is_alive()]
        dt = time.perf_counter() - t0
        if alive:
            print("DEADLOCK: threads %s still running after %.0f s; their stacks:" % (alive, self.args.timeout),
                  flush=True)
            faulthandler.dump_traceback(all_threads=True)
        for e in errors_seen[:5]:
            print(e, flush=True)
        after = self.memory()
        ok = not alive and not errors_seen and sum(done) == nthreads * iters
        return self.report("threads", ok, threads=nthreads, launches_checked=sum(done),
                           expected=nthreads * iters, deadlocked=alive, errors=len(errors_seen),
                           seconds=round(dt, 2), rss_growth_mib=round((after["rss"] - before["rss"]) / MiB, 2))

    # --------------------------------------------------------------- fault

    def fault(self):
        np, cuda, errors = self.np, self.cuda, self.errors
        rounds = self.args.rounds or (3 if self.args.quick else 20)
        wild, add = self.kernels["wild"], self.kernels["add"]
        problems = []
        rng = np.random.default_rng(5)
        no_recovery = None
        for r in range(rounds):
            n = 1 << 16
            mine = rng.standard_normal(n).astype(np.float32)
            d_mine = cuda.to_device(mine)          # a device array of the user's
            h = rng.standard_normal(n).astype(np.float32)
            h0 = h.copy()
            other = np.arange(1000, dtype=np.float32)
            # 1. the fault
            if self.target == "fake":
                self.setf("fault_on_launch", 1)
                where = 0
            else:
                # 2 GiB past the array: far outside any allocation, and an
                # offset that the 32-bit addressing of small arrays keeps
                # (an index beyond 2^31 bytes is undefined and may wrap)
                where = (1 << 29) - 64
            first = None
            try:
                wild[1, 32](h, d_mine, where)
                cuda.synchronize()
            except Exception as e:  # noqa: B902
                first = e
            if self.target == "sim":
                if not isinstance(first, errors.SimIndexError):
                    problems.append("round %d: the simulator raised %r" % (r, first))
            else:
                name = getattr(first, "name", None)
                if name not in ("CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_LAUNCH_FAILED",
                        "CUDA_ERROR_INVALID_ADDRESS_SPACE"):
                    problems.append("round %d: the fault raised %r" % (r, first))
                elif "cuda.close()" not in str(first):
                    problems.append("round %d: the error does not say how to recover: %s" % (r, first))
            if self.target != "sim" and not np.array_equal(h, h0):
                problems.append("round %d: the NumPy argument of the faulting launch changed" % r)
            if not np.array_equal(other, np.arange(1000, dtype=np.float32)):
                problems.append("round %d: an unrelated array changed" % r)
            # 2. calls after it: a clear error, nothing queued
            if self.target != "sim":
                for what, fn in (("to_device", lambda: cuda.to_device(np.zeros(4))),
                                 ("launch", lambda: add[1, 32](np.zeros(32, np.float32), other[:32], other[:32])),
                                 ("copy_to_host", lambda: d_mine.copy_to_host())):
                    try:
                        fn()
                        problems.append("round %d: %s after the fault did not raise" % (r, what))
                    except errors.CudaDriverError as e:
                        if "context was lost" not in str(e):
                            problems.append("round %d: %s after the fault: %s" % (r, what, e))
                st = self.core.context_state()
                if not st["lost"]:
                    problems.append("round %d: context_state() does not say lost: %r" % (r, st))
            # 3. recovery
            cuda.close()
            if self.target != "sim":
                try:
                    d_mine.copy_to_host()
                    problems.append("round %d: an old device array was usable after close()" % r)
                except errors.CudaDriverError as e:
                    if "cuda.close()" not in str(e):
                        problems.append("round %d: old array: %s" % (r, e))
            # 4. correct work
            for _ in range(3):
                x = rng.standard_normal(n).astype(np.float32)
                y = rng.standard_normal(n).astype(np.float32)
                out = np.zeros(n, np.float32)
                if self.target == "fake":
                    self.setf("launch_xor32", 0x12345)
                    xi = rng.integers(-2**31, 2**31, n, dtype=np.int32)
                    ref = xi ^ 0x12345
                    self.kernels["count32"][1, 1](xi)
                    ok = np.array_equal(xi, ref)
                    self.setf("launch_xor32", 0)
                else:
                    try:
                        dx = cuda.to_device(x)
                    except errors.CudaAPIError as e:
                        # a driver that keeps the process off the GPU after
                        # a fault: acceptable when the error says so
                        if "restart Python" not in str(e):
                            problems.append("round %d: after close(): %s" % (r, e))
                        no_recovery = str(e).splitlines()[0]
                        break
                    add[(n + 255) // 256, 256](out, dx, y)
                    ok = np.array_equal(out, x + y)
                if not ok:
                    problems.append("round %d: wrong results after recovery" % r)
            if no_recovery:
                print("  the driver gives no context after a fault: %s" % no_recovery, flush=True)
                break
        state = self.core.context_state()
        for p in problems[:10]:
            print("  " + p, flush=True)
        return self.report("fault", not problems, rounds=rounds, problems=len(problems),
                           resets=state["resets"], generation=state["generation"],
                           recovered_in_process=not no_recovery)


KERNELS = '''
from ptxjit import cuda
import math


@cuda.jit
def count(a):
    a[0] += 1


@cuda.jit
def count32(a):
    a[0] += 1


@cuda.jit
def wild(h, mine, where):
    i = cuda.grid(1)
    h[where + i] = mine[i]


@cuda.jit
def add(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]
'''

# four kinds of kernel, four constants each: 16 different kernels
THREAD_KERNELS = {
    "float": '''
@cuda.jit
def t_float_{c}(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * {c}.5 + math.sqrt(abs(y[i])) - {c}
''',
    "int": '''
@cuda.jit
def t_int_{c}(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] // ({c} + 2) + y[i] % ({c} + 3) * {c}
''',
    "reduce": '''
@cuda.jit
def t_reduce_{c}(out, x, y):
    buf = cuda.shared.array(128, dtype=numba.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    v = 0.0
    if i < x.size:
        v = x[i] * {c} + y[i]
    buf[t] = v
    cuda.syncthreads()
    s = 64
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, buf[0])
''',
    "transpose": '''
@cuda.jit
def t_transpose_{c}(out, x, y):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = x[j, i] + y[j, i] * {c}
''',
}


def load_kernels(cuda):
    """Writes the kernels to a file (ptxjit reads their source) and imports it."""
    import importlib.util
    text = KERNELS.replace("import math", "import math\nimport ptxjit as numba")
    for c in range(4):
        for tmpl in THREAD_KERNELS.values():
            text += tmpl.replace("{c}", str(c + 1))
    d = tempfile.mkdtemp(prefix="ptxjit_soak_kernels_")
    path = os.path.join(d, "soak_kernels.py")
    with open(path, "w") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location("soak_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {k: v for k, v in vars(mod).items() if hasattr(v, "py_func")}


def check_kernel(np, cuda, k, kind, c, rng, s, it, fake):
    """One launch of a thread's kernel, checked against NumPy (on the fake
    driver, which computes nothing, only that the launch goes through)."""
    launch = (lambda g, b: k[g, b, s]) if s is not None else (lambda g, b: k[g, b])
    dev = it % 2 == 1                           # device arrays every other time
    if kind == "transpose":
        m, n = 37 + c, 19 + it % 7
        x = rng.standard_normal((n, m))
        y = rng.standard_normal((n, m))
        out = np.zeros((m, n))
        ref = x.T + y.T * c
        grid = ((m + 15) // 16, (n + 15) // 16)
        block = (16, 16)
    else:
        n = 1000 + 17 * it
        if kind == "int":
            x = rng.integers(-10**6, 10**6, n)
            y = rng.integers(-10**6, 10**6, n)
            out = np.zeros(n, np.int64)
            ref = x // (c + 2) + y % (c + 3) * c
        else:
            x = rng.standard_normal(n).astype(np.float32 if kind == "float" else np.float64)
            y = rng.standard_normal(n).astype(x.dtype)
            out = np.zeros(n if kind == "float" else 1, x.dtype)
            ref = (x * np.float32(c + 0.5) + np.sqrt(np.abs(y)) - c if kind == "float"
                   else np.array([np.sum(x * c + y)]))
        grid, block = ((n + 127) // 128,), (128,)
    if dev:
        d_out = cuda.to_device(out, stream=s) if s is not None else cuda.to_device(out)
        launch(grid, block)(d_out, cuda.to_device(x), y)
        got = d_out.copy_to_host(stream=s) if s is not None else d_out.copy_to_host()
        if s is not None:
            s.synchronize()
    else:
        launch(grid, block)(out, x, y)
        got = out
    if fake:
        return
    if kind in ("int",):
        ok = np.array_equal(got, ref)
    elif kind == "reduce":
        ok = np.allclose(got, ref, rtol=1e-9, atol=1e-9)
    else:
        ok = np.allclose(got, ref, rtol=1e-6, atol=1e-6)
    if not ok:
        raise AssertionError("kernel %s_%d, iteration %d: wrong result (max error %g)"
                             % (kind, c, it, float(np.max(np.abs(np.asarray(got, float) - ref)))))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["launches", "alloc", "threads", "fault", "all"])
    ap.add_argument("--target", choices=["gpu", "sim", "fake"], default="gpu")
    ap.add_argument("--quick", action="store_true", help="reduced sizes (to check the script)")
    ap.add_argument("--n", type=int, default=0, help="launches or allocation cycles")
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--iters", type=int, default=0, help="launches per thread")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds before threads count as deadlocked")
    ap.add_argument("--rounds", type=int, default=0, help="fault-and-recover rounds")
    ap.add_argument("--rss-mib", type=float, default=16.0)
    ap.add_argument("--dev-mib", type=float, default=8.0)
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)
    fake = setup_target(args.target)
    soak = Soak(args, fake)
    print("soak on %s (%s)" % (args.target, soak.core.device_info()["name"]), flush=True)
    todo = ["launches", "alloc", "threads", "fault"] if args.what == "all" else [args.what]
    ok = True
    for what in todo:
        ok &= bool(getattr(soak, what)())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"target": args.target, "results": soak.results}, f, indent=1)
    print("soak: %s" % ("PASS" if ok else "FAIL"), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
