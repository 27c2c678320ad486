"""Minimax polynomial approximations (Remez exchange) with mpmath.

    from remez import minimax
    coeffs, err = minimax(g, a, b, n, rel=True)

finds the polynomial p(z) = c[0] + c[1] z + ... + c[n] z^n that minimises
max |w(z) (g(z) - p(z))| on [a, b], where w = 1/|g| for a relative error
(rel=True) or 1 (rel=False), or a given weight function.  Coefficients are
mpmath numbers; `err` is the levelled error.  Used by math_coeffs.py.
"""

import mpmath as mp


def _cheb_nodes(a, b, m):
    return [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * i / (m - 1)) for i in range(m)]


def _solve(g, w, xs, n):
    m = n + 2
    A = mp.matrix(m, m)
    rhs = mp.matrix(m, 1)
    for i, x in enumerate(xs):
        p = mp.mpf(1)
        for j in range(n + 1):
            A[i, j] = p
            p *= x
        A[i, n + 1] = (-1) ** i / w(x)
        rhs[i] = g(x)
    sol = mp.lu_solve(A, rhs)
    return [sol[j] for j in range(n + 1)], sol[n + 1]


def _peval(c, x):
    r = mp.mpf(0)
    for v in reversed(c):
        r = r * x + v
    return r


def _refine(e, lo, hi, sgn):
    """Maximises sgn*e on [lo, hi] by golden-section search."""
    gr = (mp.sqrt(5) - 1) / 2
    a, b = lo, hi
    c = b - gr * (b - a)
    d = a + gr * (b - a)
    fc, fd = sgn * e(c), sgn * e(d)
    for _ in range(60):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - gr * (b - a)
            fc = sgn * e(c)
        else:
            a, c, fc = c, d, fd
            d = a + gr * (b - a)
            fd = sgn * e(d)
    x = (a + b) / 2
    return x


def minimax(g, a, b, n, rel=True, weight=None, iters=30, grid=None, verbose=False):
    a, b = mp.mpf(a), mp.mpf(b)
    if weight is not None:
        w = weight
    elif rel:
        w = lambda x: 1 / abs(g(x))
    else:
        w = lambda x: mp.mpf(1)
    m = n + 2
    xs = _cheb_nodes(a, b, m)
    grid = grid or max(40 * m, 400)
    gpts = _cheb_nodes(a, b, grid)
    best = None
    for it in range(iters):
        c, E = _solve(g, w, xs, n)
        e = lambda x: w(x) * (g(x) - _peval(c, x))
        vals = [e(x) for x in gpts]
        # local extrema of the sampled error, alternating in sign
        ext = []
        for i in range(grid):
            v = vals[i]
            left = vals[i - 1] if i > 0 else None
            right = vals[i + 1] if i < grid - 1 else None
            if (left is None or abs(v) >= abs(left)) and (right is None or abs(v) >= abs(right)):
                lo = gpts[max(i - 1, 0)]
                hi = gpts[min(i + 1, grid - 1)]
                x = _refine(e, lo, hi, 1 if v > 0 else -1) if 0 < i < grid - 1 else gpts[i]
                ext.append((x, e(x)))
        # merge runs of equal sign, keep the largest of each run
        alt = []
        for x, v in ext:
            if alt and (alt[-1][1] > 0) == (v > 0):
                if abs(v) > abs(alt[-1][1]):
                    alt[-1] = (x, v)
            else:
                alt.append((x, v))
        # keep m points with the largest errors while alternating
        while len(alt) > m:
            # drop the smaller of the two ends, or merge neighbours around the smallest
            if abs(alt[0][1]) < abs(alt[-1][1]):
                alt.pop(0)
            else:
                alt.pop()
        maxerr = max(abs(v) for _, v in ext)
        if best is None or maxerr < best[1]:
            best = (c, maxerr)
        if verbose:
            print(it, mp.nstr(maxerr, 5), mp.nstr(abs(E), 5), len(alt))
        if len(alt) < m:
            # single exchange: the global maximum replaces the node next to
            # it whose error has the same sign (or its neighbour's place)
            xm, vm = max(ext, key=lambda p: abs(p[1]))
            errs = [e(x) for x in xs]
            j = min(range(m), key=lambda k: abs(xs[k] - xm))
            if (errs[j] > 0) == (vm > 0):
                xs[j] = xm
            elif xm > xs[j] and j + 1 < m:
                xs[j + 1] = xm
            elif xm < xs[j] and j > 0:
                xs[j - 1] = xm
            else:
                xs[j] = xm
            xs.sort()
            continue
        xs = [x for x, _ in alt]
        if maxerr - abs(E) < abs(E) * mp.mpf("1e-6"):
            break
    return best


def guarded(f, at_zero=None):
    """f evaluated with enough extra precision to survive the cancellation
    of expressions like (exp(x) - 1 - x) / x**2 near x = 0; at_zero is the
    limit at 0 (f(0) is not evaluated)."""
    def g(x):
        x = mp.mpf(x)
        if x == 0:
            if at_zero is None:
                raise ValueError("no value at 0")
            return mp.mpf(at_zero)
        extra = int(max(0, -mp.log(abs(x), 2))) * 4 + 64
        with mp.extraprec(extra):
            return +f(x)
    return g
