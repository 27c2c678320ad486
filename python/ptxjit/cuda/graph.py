"""CUDA graphs: the kernel launches, copies and memsets issued in a block,
captured once and replayed for the cost of one driver call.

    with cuda.graph() as g:          # nothing runs here: the work is recorded
        step[blocks, threads](u, v, dt)
        step[blocks, threads](v, u, dt)
    for _ in range(1000):
        g.launch()                   # runs both kernels
    cuda.synchronize()

Work issued on the default stream (no stream given) or on the graph's
capture stream inside the block is captured; arguments are taken as they
are at the capture (arrays by their memory, scalars by value).  To change
them, capture again: `with g.capture(): ...` updates the graph in place.
The graph keeps the arrays and kernels it refers to alive.
"""

import contextlib

from .. import _core

# The graph being captured (one at a time), for the copies that would
# need the host to act between two steps (devicearray.py refuses them).
_active = []


def refuse_in_capture(what):
    """Raises when a graph is being captured: `what` needs the host between
    two copies, which a graph cannot do."""
    if _active:
        raise RuntimeError("%s inside a graph capture: it copies through the host in two steps, which a "
                           "graph cannot hold; use contiguous arrays of the same layout, with a "
                           "cuda.pinned_array() on the host" % what)


class Graph(_core.Graph):
    """cuda.graph(stream=None): a graph, captured by `with graph:` or
    `with graph.capture():`, run by graph.launch(stream=None)."""

    __slots__ = ("_stream", "__weakref__")

    def __init__(self, stream=None):
        from .api import Stream
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError("cuda.graph(stream): stream must be a cuda.stream(), not %s" % type(stream).__name__)
        self._stream = stream

    @property
    def stream(self):
        """The stream work is captured on (made for the graph unless given)."""
        if self._stream is None:
            from .api import stream
            self._stream = stream()
        return self._stream

    @contextlib.contextmanager
    def capture(self, stream=None):
        """with graph.capture(): the work issued in the block (on the default
        stream or the capture stream) becomes the graph's, replacing what it
        had.  Nothing runs until graph.launch()."""
        if stream is not None:
            self._stream = stream
        self.__enter__()
        try:
            yield self
        except BaseException:
            self.__exit__(True, None, None)
            raise
        self.__exit__(None, None, None)

    def __enter__(self):
        self._begin(self.stream)
        _active.append(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        if self in _active:
            _active.remove(self)
        if exc_type is not None:
            try:
                self._end(False)
            except Exception:
                pass
            return False
        self._end(True)
        return False

    def __repr__(self):
        return "<ptxjit.cuda.Graph nodes=%d%s>" % (self.nodes, " (capturing)" if self.capturing else "")


def graph(stream=None):
    """A CUDA graph: `with cuda.graph() as g: ...` captures the work issued
    in the block, g.launch() replays it."""
    return Graph(stream)
