# reduced from difftest seed 5001832 on sim: a conditional expression on a local that folds (np.isinf of an int) was typed float32; out_wf[3, 3] was 1.1015209812374428e+32, should be 1.1015209877962282e+32
# difftest program seed=5001832 mode=comm (tests/difftest/gen.py)
import math

import numpy as np

from numba import cuda

import refrt as R


SPEC = {'seed': 5001832, 'mode': 'comm', 'tpb': 32, 'blocks': 2, 'rows': 64, 'ncols': 4, 'sdt': 'u64', 'grid2': False, 'mslots': [('hypot', 'f32'), ('sin', 'f32')], 'args': [('a0', 'array', 'f32', (14,), '1C', False), ('s0', 'scalar', 'b', None, None, False)], 'extra': [('out_wi', 'i64', 8, 'out'), ('out_wf', 'f64', 5, 'out'), ('fa64', 'f64', 4, 'acc')]}


𝐅𝖫𝖠G0 = 29
F𝐋A𝖦0 = -49
Sﬁ２ = 43
𝐒f𝐢2 = -44
@cuda.jit
def kern(o𝘂t_𝗂, out_f, out_s, out_m, acc, a0, 𝚜０, oｕt_w𝗶, out_wf, fa64):
    𝗍i𝚍 = cuda.grid(1)
    tx = cuda.threadIdx.x
    sh1 = cuda.shared.array(32, np.uint32)
    v𝟐𝟬 = sh1[0]
    v22 = cuda.laneid
    v３3 = 𝐧𝗉.isinf(nｐ.int64(v𝟮𝟬))
    o𝗳𝚜３𝟖 = ((0.0 if v𝟑３ else a0[(v22 % len(a0))]) // a0[1])
    out_wf[ti𝗱, 3] = ofs3𝟖


def kern_ref(T, SH, ATOM, out_i, out_f, out_s, out_m, acc, a0, s0, out_wi, out_wf, fa64):
    tid = T.grid1()
    tx = R.sr(T.tx)
    s0 = R.cast(s0, 'b')
    sh1 = SH('sh1', 32, np.uint32)
    v20 = R.cast(sh1[int(np.int64(0))], 'u32')
    v22 = R.cast(R.sr(T.tx % 32), 'i32')
    v33 = R.cast(R.ufunc('isinf', [R.cast(v20, 'i64')], ('i64',), 'b'), 'b')
    ofs38 = R.cast(R.binop('//', R.cast((np.float64(0.0) if v33 else a0[int(R.binop('%', v22, np.int64(a0.shape[0]), 'i64'))]), 'f64'), a0[int(np.int64(1))], 'f64'), 'f64')
    out_wf[tid, 3] = R.cast(ofs38, 'f64')
    yield ('end', None)
