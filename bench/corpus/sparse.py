"""Sparse and irregular access: SpMV in CSR (a row per thread) and ELL
(column-major slots), and a gather and a scatter through a permutation."""

import numpy as np
from numba import cuda

from _case import Case, blocks

TPB = 256


@cuda.jit
def spmv_csr(indptr, indices, data, x, y):
    row = cuda.grid(1)
    if row < y.shape[0]:
        acc = 0.0
        for k in range(indptr[row], indptr[row + 1]):
            acc += data[k] * x[indices[k]]
        y[row] = acc


@cuda.jit
def spmv_ell(cols, vals, x, y):
    row = cuda.grid(1)
    if row < y.shape[0]:
        acc = 0.0
        for s in range(cols.shape[0]):
            c = cols[s, row]
            if c >= 0:
                acc += vals[s, row] * x[c]
        y[row] = acc


@cuda.jit
def gather(src, idx, out):
    i = cuda.grid(1)
    if i < idx.size:
        out[i] = src[idx[i]]


@cuda.jit
def scatter(src, idx, out):
    i = cuda.grid(1)
    if i < idx.size:
        out[idx[i]] = src[i]


def csr(small, rng):
    n = 1000 if small else 1 << 21
    counts = rng.integers(0, 33, n)
    indptr = np.zeros(n + 1, np.int32)
    indptr[1:] = np.cumsum(counts)
    nnz = int(indptr[-1])
    return n, indptr, rng.integers(0, n, nnz).astype(np.int32), rng.random(nnz)


def make_csr(small, rng):
    n, indptr, indices, data = csr(small, rng)
    return dict(indptr=indptr, indices=indices, data=data, x=rng.random(n), y=np.zeros(n))


def ref_csr(h):
    rows = np.repeat(np.arange(h["y"].size), np.diff(h["indptr"]))
    return dict(y=np.bincount(rows, h["data"] * h["x"][h["indices"]], minlength=h["y"].size))


def launch_csr(d):
    spmv_csr[blocks(d["y"].size, TPB), TPB](d["indptr"], d["indices"], d["data"], d["x"], d["y"])


def c_csr(k, d):
    n = d["y"].size
    k((blocks(n, TPB),), (TPB,), (d["indptr"], d["indices"], d["data"], d["x"], d["y"], np.int32(n)))


def make_ell(small, rng):
    n, width = (1000, 16) if small else (1 << 21, 32)
    cols = rng.integers(0, n, (width, n)).astype(np.int32)
    cols[rng.random((width, n)) < 0.3] = -1
    return dict(cols=cols, vals=rng.random((width, n)), x=rng.random(n), y=np.zeros(n))


def ref_ell(h):
    cols, vals = h["cols"], h["vals"]
    return dict(y=np.where(cols >= 0, vals * h["x"][np.maximum(cols, 0)], 0).sum(0))


def launch_ell(d):
    spmv_ell[blocks(d["y"].size, TPB), TPB](d["cols"], d["vals"], d["x"], d["y"])


def c_ell(k, d):
    w, n = d["cols"].shape
    k((blocks(n, TPB),), (TPB,), (d["cols"], d["vals"], d["x"], d["y"], np.int32(w), np.int32(n)))


def make_perm(small, rng):
    n = 1000 if small else 1 << 24
    return dict(src=rng.random(n).astype(np.float32), idx=rng.permutation(n).astype(np.int64),
                out=np.zeros(n, np.float32))


def ref_scatter(h):
    out = np.zeros_like(h["out"])
    out[h["idx"]] = h["src"]
    return dict(out=out)


def launch_gather(d):
    gather[blocks(d["idx"].size, TPB), TPB](d["src"], d["idx"], d["out"])


def launch_scatter(d):
    scatter[blocks(d["idx"].size, TPB), TPB](d["src"], d["idx"], d["out"])


CASES = [
    Case("spmv_csr", make_csr, launch_csr, ref_csr, ["y"], (1e-12, 1e-12), c=("spmv_csr", c_csr)),
    Case("spmv_ell", make_ell, launch_ell, ref_ell, ["y"], (1e-12, 1e-12), c=("spmv_ell", c_ell)),
    Case("gather_perm", make_perm, launch_gather, lambda h: dict(out=h["src"][h["idx"]]), ["out"], None),
    Case("scatter_perm", make_perm, launch_scatter, ref_scatter, ["out"], None),
]
