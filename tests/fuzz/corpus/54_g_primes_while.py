# Nested while loops with break and continue; a bool flag.
# sig: void(int64[::1], int64[::1])
from ptxjit import cuda


@cuda.jit
def count_primes_below(ns, out):
    i = cuda.grid(1)
    if i < ns.size:
        n = ns[i]
        count = 0
        k = 2
        while k < n:
            d = 2
            prime = True
            while d * d <= k:
                if k % d == 0:
                    prime = False
                    break
                d += 1
            k += 1
            if not prime:
                continue
            count += 1
        out[i] = count
