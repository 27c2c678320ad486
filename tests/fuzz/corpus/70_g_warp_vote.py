# Warp votes and matches: ballot, all, any, eq of predicates, match_any
# and match_all of 32- and 64-bit values, activemask and lanemask_lt.
# kernel: votes
# sig: void(int32[::1], int32[::1], boolean[::1], boolean[::1], boolean[::1], uint32[::1], uint32[::1])
# kernel: matches
# sig: void(int64[::1], float32[::1], int32[::1], int32[::1], int32[::1], boolean[::1])
from ptxjit import cuda


@cuda.jit
def votes(x, ballot, all_, any_, eq, active, lt):
    i = cuda.grid(1)
    p = x[i] > 0
    ballot[i] = cuda.ballot_sync(0xffffffff, p)
    all_[i] = cuda.all_sync(0xffffffff, p)
    any_[i] = cuda.any_sync(0xffffffff, x[i])
    eq[i] = cuda.eq_sync(0xffffffff, p)
    active[i] = cuda.activemask()
    lt[i] = cuda.lanemask_lt()


@cuda.jit
def matches(k64, kf, any64, anyf, allmask, allpred):
    i = cuda.grid(1)
    any64[i] = cuda.match_any_sync(0xffffffff, k64[i])
    anyf[i] = cuda.match_any_sync(0xffffffff, kf[i])
    m, p = cuda.match_all_sync(0xffffffff, k64[i])
    allmask[i] = m
    allpred[i] = p
