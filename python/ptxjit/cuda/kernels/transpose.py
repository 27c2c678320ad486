"""transpose(a, b=None): b = a.T for a 2-D device array, on the device.

The kernel moves one TILE x TILE tile per block through shared memory, so
that both the reads of a and the writes of b are coalesced (a row of the
tile is read along a's rows and written along b's rows); the tile has one
padding column, which keeps the column reads of the tile free of
shared-memory bank conflicts.  Any dtype a kernel can copy works: numbers,
bool, complex and records.
"""

from ptxjit import cuda

TILE = 16


@cuda.jit
def _transpose(a, b):
    tile = cuda.shared.array((TILE, TILE + 1), dtype=a.dtype)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bx = cuda.blockIdx.x * TILE
    by = cuda.blockIdx.y * TILE
    x = by + tx            # a's column
    y = bx + ty            # a's row
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    cuda.syncthreads()
    x = bx + tx            # b's column (a's row)
    y = by + ty            # b's row (a's column)
    if y < b.shape[0] and x < b.shape[1]:
        b[y, x] = tile[tx, ty]


def transpose(a, b=None):
    """Writes the transpose of the 2-D device array a into b (a new device
    array when b is None) and returns b."""
    if a.ndim != 2:
        raise ValueError("transpose() takes a 2-D array, not one of %d dimensions" % a.ndim)
    rows, cols = a.shape
    if b is None:
        b = cuda.device_array((cols, rows), dtype=a.dtype, stream=getattr(a, "stream", 0))
    elif tuple(b.shape) != (cols, rows):
        raise ValueError("transpose() of an array of shape %s needs an output of shape %s, not %s"
                         % (tuple(a.shape), (cols, rows), tuple(b.shape)))
    elif b.dtype != a.dtype:
        raise TypeError("transpose() needs an output of dtype %s, not %s" % (a.dtype, b.dtype))
    grid = ((rows + TILE - 1) // TILE, (cols + TILE - 1) // TILE)
    _transpose[grid, (TILE, TILE)](a, b)
    return b
