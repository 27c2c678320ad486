from numba import cuda

@cuda.jit
def k(a):
    s = 'it\'s' "x" r'\n' b'bytes' """triple
quoted""" '\x41\u00e9\N{BULLET}'
    print("value", a[0], s)
