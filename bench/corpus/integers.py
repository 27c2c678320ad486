"""Integer work: 64-bit multiply/xor-shift hashing in an unrolled loop,
counting digits and newlines in a byte buffer, and population counts."""

import numpy as np
from numba import cuda, int32

from _case import Case, blocks

TPB = 256
M1 = np.uint64(0xFF51AFD7ED558CCD)
M2 = np.uint64(0xC4CEB9FE1A85EC53)
ROUNDS = 8


@cuda.jit
def hash64(keys, out):
    i = cuda.grid(1)
    if i < keys.size:
        h = keys[i]
        for r in range(ROUNDS):
            h ^= h >> np.uint64(33)
            h *= M1
            h ^= h >> np.uint64(29)
            h *= M2
            h ^= h >> np.uint64(32)
            h += np.uint64(r)
        out[i] = h


@cuda.jit
def count_digits_newlines(buf, counts):
    sm = cuda.shared.array(2, int32)
    if cuda.threadIdx.x < 2:
        sm[cuda.threadIdx.x] = 0
    cuda.syncthreads()
    digits = 0
    lines = 0
    for i in range(cuda.grid(1), buf.shape[0], cuda.gridsize(1)):
        c = buf[i]
        if c >= 48 and c <= 57:
            digits += 1
        elif c == 10:
            lines += 1
    cuda.atomic.add(sm, 0, digits)
    cuda.atomic.add(sm, 1, lines)
    cuda.syncthreads()
    if cuda.threadIdx.x < 2:
        cuda.atomic.add(counts, cuda.threadIdx.x, sm[cuda.threadIdx.x])


@cuda.jit
def popcount_bits(words, out):
    i = cuda.grid(1)
    if i < words.size:
        w = words[i]
        out[i] = cuda.popc(w) + cuda.clz(w) * 100 + cuda.ffs(w) * 10000


def make_hash(small, rng):
    n = 1000 if small else 1 << 24
    return dict(keys=rng.integers(0, 2 ** 63, n, dtype=np.uint64), out=np.zeros(n, np.uint64))


def ref_hash(h):
    x = h["keys"].copy()
    with np.errstate(over="ignore"):
        for r in range(ROUNDS):
            x ^= x >> np.uint64(33)
            x *= M1
            x ^= x >> np.uint64(29)
            x *= M2
            x ^= x >> np.uint64(32)
            x += np.uint64(r)
    return dict(out=x)


def launch_hash(d):
    hash64[blocks(d["keys"].size, TPB), TPB](d["keys"], d["out"])


def c_hash(k, d):
    n = d["keys"].size
    k((blocks(n, TPB),), (TPB,), (d["keys"], d["out"], np.int32(n)))


def make_text(small, rng):
    n = 5000 if small else 1 << 26
    alphabet = np.frombuffer(b"0123456789abcdefghij ,.;\n\n", np.uint8)
    return dict(buf=alphabet[rng.integers(0, alphabet.size, n)], counts=np.zeros(2, np.int32))


def ref_text(h):
    b = h["buf"]
    return dict(counts=np.array([((b >= 48) & (b <= 57)).sum(), (b == 10).sum()], np.int32))


def launch_text(d):
    count_digits_newlines[4 if d["buf"].size < 65536 else 528, TPB](d["buf"], d["counts"])


def c_text(k, d):
    n = d["buf"].size
    k((4 if n < 65536 else 528,), (TPB,), (d["buf"], d["counts"], np.int32(n)))


def make_popc(small, rng):
    n = 1000 if small else 1 << 24
    w = rng.integers(0, 2 ** 32, n, dtype=np.uint32)
    w[::7] = 0
    return dict(words=w, out=np.zeros(n, np.int32))


def ref_popc(h):
    w = h["words"]
    pop = np.unpackbits(w.view(np.uint8).reshape(-1, 4), axis=1).sum(1)
    clz = np.where(w == 0, 32, 31 - np.floor(np.log2(np.maximum(w, 1).astype(np.float64))).astype(np.int64))
    low = w & (~w + np.uint32(1))
    ffs = np.where(w == 0, 0, np.floor(np.log2(np.maximum(low, 1).astype(np.float64))).astype(np.int64) + 1)
    return dict(out=(pop + clz * 100 + ffs * 10000).astype(np.int32))


def launch_popc(d):
    popcount_bits[blocks(d["words"].size, TPB), TPB](d["words"], d["out"])


CASES = [
    Case("hash64_xorshift_mul", make_hash, launch_hash, ref_hash, ["out"], None, c=("hash64", c_hash)),
    Case("parse_digits_newlines", make_text, launch_text, ref_text, ["counts"], None,
         c=("count_digits_newlines", c_text)),
    Case("popc_clz_ffs", make_popc, launch_popc, ref_popc, ["out"], None),
]
