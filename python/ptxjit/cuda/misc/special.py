"""literal_unroll: `for x in literal_unroll(tup):` runs the loop's body
once per element of the tuple, each copy typed with that element's type
(so a tuple may mix numbers, arrays and tuples).  The compiler does the
unrolling (src/sema/sema_unroll.c); on the host the call returns its
argument, as Numba's does."""

from ..stubs import Stub


class _LiteralUnroll(Stub):
    __slots__ = ()

    def __call__(self, container):
        return container


literal_unroll = _LiteralUnroll("cuda.literal_unroll")

__all__ = ["literal_unroll"]
