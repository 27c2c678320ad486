"""The source text of a function that has none, rebuilt from its code object.

Functions made by exec(), eval(), compile(), types.FunctionType or
`python -c` have no file to read.  This module rebuilds the text of such a
function from the code Python runs, so that the compiler's one front end
(the C parser) reads it like any other: sema, lowering and the back ends
see the same AST they would see for the text the user wrote.

  * Instructions come from CPython's own decoder (dis), so that the opcode
    numbering and the inline caches of each Python version are Python's
    business; what an instruction means is decided here, by name.
  * A simulated value stack turns loads, operators, calls and subscripts
    into expressions; stores, expression statements and returns end a
    statement.
  * Structured control flow is recovered from the jumps: if/elif/else,
    while (with the test CPython copies to the loop's end), for over any
    iterator, break/continue, for/while-else, short-circuit conditions
    (and/or/not, merged leaf by leaf), conditional expressions, and/or
    values, chained comparisons and assert.
  * Calls with `*t` and `**m` arguments, parameters `*args`, keyword-only
    and positional-only ones, and functions defined inside the function
    (a def, rebuilt from its own code object, with its defaults; a lambda
    as an expression) are written as the user wrote them; the compiler
    then treats them as it treats the source (closures, sema_closure.c).
  * Each statement is written on its own line of the user's file and, where
    the line table has columns (3.11+), at its own column, so messages and
    the IR's locations name the user's lines.

Anything else (comprehensions, decorated inner functions, with, try,
f-strings, unstructured jumps) is DecompileError, naming the function, its
file and first line, and the instruction's line.

rebuild(func) -> (text, first line) is the one entry.
"""

import dis
import sys
import types

from .errors import SourceNotFoundError


class DecompileError(SourceNotFoundError):
    """A function without source whose code cannot be rebuilt as text."""


_PY = sys.version_info[:2]

# precedence of Python's expression grammar, loosest first
P_TEST, P_OR, P_AND, P_NOT, P_CMP, P_BOR, P_BXOR, P_BAND, P_SHIFT, P_ADD, P_MUL, P_UNARY, P_POW, P_ATOM = range(14)

_BINPREC = {"+": P_ADD, "-": P_ADD, "*": P_MUL, "/": P_MUL, "//": P_MUL, "%": P_MUL, "@": P_MUL,
            "**": P_POW, "<<": P_SHIFT, ">>": P_SHIFT, "&": P_BAND, "|": P_BOR, "^": P_BXOR}

# Python 3.9/3.10 binary opcodes
_OLDBIN = {"ADD": "+", "SUBTRACT": "-", "MULTIPLY": "*", "TRUE_DIVIDE": "/", "FLOOR_DIVIDE": "//",
           "MODULO": "%", "POWER": "**", "LSHIFT": "<<", "RSHIFT": ">>", "AND": "&", "OR": "|", "XOR": "^",
           "MATRIX_MULTIPLY": "@"}

_CMPOPS = ("<", "<=", "==", "!=", ">", ">=")

_SKIP = {"RESUME", "NOP", "PRECALL", "PUSH_NULL", "CACHE", "EXTENDED_ARG", "COPY_FREE_VARS", "MAKE_CELL",
         "END_FOR", "TO_BOOL", "NOT_TAKEN", "RETURN_GENERATOR"}

# the links of a chained comparison: `a < b is c in d`
_COMPARES = ("COMPARE_OP", "IS_OP", "CONTAINS_OP")
_CONDJUMP = {
    # name: (jumps when the value is true, pops always)
    "POP_JUMP_IF_FALSE": False, "POP_JUMP_IF_TRUE": True,
    "POP_JUMP_FORWARD_IF_FALSE": False, "POP_JUMP_FORWARD_IF_TRUE": True,
    "POP_JUMP_BACKWARD_IF_FALSE": False, "POP_JUMP_BACKWARD_IF_TRUE": True,
}
_NONEJUMP = {"POP_JUMP_IF_NONE": "is", "POP_JUMP_IF_NOT_NONE": "is not",
             "POP_JUMP_FORWARD_IF_NONE": "is", "POP_JUMP_FORWARD_IF_NOT_NONE": "is not",
             "POP_JUMP_BACKWARD_IF_NONE": "is", "POP_JUMP_BACKWARD_IF_NOT_NONE": "is not"}
_ORPOP = {"JUMP_IF_FALSE_OR_POP": False, "JUMP_IF_TRUE_OR_POP": True}   # and/or values (3.9-3.11)
_UNCOND = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_ABSOLUTE", "JUMP", "JUMP_NO_INTERRUPT",
           "JUMP_BACKWARD_NO_INTERRUPT"}


class E:
    """An expression: its text, its precedence, where it starts."""
    __slots__ = ("text", "prec", "line", "col", "aug", "chain", "inv", "neg", "seq", "bop", "parts", "fn")
    made = [0]

    def __init__(self, text, prec, line=None, col=None):
        self.text, self.prec, self.line, self.col = text, prec, line, col
        self.made[0] += 1
        self.seq = self.made[0]  # the order in which values were computed
        self.neg = None      # the same test negated (`x is None` for `x is not None`)
        self.bop = None      # "and"/"or" of a boolean operation
        self.aug = None      # (op, left) of an in-place operator's result
        self.chain = None    # targets of a value stored more than once (a = b = v)
        self.inv = False     # a `not` this module added to a condition
        self.parts = None    # the items of a tuple, list or keyword map (texts, `*t` and `**m` included)
        self.fn = None       # a code object, or the _Fn that MAKE_FUNCTION made of it


def _paren(e, prec):
    return "(%s)" % e.text if e.prec < prec else e.text


def _not(e):
    if e.neg is not None:
        return e.neg
    if e.text.startswith("not ") and e.prec == P_NOT and e.inv:
        r = E(e.text[4:], P_CMP if e.inv == "cmp" else P_NOT + 1, e.line, e.col)
        return r
    r = E("not " + _paren(e, P_NOT), P_NOT, e.line, e.col)
    r.inv = "cmp" if e.prec == P_CMP else True
    return r


def _bare(e):
    """A tuple's text without its brackets (return a, b), others as they are."""
    return e.text[1:-1] if e.bop == "tuple" else _paren(e, P_TEST)


def _boolop(op, a, b):
    prec = P_AND if op == "and" else P_OR
    # a or (b or c) is (a or b) or c, in value and in order of evaluation
    e = E("%s %s %s" % (_paren(a, prec), op, _paren(b, prec if b.bop == op else prec + 1)), prec, a.line, a.col)
    e.bop = op
    return e


class S:
    """A statement: kind, text (an if's is its condition, an E), where it
    starts, nested blocks; `implicit` marks the return None Python adds."""
    __slots__ = ("kind", "text", "line", "col", "body", "orelse", "implicit", "value", "span")

    def __init__(self, kind, text, line, col, body=None, orelse=None):
        self.kind, self.text, self.line, self.col = kind, text, line, col
        self.body, self.orelse = body, orelse
        self.implicit = None
        self.value = self.span = None    # a return's value and the position of its instruction


class _Unpack:
    __slots__ = ("value", "n", "targets")

    def __init__(self, value, n):
        self.value, self.n, self.targets = value, n, []


class _Iter:
    """A for loop's iterator, under the values of its body."""


class _Item:
    """The value FOR_ITER pushes: stored to the loop's target."""


class _Fn:
    """A function that MAKE_FUNCTION made: its code, the texts of its
    defaults ([text]) and keyword-only defaults ({name: text})."""
    __slots__ = ("code", "defaults", "kwdefaults")

    def __init__(self, code):
        self.code, self.defaults, self.kwdefaults = code, [], {}


class _Loop:
    __slots__ = ("head", "exit", "cont")

    def __init__(self, head, exit, cont):
        self.head, self.exit, self.cont = head, exit, cont


def _instructions(code):
    """The code's instructions without inline caches and EXTENDED_ARG
    prefixes (dis folds a prefix into the argument of the instruction it
    precedes; a jump to the prefix lands on that instruction, which takes
    the line the prefix starts), and {offset: index} for jump targets."""
    ins, index, prefix = [], {}, []
    for i in dis.get_instructions(code):
        if i.opname == "CACHE":
            continue
        if i.opname == "EXTENDED_ARG":
            prefix.append(i)
            continue
        starts = [p.starts_line for p in prefix if type(p.starts_line) is int]
        if starts and type(i.starts_line) is not int:
            i = i._replace(starts_line=starts[0])
        for p in prefix:
            index[p.offset] = len(ins)
        index[i.offset] = len(ins)
        ins.append(i)
        prefix = []
    return ins, index


class Decompiler:
    def __init__(self, code):
        self.code = code
        self.ins, self.index = _instructions(code)
        ins = self.ins
        self.lines = []
        self.spans = []          # (line, end line, column, end column) where kept
        self.borrowed = None     # the spans of instructions other than returns
        line = code.co_firstlineno
        for i in ins:
            pos = getattr(i, "positions", None)
            self.spans.append(tuple(pos) if pos is not None else (None,) * 4)
            if pos is not None and pos.lineno is not None:
                self.lines.append((pos.lineno, pos.col_offset))
            else:
                if getattr(i, "starts_line", None) not in (None, False, True):
                    line = i.starts_line
                elif getattr(i, "line_number", None) is not None:
                    line = i.line_number
                self.lines.append((line, None))
        self.backjumps = {}
        for k, i in enumerate(ins):
            t = self.target(k)
            if t is not None and t <= k:
                self.backjumps.setdefault(t, []).append(k)
        self.loops = []
        self.jumped_to = None    # (jump, target) of all jumps, once asked for
        self.claimed = set()
        self.seen = set()        # the instructions read back: none may be left out

    # ---- helpers

    def fail(self, k, what):
        code = self.code
        line = self.lines[k][0] if 0 <= k < len(self.lines) else code.co_firstlineno
        raise DecompileError(
            "cannot compile function %r (file %s, line %d) without its source text: %s at line %s is not "
            "supported when the function is rebuilt from its bytecode (Python %d.%d); define the function in "
            "a file so that ptxjit reads its source"
            % (code.co_name, code.co_filename, code.co_firstlineno, what, line, _PY[0], _PY[1]))

    def target(self, k):
        i = self.ins[k]
        if i.opname in _UNCOND or i.opname in _CONDJUMP or i.opname in _NONEJUMP or i.opname in (
                "FOR_ITER", "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            if isinstance(i.argval, int) and i.argval in self.index:
                return self.index[i.argval]
        return None

    def op(self, k):
        return self.ins[k].opname if k < len(self.ins) else None

    def at(self, k):
        line, col = self.lines[k]
        return line, col

    def name(self, k, name):
        """The name of instruction k, as wide as the line table says it is
        written: the code holds the NFKC form of a name, shorter in UTF-8
        than the user's ﬁ or ｍath, and the spaces after it keep the columns
        of what follows on the line those of the code Python runs."""
        line, end, col, ecol = self.spans[k]
        if line is None or end != line or col is None or ecol is None:
            return name
        return name + " " * max(0, ecol - col - len(name.encode("utf-8")))

    def const(self, v, k):
        if v is None or isinstance(v, (bool, int, str, bytes)):
            return E(repr(v), P_ATOM if not (isinstance(v, int) and v < 0) else P_UNARY)
        if isinstance(v, float):
            if v != v or v in (float("inf"), float("-inf")):
                self.fail(k, "the constant %r" % v)
            return E(repr(v), P_ATOM if v >= 0 and repr(v)[0] != "-" else P_UNARY)
        if isinstance(v, complex):
            return E(repr(v), P_ATOM)
        if isinstance(v, tuple):
            parts = [self.const(x, k).text for x in v]
            return E("(%s)" % (parts[0] + "," if len(parts) == 1 else ", ".join(parts)), P_ATOM)
        self.fail(k, "a constant of type %s" % type(v).__name__)

    # ---- expressions

    def expr_op(self, k, st):
        """Applies expression instruction k to stack st; False if it is not one."""
        i = self.ins[k]
        name = i.opname
        line, col = self.at(k)

        def mk(text, prec):
            return E(text, prec, line, col)

        if name in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_CLASSDEREF",
                    "LOAD_FAST_BORROW"):
            st.append(mk(self.name(k, i.argval), P_ATOM))
        elif name in ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"):
            a, b = i.argval
            st.append(mk(a, P_ATOM))
            st.append(mk(b, P_ATOM))
        elif name in ("LOAD_CONST", "LOAD_SMALL_INT"):
            if isinstance(i.argval, types.CodeType):
                e = mk("(code)", P_ATOM)      # the code of a def or lambda, for MAKE_FUNCTION
                e.fn = i.argval
            else:
                e = self.const(i.argval, k)
                e.line, e.col = line, col
            st.append(e)
        elif name == "LOAD_CLOSURE":
            st.append(mk(i.argval, P_ATOM))   # a cell, for a closure's tuple (read by MAKE_FUNCTION)
        elif name == "MAKE_FUNCTION":
            if _PY < (3, 11):
                st.pop()                       # the qualified name
            code = st.pop()
            if not isinstance(code.fn, types.CodeType):
                self.fail(k, "this function definition")
            e = mk("(def)", P_ATOM)
            e.fn = _Fn(code.fn)
            for flag in (8, 4, 2, 1):
                if (i.arg or 0) & flag:
                    self.set_attribute(k, e, flag, st.pop())
            self.function_value(k, e)
            st.append(e)
        elif name == "SET_FUNCTION_ATTRIBUTE":
            e, v = st.pop(), st.pop()
            if not isinstance(e.fn, _Fn):
                self.fail(k, "this function definition")
            self.set_attribute(k, e, i.arg, v)
            self.function_value(k, e)
            st.append(e)
        elif name == "BUILD_LIST":
            parts = [st.pop() for _ in range(i.arg)][::-1] if i.arg else []
            e = mk("", P_ATOM)
            e.parts = [_paren(p, P_TEST) for p in parts]
            e.text = "[%s]" % ", ".join(e.parts)
            e.bop = "list"
            st.append(e)
        elif name in ("LIST_APPEND", "LIST_EXTEND") and len(st) > i.arg and st[-1 - i.arg].bop == "list":
            v, lst = st.pop(), st[-i.arg]
            if name == "LIST_APPEND":
                lst.parts.append(_paren(v, P_TEST))
            elif self.op(k - 1) in ("LOAD_CONST",) and isinstance(self.ins[k - 1].argval, tuple):
                lst.parts.extend(self.const(x, k).text for x in self.ins[k - 1].argval)   # [1, 2, 3]
            else:
                lst.parts.append("*" + _paren(v, P_OR))
            lst.text = "[%s]" % ", ".join(lst.parts)
        elif name == "LIST_TO_TUPLE" or name == "CALL_INTRINSIC_1" and i.argrepr == "INTRINSIC_LIST_TO_TUPLE":
            lst = st.pop()
            if lst.bop != "list":
                self.fail(k, "this tuple")
            e = E("(%s)" % (lst.parts[0] + "," if len(lst.parts) == 1 else ", ".join(lst.parts)), P_ATOM, lst.line,
                  lst.col)
            e.parts, e.bop = lst.parts, "starred"
            st.append(e)
        elif name in ("BUILD_MAP", "BUILD_CONST_KEY_MAP"):
            if name == "BUILD_MAP":
                flat = [st.pop() for _ in range(2 * i.arg)][::-1]
                keys, values = [self.const_value(x, k) for x in flat[0::2]], flat[1::2]
            else:
                keys = self.const_value(st.pop(), k)
                values = [st.pop() for _ in range(i.arg)][::-1] if i.arg else []
            if not all(isinstance(x, str) for x in keys):
                self.fail(k, "this dictionary")
            e = mk("{%s}" % ", ".join("%r: %s" % (x, _paren(v, P_TEST)) for x, v in zip(keys, values)), P_ATOM)
            e.parts, e.bop = ["%s=%s" % (x, _paren(v, P_TEST)) for x, v in zip(keys, values)], "map"
            st.append(e)
        elif name in ("DICT_MERGE", "DICT_UPDATE") and len(st) > i.arg and st[-1 - i.arg].bop == "map":
            v, m = st.pop(), st[-i.arg]
            m.parts.extend(v.parts if v.bop == "map" else ["**" + _paren(v, P_BOR)])
            m.text = "{%s}" % ", ".join(m.parts)     # not Python's text: only a call reads it
        elif name == "CALL_FUNCTION_EX":
            kw = st.pop() if (i.arg or 0) & 1 or i.arg is None and st and st[-1].bop == "map" else None
            args = st.pop()
            fn = st.pop()
            self.no_def(k, [fn, args, kw])
            texts = list(args.parts) if args.bop == "starred" else ["*" + _paren(args, P_OR)]
            if kw is not None:
                texts += kw.parts if kw.bop == "map" else ["**" + _paren(kw, P_BOR)]
            st.append(E("%s(%s)" % (_paren(fn, P_ATOM), ", ".join(texts)), P_ATOM, fn.line, fn.col))
        elif name in ("LOAD_ATTR", "LOAD_METHOD"):
            obj = st.pop()
            st.append(mk("%s.%s" % (_paren(obj, P_ATOM), i.argval), P_ATOM))
        elif name == "BINARY_OP" or name.startswith("BINARY_") and name[7:] in _OLDBIN or \
                name.startswith("INPLACE_") and name[8:] in _OLDBIN:
            b, a = st.pop(), st.pop()
            if name == "BINARY_OP":
                sym = i.argrepr
            else:
                sym = _OLDBIN[name.split("_", 1)[1]] + ("=" if name.startswith("INPLACE_") else "")
            if sym == "[]":
                st.append(mk("%s[%s]" % (_paren(a, P_ATOM), self.index_text(b)), P_ATOM))
                return True
            inplace = sym.endswith("=")
            s = sym[:-1] if inplace else sym
            p = _BINPREC[s]
            if s == "**":
                text = "%s ** %s" % (_paren(a, P_POW + 1), _paren(b, P_UNARY))
            else:
                text = "%s %s %s" % (_paren(a, p), s, _paren(b, p + 1))
            e = E(text, p, a.line, a.col)
            if inplace:
                e.aug = (sym, a, b)
            st.append(e)
        elif name in ("UNARY_NEGATIVE", "UNARY_POSITIVE", "UNARY_INVERT"):
            a = st.pop()
            s = {"UNARY_NEGATIVE": "-", "UNARY_POSITIVE": "+", "UNARY_INVERT": "~"}[name]
            st.append(mk(s + _paren(a, P_UNARY), P_UNARY))
        elif name == "CALL_INTRINSIC_1" and i.argrepr == "INTRINSIC_UNARY_POSITIVE":
            a = st.pop()
            st.append(mk("+" + _paren(a, P_UNARY), P_UNARY))
        elif name == "UNARY_NOT":
            a = st.pop()
            st.append(mk("not " + _paren(a, P_NOT), P_NOT))
        elif name == "COMPARE_OP":
            b, a = st.pop(), st.pop()
            s = i.argval if i.argval in _CMPOPS else i.argrepr.replace("bool(", "").rstrip(")")
            st.append(E("%s %s %s" % (_paren(a, P_CMP + 1), s, _paren(b, P_CMP + 1)), P_CMP, a.line, a.col))
        elif name in ("IS_OP", "CONTAINS_OP"):
            b, a = st.pop(), st.pop()
            s = ("is", "is not") if name == "IS_OP" else ("in", "not in")
            st.append(E("%s %s %s" % (_paren(a, P_CMP + 1), s[i.arg], _paren(b, P_CMP + 1)), P_CMP, a.line, a.col))
        elif name == "BINARY_SUBSCR":
            b, a = st.pop(), st.pop()
            st.append(E("%s[%s]" % (_paren(a, P_ATOM), self.index_text(b)), P_ATOM, a.line, a.col))
        elif name == "BINARY_SLICE":
            hi, lo, a = st.pop(), st.pop(), st.pop()
            st.append(E("%s[%s]" % (_paren(a, P_ATOM), self.slice_text([lo, hi])), P_ATOM, a.line, a.col))
        elif name == "BUILD_SLICE":
            parts = [st.pop() for _ in range(i.arg)][::-1]
            e = E(self.slice_text(parts), P_ATOM, line, col)
            e.aug = ("slice",)
            st.append(e)
        elif name == "BUILD_TUPLE":
            parts = [st.pop() for _ in range(i.arg)][::-1] if i.arg else []
            if len(parts) == 1:
                text = "(%s,)" % parts[0].text
            else:
                text = "(%s)" % ", ".join(_paren(p, P_TEST) for p in parts)
            e = mk(text, P_ATOM)
            e.parts = [_paren(p, P_TEST) for p in parts]
            # a tuple written without brackets starts where its first element does
            e.bop = "tuple" if len(parts) > 1 and (col is None or parts[0].col == col) else None
            st.append(e)
        elif name == "KW_NAMES":
            self.kwnames = self.code.co_consts[i.arg] if isinstance(i.arg, int) else i.argval
        elif name in ("CALL", "CALL_FUNCTION", "CALL_METHOD", "CALL_FUNCTION_KW", "CALL_KW"):
            kw = ()
            if name == "CALL_FUNCTION_KW" or name == "CALL_KW":
                kw = self.const_tuple(st.pop(), k)
            elif name == "CALL":
                kw, self.kwnames = getattr(self, "kwnames", ()) or (), ()
            args = [st.pop() for _ in range(i.arg)][::-1]
            fn = st.pop()
            self.no_def(k, [fn] + args)
            pos = args[:len(args) - len(kw)]
            texts = [_paren(a, P_TEST) for a in pos]
            texts += ["%s=%s" % (n, _paren(a, P_TEST)) for n, a in zip(kw, args[len(pos):])]
            st.append(E("%s(%s)" % (_paren(fn, P_ATOM), ", ".join(texts)), P_ATOM, fn.line, fn.col))
        elif name == "DUP_TOP_TWO":
            st.extend(st[-2:])
        elif name == "ROT_FOUR":
            st[-4], st[-3], st[-2], st[-1] = st[-1], st[-4], st[-3], st[-2]
        elif name == "COPY" or name == "DUP_TOP":
            n = i.arg if name == "COPY" else 1
            st.append(st[-n])
        elif name == "SWAP" or name in ("ROT_TWO", "ROT_THREE"):
            n = i.arg if name == "SWAP" else (2 if name == "ROT_TWO" else 3)
            if name == "ROT_THREE":
                st[-3], st[-2], st[-1] = st[-1], st[-3], st[-2]
            else:
                st[-1], st[-n] = st[-n], st[-1]
        else:
            return False
        return True

    def const_value(self, e, k, what="this dictionary"):
        try:
            return eval(e.text, {"__builtins__": {}})
        except Exception:
            self.fail(k, what)

    def no_def(self, k, values):
        """Refuses a def's function used as a value before it is named:
        a decorated def inside the function."""
        if any(v is not None and isinstance(v.fn, _Fn) and v.fn.code.co_name != "<lambda>" for v in values):
            self.fail(k, "a decorated function defined inside the function")

    def set_attribute(self, k, e, flag, v):
        """MAKE_FUNCTION's flag: 1 defaults, 2 keyword-only defaults, 4
        annotations, 8 the closure's cells."""
        if flag == 1:
            e.fn.defaults = list(v.parts) if v.parts is not None else [
                self.const(x, k).text for x in self.const_value(v, k, "these defaults")]
        elif flag == 2:
            if v.bop != "map":
                self.fail(k, "these keyword-only defaults")
            e.fn.kwdefaults = dict(p.split("=", 1) for p in v.parts)
        elif flag == 4 or flag == 16:
            self.fail(k, "a function with annotations defined inside the function")

    def function_value(self, k, e):
        """The text of a lambda (a def's is written where it is stored)."""
        fn = e.fn
        if fn.code.co_name == "<lambda>":
            child = Decompiler(fn.code)
            body = child.statements()
            if len(body) != 1 or body[0].kind != "return":
                self.fail(k, "this lambda")
            value = body[0].text[len("return "):] if body[0].text != "return" else "None"
            params = _params(fn.code, fn.defaults, fn.kwdefaults)
            e.text = "lambda %s: %s" % (params, value) if params else "lambda: %s" % value
            e.prec = P_TEST

    def define(self, k, target, v):
        """The def statement of a function defined inside this one and
        stored to target."""
        code = v.fn.code
        if target.text != code.co_name:
            self.fail(k, "a decorated function defined inside the function")
        body = Decompiler(code).statements()
        line, col = self.at(k)
        return S("def", "def %s(%s):" % (code.co_name, _params(code, v.fn.defaults, v.fn.kwdefaults)),
                 code.co_firstlineno, col, body or [S("pass", "pass", None, None)])

    def statements(self):
        """The function's statements, as the user wrote them."""
        try:
            body = self.region(0, len(self.ins))
        except (IndexError, KeyError, ValueError, TypeError, AttributeError, RecursionError) as e:
            self.fail(0, "code of a form not recognised (%s)" % type(e).__name__)
        self.check_all_read()
        return _tidy(body, False, True)

    def const_tuple(self, e, k):
        try:
            v = eval(e.text, {"__builtins__": {}})
        except Exception:
            self.fail(k, "a call with keyword arguments")
        return v

    def index_text(self, e):
        if e.text.startswith("(") and e.prec == P_ATOM and e.text.endswith(")") and self.is_tuple_text(e.text):
            return e.text[1:-1].rstrip(",") if e.text.endswith(",)") else e.text[1:-1]
        return e.text

    @staticmethod
    def is_tuple_text(t):
        depth = 0
        for ch in t[1:-1]:
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == "," and depth == 0:
                return True
        return False

    @staticmethod
    def slice_text(parts):
        out = []
        for n, p in enumerate(parts):
            out.append("" if p.text == "None" else _paren(p, P_TEST))
        t = ":".join(out)
        return t if len(parts) == 2 or out[2] else t[:-1]

    # ---- chained comparisons: a; b; SWAP 2; COPY 2; COMPARE_OP ...

    def is_link(self, k):
        return (self.op(k) == "SWAP" and self.ins[k].arg == 2 and self.op(k + 1) == "COPY" and
                self.ins[k + 1].arg == 2 and self.op(k + 2) in _COMPARES) or (
                self.op(k) == "DUP_TOP" and self.op(k + 1) == "ROT_THREE" and self.op(k + 2) in _COMPARES)

    def chain(self, k, st):
        """At a link k with [a, b] on st: reads the chain, pushes it; returns
        the index after it (the final compare's jump in a condition)."""
        b, a = st.pop(), st.pop()
        args, ops = [a, b], []
        value = None
        while True:
            tmp = [a, b]
            self.expr_op(k + 2, tmp)
            ops.append(tmp[-1].text[len(_paren(a, P_CMP + 1)) + 1:].rsplit(" " + _paren(b, P_CMP + 1), 1)[0])
            k += 3
            j = self.op(k)
            if j in ("JUMP_IF_FALSE_OR_POP",):
                value = True
                k += 1
            elif j == "COPY" and self.ins[k].arg == 1 and self.op(k + 1) == "TO_BOOL" and \
                    self.op(k + 2) in _CONDJUMP and self.op(k + 3) == "POP_TOP":
                value = True
                k += 4
            elif j == "COPY" and self.ins[k].arg == 1 and self.op(k + 1) in _CONDJUMP and self.op(k + 2) == "POP_TOP":
                value = True
                k += 3
            elif j in _CONDJUMP:
                value = False
                k += 1
            else:
                self.fail(k, "a chained comparison")
            sub = [b]
            while not (len(sub) == 2 and (self.is_link(k) or self.op(k) in _COMPARES)):
                if self.op(k) in _SKIP:
                    self.seen.add(k)
                elif self.op(k) in _CONDJUMP or self.op(k) in _NONEJUMP or self.op(k) in _ORPOP:
                    # a conditional expression or and/or in the next operand
                    stmts = []
                    j = self.cond(k, len(self.ins), sub, stmts, k, 0)
                    if stmts or j <= k:
                        self.fail(k, "a chained comparison")
                    self.seen.update(range(k, j))
                    k = j
                    continue
                elif self.is_link(k) and len(sub) >= 3:
                    j = self.chain(k, sub)            # a chain inside the operand
                    self.seen.update(range(k, j))
                    k = j
                    continue
                elif k >= len(self.ins) or not self.expr_op(k, sub):
                    self.fail(k, "a chained comparison")
                k += 1
            a, b = sub
            args.append(b)
            if self.op(k) in _COMPARES:
                tmp = [a, b]
                self.expr_op(k, tmp)
                ops.append(tmp[-1].text[len(_paren(a, P_CMP + 1)) + 1:].rsplit(" " + _paren(b, P_CMP + 1), 1)[0])
                k += 1
                break
        text = _paren(args[0], P_CMP + 1)
        for o, e in zip(ops, args[1:]):
            text += " %s %s" % (o, _paren(e, P_CMP + 1))
        st.append(E(text, P_CMP, args[0].line, args[0].col))
        if value:
            if self.op(k) not in _UNCOND:
                self.fail(k, "a chained comparison")
            k = self.target(k)
        return k

    # ---- statements

    def region(self, start, end, st=None):
        """Statements of instructions [start, end); st: the stack on entry
        (left with what the region pushed)."""
        out = []
        st = [] if st is None else st
        k = start
        base = len(st) - (1 if st and isinstance(st[-1], _Item) else 0)
        stmt_start = k
        pairs = []           # (target, value) of a tuple assignment compiled to SWAPs
        while k < end:
            self.seen.add(k)
            if len(st) == base and not pairs:
                stmt_start = k
            i = self.ins[k]
            name = i.opname
            if k in self.backjumps and k not in self.claimed and name != "FOR_ITER" and len(st) == base:
                j = self.leaf_region(k, end)
                if j is not None and (self.target(j) or 0) > max(self.backjumps[k]):
                    self.claimed.add(k)      # a while loop's test, where `continue` jumps
                else:
                    k = self.while_true(k, end, out)
                    continue
            if name in _SKIP:
                k += 1
                continue
            if self.is_link(k):
                j = self.chain(k, st)
                self.seen.update(range(k, j))
                k = j
                continue
            if self.expr_op(k, st):
                k += 1
                continue
            line, col = self.at(k)
            if name in ("STORE_FAST", "STORE_DEREF", "STORE_GLOBAL", "STORE_NAME", "STORE_SUBSCR", "STORE_ATTR",
                        "STORE_SLICE", "STORE_FAST_STORE_FAST", "STORE_FAST_LOAD_FAST"):
                if name == "STORE_FAST_STORE_FAST":
                    a, b = i.argval
                    self.store(k, E(a, P_ATOM, line, col), st, out, pairs, base)
                    self.store(k, E(b, P_ATOM, line, col), st, out, pairs, base)
                elif name == "STORE_FAST_LOAD_FAST":
                    a, b = i.argval
                    self.store(k, E(a, P_ATOM, line, col), st, out, pairs, base)
                    st.append(E(b, P_ATOM, line, col))
                elif name == "STORE_SUBSCR":
                    # the store's position is its target's (3.11+); the object's
                    # may be a value's, loaded with it by LOAD_FAST_LOAD_FAST (3.13)
                    idx, obj = st.pop(), st.pop()
                    t = E("%s[%s]" % (_paren(obj, P_ATOM), self.index_text(idx)), P_ATOM,
                          *((line, col) if col is not None else (obj.line, obj.col)))
                    self.store(k, t, st, out, pairs, base)
                elif name == "STORE_SLICE":
                    hi, lo, obj = st.pop(), st.pop(), st.pop()
                    t = E("%s[%s]" % (_paren(obj, P_ATOM), self.slice_text([lo, hi])), P_ATOM, obj.line, obj.col)
                    self.store(k, t, st, out, pairs, base)
                elif name == "STORE_ATTR":
                    obj = st.pop()
                    self.store(k, E("%s.%s" % (_paren(obj, P_ATOM), i.argval), P_ATOM, obj.line, obj.col),
                               st, out, pairs, base)
                else:
                    self.store(k, E(self.name(k, i.argval), P_ATOM, line, col), st, out, pairs, base)
                k += 1
            elif name in ("UNPACK_SEQUENCE",):
                v = st.pop()
                u = _Unpack(v, i.arg)
                for _ in range(i.arg):
                    st.append(u)
                k += 1
            elif name == "POP_TOP":
                if st and isinstance(st[-1], _Iter):
                    st.pop()         # the iterator, before a break or a return
                    k += 1
                    continue
                if len(st) == base:
                    # the iterator of a for loop left by break or return
                    if not self.loops:
                        self.fail(k, "this use of the stack")
                    k += 1
                    continue
                v = st.pop()
                if isinstance(v, (_Unpack, _Item)):
                    self.fail(k, "an unpacking into _")
                out.append(S("expr", v.text, *self.stmt_at(stmt_start, k)))
                k += 1
            elif name in ("RETURN_VALUE", "RETURN_CONST"):
                if name == "RETURN_CONST":
                    v = self.const(i.argval, k)
                else:
                    v = st.pop()
                line, col = self.at(k)
                if v.text == "None" and self.loops and self.break_return(k):
                    out.append(S("break", "break", line, col))    # a break to the function's end
                    k += 1
                    continue
                if v.col is not None and col is not None and col >= v.col and v.col >= 7 and v.text != "None":
                    col = v.col - 7      # the position of the value, not of the statement
                elif name == "RETURN_CONST" and v.text != "None" and col is not None and col >= 7 and \
                        self.spans[k][3] is not None and self.spans[k][3] - col == len(v.text):
                    col -= 7
                r = S("return", "return" if v.text == "None" else "return " + _bare(v), line, col)
                # the `return None` Python adds at the end has the line of the statement before it
                r.implicit = v.text == "None" and self.implicit_return(k, out)
                r.value, r.span = v, self.spans[k]
                out.append(r)
                k += 1
            elif name == "RAISE_VARARGS":
                if i.arg != 1:
                    self.fail(k, "this raise statement")
                v = st.pop()
                out.append(S("raise", "raise " + v.text, *self.stmt_at(stmt_start, k)))
                k += 1
            elif name == "LOAD_ASSERTION_ERROR":
                st.append(E("AssertionError", P_ATOM, line, col))
                k += 1
            elif name == "GET_ITER":
                k = self.for_loop(k, end, st, out, stmt_start)
            elif name in _CONDJUMP or name in _NONEJUMP:
                k = self.cond(k, end, st, out, stmt_start, base)
            elif name in _ORPOP:
                k = self.cond(k, end, st, out, stmt_start, base)
            elif name in _UNCOND and len(st) > base and self.dead_after(k):
                # `1 if True else 0` in Python 3.9: a jump over code no jump reaches
                self.seen.update(range(k, self.target(k)))
                k = self.target(k)
            elif name in _UNCOND:
                k = self.jump(k, out)
            else:
                self.fail(k, "the instruction %s" % name)
        if pairs:
            self.fail(k, "this assignment")
        return out

    def region_value(self, start, end, st):
        base = len(st)
        stmts = self.region(start, end, st)
        if stmts or len(st) != base + 1:
            self.fail(start, "this expression")

    def implicit_return(self, k, out):
        """Whether the `return None` at k is the one Python adds: its
        position is not that of a `return` keyword but of another statement
        (3.11+), or, without columns, other instructions share its line
        or it ends the function."""
        line, end, col, ecol = self.spans[k]
        if col is not None and ecol is not None:
            if self.borrowed is None:
                self.borrowed = {self.spans[j] for j, i in enumerate(self.ins) if not (
                    i.opname in ("RETURN_VALUE", "RETURN_CONST") or i.opname == "LOAD_CONST" and i.argval is None)}
            return not (end == line and ecol - col == 6) or self.spans[k] in self.borrowed
        if k == len(self.ins) - 1:
            return True          # a `return` ending the function is no different
        lines = {self.lines[j][0] for j, i in enumerate(self.ins) if not (
            i.opname in ("RETURN_VALUE", "RETURN_CONST") or i.opname == "LOAD_CONST" and i.argval is None)}
        return self.lines[k][0] in lines

    def break_return(self, k):
        """Whether the `return None` at k inside a loop is a `break` (the
        block after the loop only returns, and CPython copied it here):
        its position is one line, five columns, and no other instruction
        has it but the None it returns and the loop's iterator it pops."""
        line, end, col, ecol = self.spans[k]
        if col is None or ecol is None or end != line or ecol - col != 5:
            return False
        own = {k, k - 1} if self.op(k - 1) == "LOAD_CONST" else {k}
        if self.op(min(own) - 1) == "POP_TOP":
            own.add(min(own) - 1)
        return all(j in own for j in range(len(self.ins)) if self.spans[j] == self.spans[k])

    def breaks_to_end(self, a, b):
        """Whether a loop's body [a, b) has a break that returns or jumps to
        an enclosing loop's head: the loop and its else clause end the
        function, or that loop's body (threaded jumps)."""
        heads = {h for loop in self.loops for h in (loop.head,) + tuple(loop.cont)}
        return any(self.op(j) in ("RETURN_VALUE", "RETURN_CONST") and self.break_return(j) or
                   self.target(j) in heads for j in range(a, b))

    def stmt_at(self, start, k):
        """(line, col) of the statement whose instructions are [start, k]."""
        line = self.lines[start][0]
        cols = [c for (l, c) in self.lines[start:k + 1] if l == line and c is not None]
        return line, (min(cols) if cols else None)

    def store(self, k, target, st, out, pairs, base):
        v = st.pop()
        if isinstance(v, E) and v.aug is not None and v.aug[0] == "walrus":
            if st and st[-1] is v:
                st[-1] = v.aug[1]
            v = v.aug[1]
        if isinstance(v, _Item):
            self.loop_target = target
            return
        if isinstance(v, E) and isinstance(v.fn, _Fn) and v.fn.code.co_name != "<lambda>":
            if pairs or len(st) != base:
                self.fail(k, "this function definition")
            out.append(self.define(k, target, v))
            return
        while isinstance(v, _Unpack):
            v.targets.append(target)
            if len(v.targets) < v.n:
                return
            tt = ", ".join(t.text for t in v.targets)
            if not isinstance(v.value, _Unpack):
                break
            target, v = E("(%s)" % tt, P_ATOM, v.targets[0].line, v.targets[0].col), v.value
        if isinstance(v, _Unpack):
            if isinstance(v.value, _Item):
                self.loop_target = E(tt, P_TEST)
                return
            target, v = E(tt, P_TEST, v.targets[0].line, v.targets[0].col), v.value
            target.bop = "tuple"
            if not pairs and len(st) == base:
                out.append(S("assign", "%s = %s" % (tt, _bare(v)), target.line, target.col))
                return
        if v.aug is not None and len(v.aug) == 3 and v.aug[1].text == target.text and not pairs and len(st) == base:
            sym, _, right = v.aug
            out.append(S("assign", "%s %s %s" % (target.text, sym, right.text), target.line, target.col))
            return
        if st and st[-1] is v:
            # the value stays: the next store takes it too (a = b = v), or
            # an expression does (b := v), as the text says unless a store comes
            v.chain = (v.chain or []) + [target]
            w = E("(%s := %s)" % (target.text, _paren(v, P_TEST)), P_ATOM, v.line, v.col)
            w.aug = ("walrus", v)
            st[-1] = w
            return
        if len(st) > base or pairs:
            pairs.append((target, v))
            if len(st) == base:
                pairs.sort(key=lambda p: p[1].seq)
                tt = ", ".join("(%s)" % t.text if t.bop == "tuple" else t.text for t, _ in pairs)
                vv = ", ".join(_paren(x, P_TEST) for _, x in pairs)
                out.append(S("assign", "%s = %s" % (tt, vv), pairs[0][0].line, pairs[0][0].col))
                del pairs[:]
            return
        targets = (v.chain or []) + [target]
        first = targets[0]
        out.append(S("assign", "%s = %s" % (" = ".join(t.text for t in targets), v.text), first.line, first.col))

    def keyword(self, k, word):
        """Whether instruction k is at a keyword `word` that is a statement
        of its own: its position spans the word (3.11+), or, without
        columns, it starts a line of its own."""
        line, end, col, ecol = self.spans[k]
        if _PY >= (3, 11):           # an instruction without a position is the compiler's
            return col is not None and ecol is not None and line == end and ecol - col == len(word)
        return k == 0 or self.lines[k - 1][0] != self.lines[k][0]

    def dead_after(self, k):
        """Whether the instructions a forward jump at k skips are reached
        by no jump."""
        t = self.target(k)
        if t is None or t <= k:
            return False
        if self.jumped_to is None:
            self.jumped_to = [(j, self.target(j)) for j in range(len(self.ins)) if self.target(j) is not None]
        # jumps inside the skipped code (a dead `a if True else b` in it) do not count
        return not any(k < to < t and not k < j < t for j, to in self.jumped_to)

    def jump(self, k, out):
        t = self.target(k)
        line, col = self.at(k)
        for loop in reversed(self.loops):
            if loop.head < t < loop.exit and t not in loop.cont:
                t = self.thread(t)       # to the loop's latch, a jump back (Python 3.9)
            if t == loop.head or t in loop.cont:
                out.append(S("continue", "continue", line, col))
                # the jump that ends the body of an if at the loop's end is no `continue`
                out[-1].implicit = not self.keyword(k, "continue")
                return k + 1
            if t >= loop.exit or t < loop.head:
                out.append(S("break", "break", line, col))
                return k + 1
            break
        self.fail(k, "a jump that is not part of an if, while, for, break or continue")

    def for_loop(self, k, end, st, out, stmt_start):
        it = st.pop()
        head = k + 1
        if self.op(head) != "FOR_ITER":
            self.fail(k, "this iteration")
        x = self.target(head)
        # the body runs to the loop's exit: its last instruction jumps back, or
        # returns or breaks where Python 3.12 moved an if's body after the jump back
        latch = max(j for j in self.backjumps.get(head, [head]) if j < x)
        if any(latch < (self.target(j) or 0) < x for j in range(head + 1, latch)):
            latch = x
        after = x + 1 if self.op(x) == "END_FOR" else x
        if self.op(after) == "POP_ITER" or self.op(x) == "END_FOR" and self.op(after) == "POP_TOP" and _PY >= (3, 13):
            after += 1           # the iterator, popped after the loop (3.13+)
        brk = [self.target(j) for j in range(head + 1, latch) if self.op(j) in _UNCOND and
               self.target(j) is not None and self.target(j) >= after]
        stop = max(brk) if brk else end if self.breaks_to_end(head + 1, latch) else after
        if stop > end:
            stop = after
        self.claimed.add(head)
        self.seen.update((head, latch, x, after - 1))
        self.loops.append(_Loop(head, after, (head,)))
        saved = getattr(self, "loop_target", None)
        self.loop_target = None
        body = self.region(head + 1, latch, [_Iter(), _Item()])
        target = self.loop_target
        self.loop_target = saved
        self.loops.pop()
        if target is None:
            self.fail(head, "this for loop")
        orelse = self.region(after, stop) if stop > after else None
        line = self.lines[stmt_start][0]
        col = target.col - 4 if target.col is not None and target.col >= 4 else None
        out.append(S("for", "for %s in %s:" % (target.text, it.text), line, col, body, orelse))
        return stop

    def while_true(self, k, end, out):
        latch = max(j for j in self.backjumps[k] if j < end)
        self.claimed.add(k)
        self.seen.add(latch)
        exits = [self.target(j) for j in range(k, latch) if self.op(j) in _UNCOND and self.target(j) is not None and
                 self.target(j) > latch]
        after = latch + 1
        self.loops.append(_Loop(k, after, (k,)))
        body = self.region(k, latch)
        self.loops.pop()
        line = self.lines[k - 1][0] if k > 0 and self.op(k - 1) == "NOP" else self.lines[k][0] - 1
        col = (body[0].col - 4) if body and body[0].col is not None and body[0].col >= 4 else None
        out.append(S("while", "while True:", line, col, body, None))
        stop = max(exits) if exits else after
        if stop > end:
            stop = after
        if stop > after:
            out[-1].orelse = self.region(after, stop)
        return stop

    def leaf_region(self, k, end):
        """The index of the next conditional jump if instructions from k up
        to it are one pure expression, else None."""
        st = []
        j = k
        while j < end:
            n = self.op(j)
            if n in _CONDJUMP or n in _NONEJUMP or n in _ORPOP:
                return j if len(st) == 1 else None
            if n in _SKIP:
                j += 1
                continue
            if self.is_link(j) and len(st) == 2:
                try:
                    j = self.chain(j, st)
                except (IndexError, DecompileError):
                    return None
                continue
            if j in self.backjumps and j != k:
                return None
            try:
                if not self.expr_op(j, st):
                    return None
            except (IndexError, DecompileError):
                return None
            j += 1
        return None

    def cond(self, k, end, st, out, stmt_start, base):
        k0 = k
        i = self.ins[k]
        # value forms of 3.12: a; COPY 1; POP_JUMP_IF_X L; POP_TOP; b; L:
        prev = k - 2 if self.op(k - 1) == "TO_BOOL" else k - 1
        if self.op(prev) == "COPY" and self.ins[prev].arg == 1 and self.op(k + 1) == "POP_TOP" and \
                i.opname in _CONDJUMP:
            a = st.pop()
            st.pop()
            t = self.target(k)
            sub = []
            self.seen.update((k, k + 1))
            self.region_value(k + 2, t, sub)
            st.append(_boolop("or" if _CONDJUMP[i.opname] else "and", a, sub[-1]))
            return t
        # a short-circuit condition: leaves (expr, jumps-when-true, target, start)
        leaves = []
        first_line = self.lines[stmt_start][0]
        cur_start = stmt_start
        exits = set()                # where and/or values leave with an operand
        depth = len(st) - 1          # what lies under the condition (a conditional expression's operands)
        if depth > base:
            cur_start = k            # no jump lands on a condition's first leaf
        while True:
            i = self.ins[k]
            c = st.pop()
            if i.opname in _NONEJUMP:
                x = _paren(c, P_CMP + 1)
                yes, no = _NONEJUMP[i.opname], "is not" if _NONEJUMP[i.opname] == "is" else "is"
                c = E("%s %s None" % (x, yes), P_CMP, c.line, c.col)
                c.neg = E("%s %s None" % (x, no), P_CMP, c.line, c.col)
                c.neg.neg = c
                leaves.append((c, True, self.target(k), cur_start))
            elif i.opname in _ORPOP:
                exits.add(self.target(k))
                leaves.append((c, _ORPOP[i.opname], self.target(k), cur_start))
            else:
                leaves.append((c, _CONDJUMP[i.opname], self.target(k), cur_start))
            k += 1
            # a chained comparison's jump over its clean-up block
            if self.op(k) == "JUMP_FORWARD" and self.op(k + 1) == "POP_TOP" and (
                    self.op(k + 2) in _UNCOND and self.target(k) == k + 3 or
                    self.exit_key(k + 2) is not None and self.target(k) == k + 2 + len(self.exit_key(k + 2))):
                cleanup = k + 1
                to = self.target(k + 2) if self.op(k + 2) in _UNCOND else k + 2
                leaves = [(e, s, to if t == cleanup else t, b) for (e, s, t, b) in leaves]
                self.seen.update(range(k, self.target(k)))
                k = self.target(k)
            if len(st) != depth:
                self.fail(k, "a condition inside an expression")
            # `c or False`: the constant's leaf is a jump to where the condition is false
            while self.op(k) in ("JUMP_FORWARD", "JUMP") and leaves[-1][1] and leaves[-1][2] == k + 1 and \
                    (self.target(k) or 0) > k + 1:
                leaves.append((E("False", P_ATOM, c.line, None), False, self.target(k), k))
                self.seen.add(k)
                k += 1
            nxt = self.leaf_region(k, end)
            if nxt is None:
                break
            pending = any(k < t <= nxt + 1 for (_, _, t, _) in leaves)
            if not pending and self.lines[k][0] != first_line:
                break
            cur_start = k
            while k < nxt:
                self.seen.add(k)
                if self.is_link(k):
                    j = self.chain(k, st)
                    self.seen.update(range(k, j))
                    k = j
                    continue
                if self.ins[k].opname not in _SKIP:
                    self.expr_op(k, st)
                k += 1
        body_start = k
        self.seen.update(range(k0, k))
        if exits:
            if len(exits) != 1:
                self.fail(k, "this and/or expression")
            x = exits.pop()
            sub = list(st)
            self.region_value(k, x, sub)
            leaves.append((sub[-1], True, x, k))
            expr, t, f = self.merge(leaves, x, x)
            if t != x or f != x:
                self.fail(k, "this and/or expression")
            st.append(expr)
            return x
        if self.loops and depth == base and self.op(k) in _UNCOND and self.lines[k][0] == self.lines[k - 1][0]:
            # Python 3.12 may end a loop's `if` with jumps to the loop's head
            # (`if c: rest` read as `if not c: continue`): thread the jumps
            loop = self.loops[-1]
            thr = [(e, w, self.thread(t), b) for (e, w, t, b) in leaves]
            fall = self.thread(k)
            if fall == loop.head or fall in loop.cont:
                expr, t, f = self.merge(thr, fall)
                other = f if t == fall else t
                if (t == fall) != (f == fall) and k < other < end:
                    c = expr if f == fall else _not(expr)
                    w = self.bottom_while(stmt_start, k, other, end, c, out)
                    if w is not None:
                        return w
                    self.seen.update(range(k, other))
                    s = S("if", None, self.lines[stmt_start][0], None, self.region(other, end, list(st)))
                    s.text = expr if f == fall else _not(expr)
                    s.col = s.text.col - 3 if s.text.col and s.text.col >= 3 else None
                    out.append(s)
                    return end
        expr, t, f = self.merge(leaves, body_start)
        if t == body_start:
            c, x = expr, f
        elif f == body_start:
            c, x = _not(expr), t
        else:
            self.fail(k - 1, "this condition")
        line = self.lines[stmt_start][0]
        if x is None:
            self.fail(k - 1, "this condition")
        if x < body_start:
            loop = self.loops[-1] if self.loops else None
            if loop is None or not (x == loop.head or x in loop.cont):
                self.fail(k - 1, "a conditional jump backward")
            s = S("if", None, line, c.col - 3 if c.col and c.col >= 3 else None,
                  [S("continue", "continue", self.lines[k - 1][0], None)])
            s.text = _not(c)         # Python 3.9 jumps to the loop's head
            out.append(s)
            return body_start
        if self.op(body_start) == "LOAD_ASSERTION_ERROR":
            r = x - 1
            if self.op(r) != "RAISE_VARARGS":
                self.fail(body_start, "this assert statement")
            m = ""
            self.seen.update(range(body_start, x))
            if r - 1 > body_start:
                j = r - 1
                if self.op(j) == "CALL" and self.ins[j].arg == 0:
                    sub = []
                    self.region_value(body_start + 1, j, sub)
                else:
                    sub = []
                    self.region_value(body_start, r, sub)
                    sub[-1].text = sub[-1].text[len("AssertionError("):-1]
                m = sub[-1].text
            out.append(S("assert", "assert %s%s" % (_not(c).text, ", " + m if m else ""), line, c.col))
            return x
        # while loop: the test is copied after the body
        n = body_start - stmt_start
        latch = None
        if body_start in self.backjumps and body_start not in self.claimed and depth == base:
            for j in self.backjumps[body_start]:
                if body_start < j < x:
                    latch = j
        if latch is not None and latch < x - 1:
            dup = x - latch - 1    # CPython copied the code after the loop (a return) to the loop's end
            if not self.same_code(latch + 1, x, dup) or self.op(x - 1) not in ("RETURN_VALUE", "RETURN_CONST"):
                latch = None
        if latch is not None:
            bottom = latch + 1 - n if self.op(latch) in _CONDJUMP else latch - n
            same = bottom > body_start and self.same_code(stmt_start, bottom, n)
            if same and bottom > body_start:
                self.claimed.add(body_start)
                self.seen.update(range(bottom, x))
                exits = [self.target(j) for j in range(body_start, bottom) if self.op(j) in _UNCOND and
                         self.target(j) is not None and self.target(j) > latch]
                after = latch + 1
                self.loops.append(_Loop(body_start, after, (bottom, stmt_start)))
                body = self.region(body_start, bottom)
                self.loops.pop()
                s = S("while", "while %s:" % c.text, line, c.col - 6 if c.col and c.col >= 6 else None, body)
                stop = max(exits) if exits else end if self.breaks_to_end(body_start, bottom) else after
                stop = after if stop > end else stop
                if stop > after and stop != x:
                    s.orelse = self.region(after, stop)
                out.append(s)
                return max(stop, x)
        # the while loop of Python 3.9: the test at the head, a jump back to it at the end
        if stmt_start in self.claimed and depth == base and self.op(x - 1) in _UNCOND and \
                self.target(x - 1) == stmt_start and body_start not in self.backjumps:
            exits = [self.target(j) for j in range(body_start, x - 1) if self.op(j) in _UNCOND and
                     self.target(j) is not None and self.target(j) > x - 1]
            self.seen.add(x - 1)
            self.loops.append(_Loop(stmt_start, x, (stmt_start,)))
            body = self.region(body_start, x - 1)
            self.loops.pop()
            s = S("while", "while %s:" % c.text, line, c.col - 6 if c.col and c.col >= 6 else None, body)
            stop = max(exits) if exits else x
            stop = x if stop > end else stop
            if stop > x:
                s.orelse = self.region(x, stop)
            out.append(s)
            return stop
        # if / else, or a conditional expression
        last = x - 1
        tail = self.target(last) if self.op(last) in ("JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP") else None
        thr = self.thread(tail)
        is_loop_exit = self.loops and tail is not None and (tail >= self.loops[-1].exit or
                                                             thr == self.loops[-1].head or
                                                             thr in self.loops[-1].cont)
        if tail is not None and tail > x and not is_loop_exit:
            body_end, else_end = last, min(tail, end)
        else:
            body_end, else_end = x, None
            copied = self.copied_tail(body_start, x, end, st)
            if copied is not None:
                # a conditional expression whose code after it (to a return)
                # CPython copied into both branches
                n, resume = copied
                sub, sub2 = list(st), list(st)
                self.region_value(body_start, x - n, sub)
                self.region_value(x, resume, sub2)
                self.seen.update(range(x - n, x))
                a, b = sub[-1], sub2[-1]
                st.append(E("%s if %s else %s" % (_paren(a, P_OR), _paren(c, P_OR), _paren(b, P_TEST)), P_TEST,
                            a.line, a.col))
                return resume
        sub = list(st)
        body = self.region(body_start, body_end, sub)
        if len(sub) == len(st) + 1:
            if else_end is None or body:
                self.fail(k, "this conditional expression")
            sub2 = list(st)
            self.region_value(x, else_end, sub2)
            a, b = sub[-1], sub2[-1]
            st.append(E("%s if %s else %s" % (_paren(a, P_OR), _paren(c, P_OR), _paren(b, P_TEST)), P_TEST,
                        a.line, a.col))
            return else_end
        if len(sub) != len(st) and not (len(sub) == len(st) - 1 and isinstance(st[-1], _Iter)):
            self.fail(k, "this conditional")     # only a break or return pops the loop's iterator
        s = S("if", None, line, c.col - 3 if c.col and c.col >= 3 else None, body)
        s.text = c
        out.append(s)
        if else_end is not None:
            s.orelse = self.region(x, else_end)
            return else_end
        return x

    def copied_tail(self, a, x, end, st):
        """Where the branches [a, x) and [x, ...) of a condition both end
        with the same instructions up to a return, at the same positions
        (CPython copied the code after a conditional expression into both
        of its branches), and what comes before is one pure expression in
        each: (length of the copy, where the second branch's copy starts);
        None for others (an if statement's branches that both return)."""
        if self.op(x - 1) not in ("RETURN_VALUE", "RETURN_CONST"):
            return None
        e = x
        while e < end and self.op(e) not in ("RETURN_VALUE", "RETURN_CONST"):
            if self.target(e) is not None:
                return None
            e += 1
        if e >= end:
            return None
        n = 0
        while x - 1 - n > a and e - n > x and self.same_code(x - 1 - n, e - n, 1) and \
                self.target(x - 1 - n) is None and self.spans[x - 1 - n] == self.spans[e - n] and \
                self.lines[x - 1 - n] == self.lines[e - n]:
            n += 1
        # the longest copy whose branches before it are values (without
        # columns, a branch's last instructions may look alike too)
        while n > 0 and not (self.pure(a, x - n, st) and self.pure(x, e + 1 - n, st)):
            n -= 1
        return (n, e + 1 - n) if n else None

    def pure(self, a, b, st):
        """Whether instructions [a, b) only push one value onto st."""
        tmp = list(st)
        for j in range(a, b):
            if self.op(j) in _SKIP:
                continue
            try:
                if not self.expr_op(j, tmp):
                    return False
            except (IndexError, DecompileError):
                return False
        return len(tmp) == len(st) + 1

    def bottom_while(self, start, k, body, end, c, out):
        """A while loop inside a loop whose test [start, k) jumps to the
        body at `body` or on to the outer loop's head (Python 3.12): the
        body ends with a copy of the test and a jump back to `body`.
        Returns where the code after the loop starts; None for others."""
        n = k - start
        for j in self.backjumps.get(body, ()):
            if not (body < j < end and j - n > body and self.op(j - 1) in _CONDJUMP and
                    self.same_code(start, j - n, n)):
                continue
            self.claimed.add(body)
            self.seen.update(range(start, k + 1))
            self.seen.update(range(j - n, j + 1))
            self.loops.append(_Loop(body, j + 1, (j - n,)))
            stmts = self.region(body, j - n)
            self.loops.pop()
            out.append(S("while", "while %s:" % c.text, self.lines[start][0],
                         c.col - 6 if c.col and c.col >= 6 else None, stmts))
            return j + 1
        return None

    def check_all_read(self):
        """Refuses code with instructions the rebuilt text does not hold,
        but for copies of a block that only returns and the jumps and
        clean-ups of conditions, which the text holds in another form."""
        k = 0
        while k < len(self.ins):
            if k in self.seen or self.op(k) in _SKIP:
                k += 1
                continue
            key = self.exit_key(k)
            if key is not None:
                k += len(key)
                continue
            if self.op(k) in _UNCOND or self.op(k) == "POP_TOP" and self.op(k + 1) in _UNCOND:
                k += 1
                continue
            self.fail(k, "code that could not be read back (%s)" % self.op(k))

    def thread(self, t):
        """Where a jump to t ends up after unconditional jumps (and a
        chained comparison's clean-up, POP_TOP then a jump)."""
        seen = 0
        while t is not None and seen < 8:
            if self.op(t) in _UNCOND:
                t = self.target(t)
            elif self.op(t) == "POP_TOP" and self.op(t + 1) in _UNCOND:
                t = self.target(t + 1)
            else:
                break
            seen += 1
        return t

    def exit_key(self, t):
        """What the short block at t does when it only returns (CPython
        copies such blocks to every jump to them); None for others."""
        if t is None:
            return None
        for q in range(t, min(t + 3, len(self.ins))):
            if self.op(q) in ("RETURN_VALUE", "RETURN_CONST"):
                return tuple((self.op(j), repr(self.ins[j].argval)) for j in range(t, q + 1))
            if self.op(q) not in ("LOAD_CONST", "LOAD_FAST", "NOP"):
                return None
        return None

    def same_code(self, a, b, n):
        """Instructions [a, a+n) and [b, b+n) do the same (jump targets aside)."""
        if b + n > len(self.ins):
            return False
        for q in range(n):
            i, j = self.ins[a + q], self.ins[b + q]
            if i.opname in _CONDJUMP and j.opname in _CONDJUMP:
                continue
            if i.opname != j.opname or (self.target(a + q) is None and i.argval != j.argval):
                return False
        return True

    def merge(self, leaves, body_start, value=None):
        """One (expr, true target, false target) from the leaves of a
        short-circuit condition, merging neighbours as and/or."""
        nodes = []
        alias = {}
        for (_, _, t, _) in sorted(leaves, key=lambda l: (l[2] is None or l[2] < body_start, l[2] or 0)):
            key = self.exit_key(t)
            if key is not None:
                alias.setdefault(key, t)    # the first at or after the body, where there is one
        leaves = [(e, w, alias.get(self.exit_key(t), t), st) for (e, w, t, st) in leaves]
        for n, (e, when_true, tgt, start) in enumerate(leaves):
            nxt = leaves[n + 1][3] if n + 1 < len(leaves) else body_start
            nodes.append([e, tgt if when_true else nxt, nxt if when_true else tgt, start])
        changed = True
        while len(nodes) > 1 and changed:
            changed = False
            # `not a` only where a's value is not the result (value: the exit of an and/or value)
            for negate in (False, True):
                for n in range(len(nodes) - 1):
                    a, b = nodes[n], nodes[n + 1]
                    refs = [m for m, o in enumerate(nodes) if m != n and (o[1] == b[3] or o[2] == b[3])]
                    if refs:
                        continue
                    if a[1] == b[3] and a[2] == b[2]:
                        e = _boolop("and", a[0], b[0])
                    elif a[2] == b[3] and a[1] == b[1]:
                        e = _boolop("or", a[0], b[0])
                    elif not negate or value in (a[1], a[2]):
                        continue
                    elif a[1] == b[3] and a[2] == b[1]:
                        e = _boolop("or", _not(a[0]), b[0])
                    elif a[2] == b[3] and a[1] == b[2]:
                        e = _boolop("and", _not(a[0]), b[0])
                    else:
                        continue
                    nodes[n:n + 2] = [[e, b[1], b[2], a[3]]]
                    changed = True
                    break
                if changed:
                    break
        if len(nodes) != 1:
            self.fail(leaves[0][3], "a condition of this form")
        return nodes[0][0], nodes[0][1], nodes[0][2]


def _implicit(s):
    return s.kind == "return" and s.implicit


def _to_loop_end(stmts):
    """Whether statements end with the jump to the loop's end that the
    code of an if's body has where the loop's body ends after the if."""
    s = stmts[-1] if stmts else None
    return s is not None and (s.kind == "continue" and s.implicit or
                              s.kind == "if" and bool(s.orelse) and _to_loop_end(s.body) and _to_loop_end(s.orelse))


def _tidy(stmts, in_loop, at_end):
    """Undoes what CPython's code generator did to a statement list:
    `if not c: continue` + rest at a loop's end is `if c: rest`; a
    `continue` that ends a loop's body and a bare `return` that ends the
    function are dropped."""
    stmts = list(stmts)
    while stmts and (at_end == "loop" and stmts[-1].kind == "continue" or
                     at_end is True and _implicit(stmts[-1])):
        stmts.pop()
    out = []
    for n, s in enumerate(stmts):
        nxt = stmts[n + 1] if n + 1 < len(stmts) else None
        if s.kind == "if" and not s.orelse and len(s.body) == 1 and s.body[0].kind == "return" and nxt and \
                nxt.kind == "return" and s.body[0].span == nxt.span and nxt.span[2] is not None and \
                s.body[0].value is not None and nxt.value is not None:
            # return a if c else b: Python copies the return into both branches
            a, b = s.body[0].value, nxt.value
            out.append(S("return", "return %s if %s else %s" % (_paren(a, P_OR), _paren(s.text, P_OR),
                                                               _paren(b, P_TEST)), nxt.line, nxt.col))
            out.extend(stmts[n + 2:])
            return _tidy(out, in_loop, at_end)
        if s.kind == "if" and in_loop and not s.orelse and len(s.body) == 1 and s.body[0].kind == "continue" and \
                s.body[0].line == s.line and n + 1 < len(stmts):
            s.text = _not(s.text)
            s.body = stmts[n + 1:]
            out.append(s)
            break
        if s.kind == "if" and in_loop and not s.orelse and len(s.body) > 1 and _to_loop_end(s.body) and \
                n + 1 < len(stmts):
            # the body jumps to the loop's end: what follows the if is its else clause
            s.orelse = stmts[n + 1:]
            out.append(s)
            break
        if s.kind == "if" and at_end is True and not s.orelse and s.body and _implicit(s.body[-1]) and \
                n + 1 < len(stmts):
            s.orelse = stmts[n + 1:]
            out.append(s)
            break
        out.append(s)
    while out:
        t = out[-1]
        if at_end == "loop" and t.kind == "continue" or at_end is True and _implicit(t):
            out.pop()
        else:
            break
    for n, s in enumerate(out):
        last = n == len(out) - 1
        if s.body is not None and s.kind != "def":     # a def's statements are its own
            loop = s.kind in ("for", "while")
            s.body = _tidy(s.body, loop or in_loop, (last and at_end) if not loop else "loop")
            if s.orelse:
                s.orelse = _tidy(s.orelse, in_loop, last and at_end)
    if not out and stmts:
        out = [S("pass", "pass", stmts[-1].line, stmts[-1].col)]
    return out


class _Writer:
    def __init__(self, first):
        self.lines = []
        self.first = first

    def put(self, line, indent, text):
        want = (line - self.first) if line is not None else len(self.lines)
        while len(self.lines) < want:
            self.lines.append("")
        self.lines.append(" " * indent + text)

    def block(self, stmts, outer):
        """Writes stmts as the body of a statement at column outer: at their
        own column where the line table gives one deeper than outer (a tab
        is one column), else four deeper."""
        if not stmts:
            stmts = [S("pass", "pass", None, None)]
        stmts = _loop_else(stmts)
        cols = [s.col for s in stmts if s.col is not None]
        ind = cols[0] if cols and cols[0] > outer else outer + 4
        if any(c != ind for c in cols):
            ind = outer + 4
        for s in stmts:
            head = s.text.text if isinstance(s.text, E) else s.text
            if s.kind == "if":
                self.put(s.line, ind, "if %s:" % head)
                self.block(s.body, ind)
                self.orelse(s, ind)
            elif s.kind == "def":
                self.put(s.line, ind, head)
                self.block(s.body, ind)
            elif s.kind in ("for", "while"):
                self.put(s.line, ind, head)
                self.block(s.body, ind)
                if s.orelse:
                    self.put(None, ind, "else:")
                    self.block(s.orelse, ind)
            else:
                self.put(s.line, ind, head)

    def orelse(self, s, ind):
        if not s.orelse:
            return
        if len(s.orelse) == 1 and s.orelse[0].kind == "if" and s.orelse[0].line is not None and \
                s.orelse[0].line > len(self.lines) + self.first - 1:
            e = s.orelse[0]
            self.put(e.line, ind, "elif %s:" % e.text.text)
            self.block(e.body, ind)
            self.orelse(e, ind)
            return
        first = s.orelse[0].line
        self.put(first - 1 if first is not None and first - 1 > len(self.lines) + self.first - 1 else None,
                 ind, "else:")
        self.block(s.orelse, ind)


def _loop_else(stmts):
    """A loop's else clause that has no break to skip it compiles to the
    same code as statements after the loop; the line table's columns tell
    them apart: statements right after a loop, deeper than it and at the
    column of its body are its else clause.  (Where a statement's column is
    that of its value, as for some stores under 3.13, it matches neither.)"""
    out = []
    n = 0
    while n < len(stmts):
        s = stmts[n]
        out.append(s)
        n += 1
        body_cols = {b.col for b in s.body or ()}
        if s.kind in ("for", "while") and not s.orelse and s.col is not None and len(body_cols) == 1:
            col = body_cols.pop()
            tail = []
            while n < len(stmts) and col is not None and col > s.col and stmts[n].col == col:
                tail.append(stmts[n])
                n += 1
            if tail:
                s.orelse = tail
    return out


def _params(code, defaults, kwdefaults):
    """The parameter list of code: defaults holds the texts of the last
    positional parameters' defaults, kwdefaults those of the keyword-only
    ones by name."""
    names = code.co_varnames
    n, kwonly = code.co_argcount, code.co_kwonlyargcount
    posonly = getattr(code, "co_posonlyargcount", 0)
    out = []
    for j, name in enumerate(names[:n]):
        m = j - (n - len(defaults))
        out.append("%s=%s" % (name, defaults[m]) if m >= 0 else name)
        if j == posonly - 1:
            out.append("/")
    rest = n + kwonly
    if code.co_flags & 0x04:          # *args
        out.append("*" + names[rest])
        rest += 1
    elif kwonly:
        out.append("*")
    out += ["%s=%s" % (name, kwdefaults[name]) if name in kwdefaults else name for name in names[n:n + kwonly]]
    if code.co_flags & 0x08:          # **kwargs
        out.append("**" + names[rest])
    return ", ".join(out)


def signature(func, d=None):
    """The parameter list of func, with its defaults' values."""
    d = d or Decompiler(func.__code__)
    defaults = [d.const(v, 0).text for v in func.__defaults__ or ()]
    kwdefaults = {n: d.const(v, 0).text for n, v in (func.__kwdefaults__ or {}).items()}
    return _params(func.__code__, defaults, kwdefaults)


def rebuild(func):
    """(text, first line) of func, written from its code object."""
    code = func.__code__
    if code.co_flags & 0x2A0:     # generator, coroutine, async generator
        raise DecompileError("cannot compile function %r (file %s, line %d): a generator or coroutine is not "
                             "supported" % (code.co_name, code.co_filename, code.co_firstlineno))
    d = Decompiler(code)
    body = d.statements()
    params = signature(func, d)
    lines = [l for (l, _) in d.lines if l is not None]
    first = d.lines[0][0] if d.ins and d.ins[0].opname == "RESUME" else min(lines + [code.co_firstlineno]) - 1
    first = max(first or code.co_firstlineno, 1)
    body_lines = [s.line for s in body if s.line is not None]
    if body_lines:      # the def line itself is not in the code of a decorated function
        first = min(body_lines) - 1
    if first < 1:
        first = 1
    if code.co_name == "<lambda>":
        if len(body) != 1 or body[0].kind != "return":
            d.fail(0, "this lambda")
        value = body[0].text[len("return "):] if body[0].text != "return" else "None"
        return "lambda %s: %s\n" % (params, value), d.lines[0][0] or first
    # the name the function answers to (a function made by exec and renamed
    # is looked up by its __name__)
    name = func.__name__ if func.__name__.isidentifier() else \
        code.co_name if code.co_name.isidentifier() else "_f"
    w = _Writer(first)
    w.put(first, 0, "def %s(%s):" % (name, params))
    if not body:
        body = [S("pass", "pass", None, None)]
    w.block(body, 0)
    return "\n".join(w.lines) + "\n", first
