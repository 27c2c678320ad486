"""ptxjit.cuda.random: Numba's xoroshiro128+ random numbers for kernels.

    from ptxjit.cuda.random import (create_xoroshiro128p_states,
                                    xoroshiro128p_uniform_float32)

    @cuda.jit
    def fill(states, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = xoroshiro128p_uniform_float32(states, i)

    states = create_xoroshiro128p_states(n, seed=1)

The streams are Numba's, number for number: the generator is xoroshiro128+
(Blackman and Vigna; period 2**128 - 1), a seed becomes a state through one
step of splitmix64 (both words of the state get the same value), and state
i is state 0 advanced by i jumps of 2**64 steps, so threads draw from
non-overlapping stretches of one sequence.  uint64_to_unit_float64 keeps
the top 53 bits; the float32 variant rounds that float64 to float32 (so it
can give 1.0, as Numba's does).  The normal draws use Box-Muller on two
float32 uniforms and keep the cosine half; the float64 variant also starts
from float32 uniforms, as Numba's does.

The device functions below are written in ptxjit's kernel dialect and
compiled into the kernels that call them.  A state is a record of Numba's
xoroshiro128p_dtype (two uint64 fields s0 and s1, aligned), so an array of
states can come from Numba's spelling too:
cuda.device_array(n, dtype=xoroshiro128p_dtype) and
init_xoroshiro128p_states(states, seed).

States are made on the host, as Numba does, but without walking 128 steps
per jump per state: a jump is a linear map of the 128-bit state over
GF(2), so the states are built by doubling (states k..2k-1 are states
0..k-1 under the map raised to the power k), each power applied to all
states at once through byte-indexed tables.
"""

import math

import numpy as np

from .dispatcher import jit as _jit

__all__ = [
    "xoroshiro128p_dtype", "create_xoroshiro128p_states", "init_xoroshiro128p_states",
    "init_xoroshiro128p_states_cpu", "xoroshiro128p_next", "xoroshiro128p_jump",
    "uint64_to_unit_float32", "uint64_to_unit_float64",
    "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64",
]

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)

TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)

# the jump polynomial, as int64 bit patterns (kernels take 64-bit signed
# constants; np.uint64() of them gives the unsigned words)
_JUMP0 = 0xBEAC0467EBA5FACB - (1 << 64)
_JUMP1 = 0xD86B048B86AA9922 - (1 << 64)


# ------------------------------------------------------- device functions

@_jit(device=True)
def rotl(x, k):
    """x rotated left by k bits (x uint64)."""
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@_jit(device=True)
def xoroshiro128p_next(states, index):
    """The next uint64 of generator `index`; advances states[index]."""
    i = np.int64(index)
    s0 = states[i]['s0']
    s1 = states[i]['s1']
    result = s0 + s1
    s1 ^= s0
    states[i]['s0'] = rotl(s0, 55) ^ s1 ^ (s1 << np.uint64(14))
    states[i]['s1'] = rotl(s1, 36)
    return result


@_jit(device=True)
def xoroshiro128p_jump(states, index):
    """Advances generator `index` by 2**64 steps."""
    i = np.int64(index)
    s0 = np.uint64(0)
    s1 = np.uint64(0)
    for w in range(2):
        jump = np.uint64(_JUMP0) if w == 0 else np.uint64(_JUMP1)
        for b in range(64):
            if (jump >> np.uint64(b)) & np.uint64(1):
                s0 ^= states[i]['s0']
                s1 ^= states[i]['s1']
            xoroshiro128p_next(states, i)
    states[i]['s0'] = s0
    states[i]['s1'] = s1


@_jit(device=True)
def uint64_to_unit_float64(x):
    """A uint64 as a float64 in [0, 1): its top 53 bits."""
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@_jit(device=True)
def uint64_to_unit_float32(x):
    """A uint64 as a float32 in [0, 1]: the float64 of its top 53 bits, rounded."""
    return np.float32(uint64_to_unit_float64(x))


@_jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform in [0, 1) from generator `index` (one step)."""
    return uint64_to_unit_float32(xoroshiro128p_next(states, index))


@_jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform in [0, 1) from generator `index` (one step)."""
    return uint64_to_unit_float64(xoroshiro128p_next(states, index))


@_jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A float32 from N(0, 1) by Box-Muller (two steps of generator `index`)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-np.float32(2.0) * math.log(u1)) * math.cos(np.float32(6.283185307179586) * u2)


@_jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A float64 from N(0, 1) by Box-Muller on two float32 uniforms, as Numba does."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-np.float64(2.0) * math.log(u1)) * math.cos(np.float64(6.283185307179586) * u2)


# ------------------------------------------------------- host: the jump map

_M64 = (1 << 64) - 1
_JUMP = (_JUMP0 & _M64, _JUMP1 & _M64)


def _next_state(v):
    """One step of the generator on a state held as s0 | s1 << 64."""
    s0, s1 = v & _M64, v >> 64
    s1 ^= s0
    n0 = (((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14)) & _M64
    n1 = ((s1 << 36) | (s1 >> 28)) & _M64
    return n0 | (n1 << 64)


def _jump_state(v):
    acc = 0
    for word in _JUMP:
        for b in range(64):
            if (word >> b) & 1:
                acc ^= v
            v = _next_state(v)
    return acc


def _splitmix(seed):
    z = (seed + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _apply(cols, v):
    """The matrix with columns `cols` (128 ints) times the bit vector v."""
    acc = 0
    k = 0
    while v:
        if v & 1:
            acc ^= cols[k]
        v >>= 1
        k += 1
    return acc


_powers = []        # columns of J**(2**m), m = 0, 1, ...
_tables = {}        # m -> (lo, hi): 16 byte tables of J**(2**m)


def _power(m):
    """The columns of the jump map raised to 2**m."""
    if not _powers:
        _powers.append([_jump_state(1 << k) for k in range(128)])
    while len(_powers) <= m:
        p = _powers[-1]
        _powers.append([_apply(p, c) for c in p])
    return _powers[m]


def _table(m):
    t = _tables.get(m)
    if t is None:
        cols = _power(m)
        lo = np.zeros((16, 256), np.uint64)
        hi = np.zeros((16, 256), np.uint64)
        for p in range(16):
            vals = [0] * 256
            for v in range(1, 256):
                low = v & -v
                vals[v] = vals[v ^ low] ^ cols[8 * p + low.bit_length() - 1]
            lo[p] = [x & _M64 for x in vals]
            hi[p] = [x >> 64 for x in vals]
        t = _tables[m] = (lo, hi)
    return t


def _apply_many(m, s0, s1):
    """J**(2**m) applied to every state (s0[j], s1[j])."""
    lo, hi = _table(m)
    o0 = np.zeros(s0.shape, np.uint64)
    o1 = np.zeros(s0.shape, np.uint64)
    for p in range(16):
        word = s0 if p < 8 else s1
        b = ((word >> np.uint64(8 * (p % 8))) & np.uint64(0xFF)).astype(np.intp)
        o0 ^= lo[p][b]
        o1 ^= hi[p][b]
    return o0, o1


def _states(n, seed, subsequence_start):
    """(s0, s1) arrays of the n states Numba makes for seed."""
    z = _splitmix(int(seed) & _M64)
    v = z | (z << 64)
    start = int(subsequence_start)
    if start < 0:
        raise ValueError("subsequence_start must be 0 or more, not %d" % start)
    m = 0
    while start:
        if start & 1:
            v = _apply(_power(m), v)
        start >>= 1
        m += 1
    s0 = np.empty(n, np.uint64)
    s1 = np.empty(n, np.uint64)
    if n:
        s0[0], s1[0] = v & _M64, v >> 64
    k, m = 1, 0
    while k < n:
        cnt = min(k, n - k)
        s0[k:k + cnt], s1[k:k + cnt] = _apply_many(m, s0[:cnt], s1[:cnt])
        k *= 2
        m += 1
    return s0, s1


def init_xoroshiro128p_states_cpu(states, seed, subsequence_start):
    """Fills the host array `states` (records of xoroshiro128p_dtype, or
    an (n, 2) uint64 array) with Numba's states for seed."""
    n = states.shape[0]
    s0, s1 = _states(n, seed, subsequence_start)
    if states.dtype.names:
        states["s0"] = s0
        states["s1"] = s1
    else:
        states[:, 0] = s0
        states[:, 1] = s1


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Initialises the device array `states` for len(states) generators,
    2**64 steps apart; subsequence_start skips that many such stretches."""
    if states.ndim != 1 or states.dtype != xoroshiro128p_dtype:
        raise TypeError("states must be a 1-d array of xoroshiro128p_dtype (create_xoroshiro128p_states makes "
                        "one), not an array of shape %s and dtype %s" % (states.shape, states.dtype))
    host = np.empty(states.shape, xoroshiro128p_dtype)
    init_xoroshiro128p_states_cpu(host, seed, subsequence_start)
    states.copy_to_device(host, stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A device array of states for n generators (one per thread), seeded
    as Numba seeds them: draws match Numba's for the same seed."""
    from .api import device_array
    n = int(n)
    if n < 0:
        raise ValueError("create_xoroshiro128p_states: n must be 0 or more, not %d" % n)
    states = device_array(n, dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states
