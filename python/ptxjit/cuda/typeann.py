"""The type annotation of a compiled kernel: `kernel.overloads[sig]._type_annotation`.

Numba keeps a TypeAnnotation of every overload, whose `typemap` maps each
variable of the function to its Numba type.  ptxjit's compiler writes the
same facts as text (Kernel.types, what inspect_types() prints): a header
line per function, then one `name: type` line per variable, then the
source.  This reads the kernel's own section (the first) into a dict of
ptxjit.types objects; str() of the annotation is the whole listing.
"""

import re

from ..extending import type_of_text

_VARIABLE = re.compile(r"^    ([A-Za-z_][\w.$]*): (.+)$")


class TypeAnnotation:
    """typemap: {variable name: type} of the kernel's variables (its
    arguments among them); str(): the typed source listing."""

    def __init__(self, text):
        self.text = text
        self.typemap = {}
        lines = text.splitlines()
        for line in lines[1:]:
            m = _VARIABLE.match(line)
            if not m:
                break
            self.typemap[m.group(1)] = type_of_text(m.group(2))

    def __str__(self):
        return self.text

    def __repr__(self):
        return "<TypeAnnotation of %s>" % (self.text.split(" (", 1)[0] if self.text else "?")


def type_annotation(kernel):
    """The annotation of a compiled Kernel (the C getter calls this)."""
    text = kernel.types
    disp = getattr(kernel, "_dispatcher", None)
    if text is None and disp is not None:   # from the disk cache: the dispatcher compiles it again
        text = disp._text(kernel, "types")
    if text is None:
        raise AttributeError("this kernel has no typed source (a kernel from the disk cache gets it through "
                             "its dispatcher: kernel.inspect_types())")
    return TypeAnnotation(text)
