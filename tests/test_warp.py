"""Warp-level intrinsics and reducing barriers, on random data, against
NumPy references computed here: shuffles of every type in every mode,
warp reductions, votes, matches, activemask and lanemask_lt in divergent
code, syncwarp, syncthreads_count/and/or.

Tests marked sim_only check behaviour the GPU leaves undefined (reads of
lanes that do not exist, deadlocks, masks without the calling lane): the
simulator reports or defines it, the GPU may hang.
"""

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU

sim_only = pytest.mark.skipif(ON_GPU, reason="undefined behaviour on a GPU; the simulator defines or reports it")

N = 256


def lanes(n):
    return np.arange(n) % 32


def bits_of(pred_rows):
    """One int32 per row of 32 booleans, bit k for column k (ballot)."""
    out = []
    for row in pred_rows:
        m = 0
        for k, b in enumerate(row):
            m |= int(bool(b)) << k
        out.append(m)
    return np.array(out, dtype=np.uint64).astype(np.uint32).view(np.int32)


# ----------------------------------------------------------- shuffles

def test_shfl_all_types_and_modes(load, rng):
    k = load("warp_shfl").shfl_all
    a32 = rng.integers(-2**31, 2**31, N).astype(np.int32)
    a64 = rng.integers(-2**63, 2**63 - 1, N, dtype=np.int64)
    f32 = rng.standard_normal(N).astype(np.float32)
    f64 = rng.standard_normal(N)
    f64[5] = np.nan
    o32, o64, g32, g64 = (np.zeros_like(x) for x in (a32, a64, f32, f64))
    k[N // 64, 64](a32, a64, f32, f64, o32, o64, g32, g64)
    t = np.arange(N)
    lane = lanes(N)
    base = t - lane
    np.testing.assert_array_equal(o32, a32[base + (lane * 7) % 32])
    np.testing.assert_array_equal(o64, a64[np.where(lane >= 3, t - 3, t)])
    np.testing.assert_array_equal(g32, f32[np.where(lane + 5 <= 31, t + 5, t)])
    want = f64[base + (lane ^ 9)]
    assert (g64.view(np.int64) == want.view(np.int64)).all()


def test_warp_sum_xor(load, rng):
    k = load("warp_shfl").warp_sum
    x = rng.integers(-1000, 1000, N).astype(np.float64)
    out = np.zeros(N // 32)
    k[N // 128, 128](x, out)
    np.testing.assert_array_equal(out, x.reshape(-1, 32).sum(axis=1))


@cuda.jit
def reduce_down(x, out):
    i = cuda.grid(1)
    v = x[i]
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, off)
        off //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.float32, np.float64])
def test_warp_reduction_shfl_down(rng, dt):
    x = rng.integers(-50, 50, N).astype(dt)
    out = np.zeros(N // 32, dtype=dt)
    reduce_down[N // 64, 64](x, out)
    np.testing.assert_array_equal(out, x.reshape(-1, 32).sum(axis=1).astype(dt))


@cuda.jit
def broadcast_lane(x, src, out):
    i = cuda.grid(1)
    out[i] = cuda.shfl_sync(0xffffffff, x[i], src[i // 32])


def test_shfl_broadcast_and_lane_bits(rng):
    x = rng.standard_normal(N).astype(np.float32)
    src = rng.integers(0, 64, N // 32).astype(np.int64)     # only the low 5 bits count
    out = np.zeros_like(x)
    broadcast_lane[N // 64, 64](x, src, out)
    want = x.reshape(-1, 32)[np.arange(N // 32), src % 32]
    np.testing.assert_array_equal(out.reshape(-1, 32), np.repeat(want[:, None], 32, axis=1))


@cuda.jit
def half_masks(x, out):
    i = cuda.grid(1)
    if cuda.laneid < 16:
        out[i] = cuda.shfl_xor_sync(0x0000ffff, x[i], 1)
    else:
        out[i] = cuda.shfl_up_sync(0xffff0000, x[i], 2)


def test_shfl_partial_masks(rng):
    x = rng.integers(0, 1 << 40, N, dtype=np.int64)
    out = np.zeros_like(x)
    half_masks[N // 64, 64](x, out)
    t = np.arange(N)
    lane = lanes(N)
    want = np.where(lane < 16, x[t ^ 1], x[t - 2])
    # lanes 16 and 17 read lanes 14 and 15, outside their mask: undefined on
    # the GPU, their own value in the simulator
    defined = (lane < 16) | (lane >= 18)
    np.testing.assert_array_equal(out[defined], want[defined])
    if not ON_GPU:
        np.testing.assert_array_equal(out[~defined], x[~defined])


# --------------------------------------------------------------- votes

def test_votes(load, rng):
    k = load("warp_vote").votes
    x = rng.integers(-3, 4, N).astype(np.int32)
    x[:32] = 1                                   # warp 0: all true
    x[32:64] = 0                                 # warp 1: all false, any(x) false
    ballot = np.zeros(N, np.int32)
    all_, any_, eq = (np.zeros(N, np.bool_) for _ in range(3))
    active, lt = np.zeros(N, np.uint32), np.zeros(N, np.uint32)
    k[N // 128, 128](x, ballot, all_, any_, eq, active, lt)
    p = (x > 0).reshape(-1, 32)
    nz = (x != 0).reshape(-1, 32)
    rows = lambda v: np.repeat(v[:, None], 32, axis=1)
    np.testing.assert_array_equal(ballot.reshape(-1, 32), rows(bits_of(p)))
    np.testing.assert_array_equal(all_.reshape(-1, 32), rows(p.all(axis=1)))
    np.testing.assert_array_equal(any_.reshape(-1, 32), rows(nz.any(axis=1)))
    np.testing.assert_array_equal(eq.reshape(-1, 32), rows(p.all(axis=1) | ~p.any(axis=1)))
    assert (active == 0xffffffff).all()
    np.testing.assert_array_equal(lt, ((1 << lanes(N).astype(np.uint64)) - 1).astype(np.uint32))


def test_matches(load, rng):
    k = load("warp_vote").matches
    k64 = rng.integers(0, 3, N).astype(np.int64) << 40
    k64[64:96] = 12345                           # warp 2 agrees
    kf = rng.integers(0, 4, N).astype(np.float32)
    any64, anyf, allmask = (np.zeros(N, np.int32) for _ in range(3))
    allpred = np.zeros(N, np.bool_)
    k[N // 64, 64](k64, kf, any64, anyf, allmask, allpred)
    for w in range(N // 32):
        s = slice(32 * w, 32 * w + 32)
        for name, keys, got in (("i64", k64[s], any64[s]), ("f32", kf[s], anyf[s])):
            want = bits_of([keys == keys[j] for j in range(32)])
            np.testing.assert_array_equal(got, want, err_msg="%s warp %d" % (name, w))
        same = (k64[s] == k64[s][0]).all()
        assert (allpred[s] == same).all()
        assert (allmask[s] == (-1 if same else 0)).all()


# ------------------------------------------------ divergence, activemask

@cuda.jit
def aggregated_append(x, counter, slot, masks):
    i = cuda.grid(1)
    if x[i] > 0:
        mask = cuda.activemask()
        masks[i] = mask
        leader = cuda.ffs(mask) - 1
        base = 0
        if cuda.laneid == leader:
            base = cuda.atomic.add(counter, 0, cuda.popc(mask))
        base = cuda.shfl_sync(mask, base, leader)
        slot[i] = base + cuda.popc(mask & cuda.lanemask_lt())
    else:
        slot[i] = -1


def test_warp_aggregated_atomic(rng):
    x = rng.integers(-3, 3, N).astype(np.int32)
    counter = np.zeros(1, np.int32)
    slot = np.zeros(N, np.int32)
    masks = np.zeros(N, np.uint32)
    aggregated_append[N // 64, 64](x, counter, slot, masks)
    pos = x > 0
    assert counter[0] == pos.sum()
    np.testing.assert_array_equal(np.sort(slot[pos]), np.arange(pos.sum()))
    assert (slot[~pos] == -1).all()
    # within a warp, the slots of the active lanes are consecutive in lane order
    want = bits_of(pos.reshape(-1, 32)).view(np.uint32)
    for w in range(N // 32):
        s = slice(32 * w, 32 * w + 32)
        if pos[s].any():
            assert (masks[s][pos[s]] == want[w]).all()
            assert (np.diff(slot[s][pos[s]]) == 1).all()


@cuda.jit
def warp_sync_shared(x, out):
    buf = cuda.shared.array(64, dtype=np.float32)
    t = cuda.threadIdx.x
    lane = cuda.laneid
    buf[t] = x[cuda.grid(1)]
    cuda.syncwarp()
    s = 16
    while s > 0:
        if lane < s:
            buf[t] += buf[t + s]
        cuda.syncwarp()
        s //= 2
    if lane == 0:
        out[cuda.grid(1) // 32] = buf[t]


def test_syncwarp_shared_reduction(rng):
    x = rng.integers(-100, 100, N).astype(np.float32)
    out = np.zeros(N // 32, np.float32)
    warp_sync_shared[N // 64, 64](x, out)
    np.testing.assert_array_equal(out, x.reshape(-1, 32).sum(axis=1))


# ------------------------------------------------- reducing barriers

def test_syncthreads_count_and_or(load, rng):
    k = load("warp_sync").sync_reduce
    nb = 4
    x = rng.integers(-3, 3, nb * 128).astype(np.int32)
    x[128:256] = 7                       # block 1: every predicate true
    x[384] = 2000                        # block 3: one value over 1000
    out = np.zeros(3 * nb, np.int32)
    s = rng.standard_normal(nb * 128).astype(np.float32)
    k[nb, 128](x, out, s)
    b = x.reshape(nb, 128)
    want = np.stack([(b > 0).sum(axis=1), (b != 0).all(axis=1), (b > 1000).any(axis=1)], axis=1)
    np.testing.assert_array_equal(out.reshape(nb, 3), want.astype(np.int32))


@cuda.jit
def count_low_bits(x, out):
    i = cuda.grid(1)
    n = cuda.syncthreads_count(x[i])
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x] = n


def test_syncthreads_count_takes_low_32_bits(rng):
    x = rng.integers(0, 3, 128).astype(np.int64) << 32     # zero in the low 32 bits
    x[::5] += 1
    out = np.zeros(1, np.int32)
    count_low_bits[1, 128](x, out)
    assert out[0] == ((x & 0xffffffff) != 0).sum()


# -------------------------------------------- the simulator's own rules

@cuda.jit
def partial_warp(x, out):
    i = cuda.grid(1)
    out[i] = cuda.shfl_down_sync(0xffffffff, x[i], 16)
    out[i + 48] = cuda.ballot_sync(0xffffffff, x[i] > 0)


@sim_only
def test_partial_warp_simulator_rules():
    x = np.arange(48, dtype=np.int32) + 1
    out = np.zeros(96, np.int32)
    partial_warp[1, 48](x, out)
    np.testing.assert_array_equal(out[:32], np.concatenate([x[16:32], x[16:32]]))
    np.testing.assert_array_equal(out[32:48], x[32:48])                # missing lanes: own value
    assert (out[48:80] == -1).all()
    assert (out[80:96] == 0xffff).all()                              # lanes that exist


@cuda.jit
def shfl_then_barrier(x):
    i = cuda.grid(1)
    if cuda.laneid < 16:
        x[i] = cuda.shfl_sync(0xffffffff, x[i], 0)
    cuda.syncthreads()


@cuda.jit
def mask_without_self(x):
    i = cuda.grid(1)
    x[i] = cuda.shfl_sync(0x0000ffff, x[i], 0)


@cuda.jit
def different_ops(x):
    i = cuda.grid(1)
    if cuda.laneid < 16:
        x[i] = cuda.shfl_sync(0xffffffff, x[i], 0)
    else:
        x[i] = cuda.ballot_sync(0xffffffff, x[i] > 0)


@sim_only
@pytest.mark.parametrize("kern,text", [
    (shfl_then_barrier, "waits for lanes 16 to 31 of its mask 0xffffffff, which wait at the cuda.syncthreads()"),
    (mask_without_self, "is called by lane 16 of warp 0 with the mask 0x0000ffff, which leaves that lane out"),
    (different_ops, "meet at different warp operations"),
])
def test_warp_errors(kern, text):
    from ptxjit.errors import DeadlockError
    x = np.arange(64, dtype=np.int32)
    with pytest.raises(DeadlockError) as e:
        kern[1, 64](x)
    assert text in str(e.value)
    assert "test_warp.py" in str(e.value)


@cuda.jit
def exited_lanes_ok(x):
    i = cuda.grid(1)
    if cuda.laneid < 16:
        x[i] = cuda.shfl_sync(0xffffffff, x[i], 3)


@sim_only
def test_exited_lanes_do_not_take_part():
    x = np.arange(64, dtype=np.int32)
    exited_lanes_ok[1, 64](x)
    np.testing.assert_array_equal(x[:16], 3)
    np.testing.assert_array_equal(x[32:48], 35)
    np.testing.assert_array_equal(x[16:32], np.arange(16, 32))
