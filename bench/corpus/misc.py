"""Everyday data kernels: assigning points to their nearest k-means centroid
(the centroids in shared memory), and splitting a click stream into
sessions (the sessionize example of Numba's documentation): a session
starts where the user changes or the gap exceeds a limit, and each click
takes the index of its session's first click."""

import numpy as np
from numba import cuda, float32

from _case import Case, blocks

K = 16
DIM = 4
GAP = 3600
TPB = 256


@cuda.jit
def kmeans_assign(points, centroids, labels):
    sc = cuda.shared.array((K, DIM), float32)
    t = cuda.threadIdx.x
    if t < K * DIM:
        sc[t // DIM, t % DIM] = centroids[t // DIM, t % DIM]
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < points.shape[0]:
        best = 0
        best_d = float32(3.0e38)
        for k in range(K):
            dist = float32(0.0)
            for c in range(DIM):
                diff = points[i, c] - sc[k, c]
                dist += diff * diff
            if dist < best_d:
                best_d = dist
                best = k
        labels[i] = best


@cuda.jit
def session_starts(user_id, timestamp, results):
    i = cuda.grid(1)
    size = len(user_id)
    if i >= size:
        return
    if i == 0:
        results[0] = 0
        return
    new_session = (user_id[i] != user_id[i - 1]) or (timestamp[i] - timestamp[i - 1] > GAP)
    results[i] = i if new_session else -1


@cuda.jit
def session_fill(results):
    i = cuda.grid(1)
    if i < len(results) and results[i] < 0:
        j = i
        while results[j] < 0:
            j -= 1
        results[i] = results[j]


def make_km(small, rng):
    n = 1000 if small else 1 << 22
    return dict(points=rng.random((n, DIM)).astype(np.float32), centroids=rng.random((K, DIM)).astype(np.float32),
                labels=np.zeros(n, np.int32))


def ref_km(h):
    p = h["points"]
    best = np.zeros(p.shape[0], np.int32)
    best_d = np.full(p.shape[0], np.inf, np.float32)
    for k in range(K):
        dist = np.zeros(p.shape[0], np.float32)
        for c in range(DIM):
            dist += (p[:, c] - h["centroids"][k, c]) ** 2
        closer = dist < best_d
        best[closer], best_d[closer] = k, dist[closer]
    return dict(labels=best)


def launch_km(d):
    kmeans_assign[blocks(d["points"].shape[0], TPB), TPB](d["points"], d["centroids"], d["labels"])


def make_sess(small, rng):
    n = 2000 if small else 1 << 23
    users = np.cumsum(rng.random(n) < 0.02).astype(np.int64)
    ts = np.cumsum(rng.exponential(900, n)).astype(np.int64)
    return dict(user_id=users, timestamp=ts, results=np.zeros(n, np.int64))


def ref_sess(h):
    u, t = h["user_id"], h["timestamp"]
    start = np.ones(u.size, bool)
    start[1:] = (u[1:] != u[:-1]) | (t[1:] - t[:-1] > GAP)
    idx = np.where(start, np.arange(u.size), 0)
    return dict(results=np.maximum.accumulate(idx))


def launch_sess(d):
    g = blocks(d["results"].size, TPB)
    session_starts[g, TPB](d["user_id"], d["timestamp"], d["results"])
    session_fill[g, TPB](d["results"])


CASES = [
    Case("kmeans_assign", make_km, launch_km, ref_km, ["labels"], None),
    Case("docs_sessionize", make_sess, launch_sess, ref_sess, ["results"], None),
]
