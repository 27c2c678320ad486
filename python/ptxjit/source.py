"""The source text of a function to compile: the text Python ran.

ptxjit compiles a function from its source text, not its bytecode.  The
text comes from the function's file, which can change after the module
was imported: an editor saving it, a `git checkout`.  Compiling what the
file says then would make a kernel that is not the function Python runs.
So:

  * a decorator takes the file's lines when it runs (capture_lines: one
    stat of the file to drop a stale linecache entry, then linecache's
    list, read once per file; microseconds a function), and the compiler
    later reads the function out of those lines, not out of the file;
  * before any text is handed to the compiler, check_code compiles those
    lines with Python's compile() and compares the function's code object
    there with its __code__ (bytecode, constants, names, line table,
    nested code too): the function's own lines first (tens of
    microseconds), and where they differ the whole file, once per file
    (a few milliseconds), since the bytecode of a function can depend on
    the module around it.  A mismatch (the file changed before the
    decorator ran, or cuda.jit(f) was called long after the import) makes
    the function compile from its code object instead (below).

A function with no text to read (made by exec(), eval(), compile(),
types.FunctionType, `python -c`), or whose file no longer holds the code
Python runs, is compiled from the code Python runs: decompile.rebuild
writes its text from the code object, at the user's lines and columns,
and the columns-removed field is REBUILT (the compiler then names lines
and columns but shows no text).

source_of(func, lines) is the one entry: (dedented text, file, first line,
columns removed), checked.
"""

import linecache
import re
from types import ModuleType

REBUILT = -1             # PJ_REBUILT of ptxjit.h: the text was written from the bytecode


def capture_lines(func):
    """The lines of func's file as they are now (a list shared with
    linecache, never changed in place), or None without a file."""
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    name = code.co_filename
    linecache.checkcache(name)
    return linecache.getlines(name, getattr(func, "__globals__", None)) or None


def _dedent(lines):
    """(text, columns removed) of source lines."""
    indents = [len(l) - len(l.lstrip(" \t")) for l in lines if l.strip()]
    n = min(indents) if indents else 0
    if n == 0:
        return "".join(lines), 0
    first = next(l for l in lines if l.strip())
    prefix = first[:n]
    out = []
    for l in lines:
        if l.startswith(prefix):
            out.append(l[n:])
        else:
            k = len(l) - len(l.lstrip(" \t"))
            out.append(l[min(k, n):])
    return "".join(out), n


def _last_line(code):
    """The last source line any instruction of code (or of a function
    defined in it) comes from; None when the positions are not kept."""
    last = code.co_firstlineno
    positions = getattr(code, "co_positions", None)
    if positions is None:
        return None
    for line, end, _, _ in positions():
        if line is None:
            continue
        if end is None:          # python -X no_debug_ranges
            return None
        if end > last:
            last = end
    for c in code.co_consts:
        if hasattr(c, "co_positions"):
            n = _last_line(c)
            if n is None:
                return None
            last = max(last, n)
    return last


def _quick_block(func, lines):
    """(lines, first line) of a function's definition, decorators included,
    with the end taken from the code's positions (Python 3.11+); None where
    that does not apply, and then _block does it."""
    code = func.__code__
    if func.__name__ == "<lambda>":
        return None
    first = code.co_firstlineno
    last = _last_line(code)
    if not lines or last is None or first < 1 or last > len(lines) or last < first:
        return None
    head = lines[first - 1].lstrip()
    if not head.startswith(("@", "def ", "async def ")):
        return None
    block = lines[first - 1:last]
    # the block ends with the code; trailing lines indented deeper than the
    # def belong to it too: a closing bracket, a comment, and statements
    # that left no instructions (the body of `if False:`, dropped by the
    # bytecode compiler of Python 3.12)
    indent = len(lines[first - 1]) - len(head)
    for extra in lines[last:]:
        body = extra.lstrip()
        if body and len(extra) - len(body) <= indent:
            break
        block.append(extra)
    while block and not block[-1].strip():
        block.pop()
    return block, first


_DEF = re.compile(r"^(\s*def\s)|(\s*async\s+def\s)|(.*(?<!\w)lambda(:|\s))|^(\s*@)")


def _block(func, lines):
    """(lines, first line) as inspect.getsourcelines finds them, from the
    given lines (a lambda, or positions not kept); None past their end."""
    import inspect
    lnum = func.__code__.co_firstlineno - 1
    if not lines or lnum >= len(lines):
        return None
    while lnum > 0 and not _DEF.match(lines[lnum]):
        lnum -= 1
    return inspect.getblock(lines[lnum:]), lnum + 1


def _lines(code):
    return list(code.co_lines()) if hasattr(code, "co_lines") else code.co_lnotab


def _same_code(a, b):
    if (a.co_code != b.co_code or a.co_names != b.co_names or a.co_varnames != b.co_varnames or
            a.co_freevars != b.co_freevars or a.co_cellvars != b.co_cellvars or a.co_name != b.co_name or
            a.co_argcount != b.co_argcount or a.co_kwonlyargcount != b.co_kwonlyargcount or
            a.co_posonlyargcount != b.co_posonlyargcount or a.co_firstlineno != b.co_firstlineno or
            _lines(a) != _lines(b) or len(a.co_consts) != len(b.co_consts)):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if hasattr(x, "co_code"):
            if not hasattr(y, "co_code") or not _same_code(x, y):
                return False
        elif type(x) is not type(y) or repr(x) != repr(y):
            return False
    return True


def _codes(code):
    """code and every code object defined in it, depth first."""
    yield code
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            yield from _codes(c)


def _future_flags():
    import __future__
    flags = 0
    for name in __future__.all_feature_names:
        flags |= getattr(__future__, name).compiler_flag
    return flags


_FUTURE = _future_flags()
_compiled = {}           # file name -> (its lines, their code object): the last one checked


def _file_code(name, lines, glb):
    """The code object of the whole text `lines` (compiled once per list):
    the bytecode of an expression depends on the module around it (a
    method called on an imported module loads differently), so the
    function is compared within its module; None if it does not compile.
    A module pytest imported (its globals hold @pytest_ar) had its asserts
    rewritten by pytest's import hook, and is compiled the same way."""
    got = _compiled.get(name)
    if got is not None and got[0] is lines:
        return got[1]
    text = "".join(lines)
    try:
        if glb and "@pytest_ar" in glb:
            import ast

            from _pytest.assertion.rewrite import rewrite_asserts
            tree = ast.parse(text, name)
            rewrite_asserts(tree, text.encode(), name)
            top = compile(tree, name, "exec", dont_inherit=True)
        else:
            top = compile(text, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, ImportError):
        top = None
    _compiled[name] = (lines, top)
    return top


def _found_in(top, code):
    return top is not None and any(c.co_firstlineno == code.co_firstlineno and c.co_name == code.co_name and
                                   _same_code(c, code) for c in _codes(top))


def _block_code(func, block, first):
    """The code object of the function's own lines, compiled at their line
    numbers after a line that imports the modules it names (a method of a
    module imported in the file is called by other instructions) and,
    for a nested function, inside a def whose parameters are its free
    variables (so that they are cells there too); None where that does not
    fit above the first line, or does not compile."""
    code = func.__code__
    glb = getattr(func, "__globals__", None) or {}
    mods = sorted({n for c in _codes(code) for n in c.co_names if isinstance(glb.get(n), ModuleType)})
    head = "import %s\n" % ", ".join(mods) if mods else ""
    if block[0][:1] in (" ", "\t"):
        head += "def _pj_outer(%s):\n" % ", ".join(code.co_freevars)
    pad = first - 1 - head.count("\n")
    if pad < 0:
        return None
    try:
        return compile("\n" * pad + head + "".join(block), code.co_filename, "exec", dont_inherit=True,
                       flags=code.co_flags & _FUTURE)
    except (SyntaxError, ValueError):
        return None


def check_code(func, lines, block, first):
    """Whether the text `lines` of func's file compiles to the code func
    runs (the same bytecode, constants, names and lines, nested code
    included): first the function's own lines `block` (from line
    `first`), which is cheap, and where they differ the whole file, which
    is exact."""
    code = func.__code__
    if _found_in(_block_code(func, block, first), code):
        return True
    return _found_in(_file_code(code.co_filename, lines, getattr(func, "__globals__", None)), code)


def source_of(func, lines=None):
    """(dedented source, file, first line, columns removed) of a function,
    read from `lines` (capture_lines' list) or, without them, from its file
    now; checked against the code Python runs (check_code)."""
    code = func.__code__
    if lines is None:
        lines = capture_lines(func)
    quick = _quick_block(func, lines) or _block(func, lines)
    if quick is None:
        return _rebuilt(func)
    block, first = quick
    if not check_code(func, lines, block, first):
        return _rebuilt(func)
    text, shift = _dedent(block)
    return text, code.co_filename, max(first, 1), shift


def _rebuilt(func):
    """source_of's answer for a function whose text is not in its file:
    the text written from its code object (DecompileError, a
    SourceNotFoundError, names what cannot be)."""
    from .decompile import rebuild
    text, first = rebuild(func)
    return text, func.__code__.co_filename, first, REBUILT
