from numba import cuda

@cuda.jit
def k(a):
    x = [1, 2, 3]
    with open('f') as f:
        pass
    try:
        y = 1
    except Exception:
        y = 2
    z = {i: i for i in range(3)}
    w = lambda q: q + 1
    print(f"value {x}")
    global g
    del a
    def inner(v):
        return v
    assert a[0] > 0, "positive"
    raise ValueError("bad")
