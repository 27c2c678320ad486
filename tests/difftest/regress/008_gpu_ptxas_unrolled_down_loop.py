# Reduced from difftest seed 616 (comm) by `minimise.py 616 --path gpu`: on an H100
# (driver 580.159.04, sm_90) the optimised build counted the threads of block 0 wrong.
# v2 comes from the last pass of a loop counting down to the thread's own bound,
# -(tid ^ 1); ptxas unrolled that loop by four and took the bound's negation away in the
# unrolled loop's trip checks (its SASS compares j with (tid ^ 1) + 3, not 3 - (tid ^ 1)),
# so threads 2 and 3 left after one pass.  `ptxas -c` gives the same code; with
# `.pragma "nounroll"` in the loop's header its loop is right.
# difftest program seed=616 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 616, 'mode': 'comm', 'tpb': 32, 'blocks': 2, 'rows': 64, 'ncols': 3, 'sdt': 'u64', 'grid2': False, 'mslots': [('tan', 'f32'), ('atanh', 'f32')], 'args': [('a0', 'array', 'i32', (19,), '1C', False), ('a1', 'array', 'i8', (3, 6), '2S', False), ('s0', 'scalar', 'i32', None, None, False)], 'extra': [('out_wi', 'i64', 4, 'out'), ('out_wf', 'f64', 2, 'out'), ('fa64', 'f64', 4, 'acc')]}


@cuda.jit(device=True)
def dev0(p0, p1, p2):
    v1 = p1
    return max((p1 | p1), np.int16(-32767))


def dev0_ref(p0, p1, p2):
    p0 = R.cast(p0, 'b')
    p1 = R.cast(p1, 'u16')
    p2 = R.cast(p2, 'f32')
    v1 = R.cast(p1, 'u16')
    return R.cast(R.minmax('max', [R.binop('|', p1, p1, 'u64'), np.int16(-32767)], 'f64'), 'f64')


@cuda.jit
def kern(out_i, out_f, out_s, out_m, acc, a0, a1, s0, out_wi, out_wf, fa64):
    tid = cuda.grid(1)
    tx = cuda.threadIdx.x
    v2 = False
    v3 = 0.0
    for j4 in range(0, (0 - (np.int8(1) ^ tid)), (-1)):
        v2 = np.bool_(np.int32(j4))
    sh0 = cuda.shared.array(32, np.float32)
    cuda.syncthreads()
    v11 = np.float32(0.0)
    cuda.syncthreads()
    v12 = cuda.syncthreads_count((v2 or v2))
    out_i[tid, 0] = v12


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, a1, s0, out_wi, out_wf, fa64):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'i32')
    v2 = R.cast(np.bool_(False), 'b')
    v3 = R.cast(np.float64(0.0), 'f64')
    for j4 in range(int(np.int64(0)), int(R.binop('-', np.int64(0), R.binop('^', np.int8(1), tid, 'i64'), 'i64')), int(np.int64(-1))):
        j4 = R.cast(j4, 'i64')
        v2 = R.cast(R.cast(R.cast(j4, 'i32'), 'b'), 'b')
    sh0 = SH('sh0', 32, np.float32)
    yield ('sync', None)
    v11 = R.cast(np.float32(0.0), 'f32')
    yield ('sync', None)
    v12 = yield ('syncthreads_count', R.cast((v2 or v2), 'b'))
    out_i[tid, 0] = R.cast(v12, 'i64')
    yield ('end', None)
