"""Rebuilds every function of the golden kernels (or, with --tests, each
jitted function of tests/test_*.py) from its bytecode and compares the
rebuilt text's AST with the source's, as normal() makes them alike
(decorators, defaults, docstrings, constants Python folded, an else that
the code cannot tell from what follows): `python tests/bytecode_ast.py`
prints "PYTHON same differs refused".  It needs neither NumPy nor the
compiled extension, so any Python can run it (test_bytecode_path runs it
under the interpreters it finds), and --show prints each difference;
PJ_DECOMPILE=FILE reads another copy of decompile.py (an older one, to
count what a change fixed).  `--texts OUT [FILE...]` writes the rebuilt
texts instead, for test_bytecode_path to compile them: the text each
Python's bytecode gives must compile to the same IR as the source.
"""

import ast
import glob
import importlib.util
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))


def _decompile():
    """ptxjit/decompile.py, with the one name it takes from ptxjit.errors."""
    pkg = types.ModuleType("_pjbc")
    pkg.__path__ = []
    errs = types.ModuleType("_pjbc.errors")
    errs.SourceNotFoundError = type("SourceNotFoundError", (Exception,), {})
    sys.modules["_pjbc"], sys.modules["_pjbc.errors"] = pkg, errs
    path = os.environ.get("PJ_DECOMPILE") or os.path.join(os.path.dirname(HERE), "python", "ptxjit", "decompile.py")
    spec = importlib.util.spec_from_file_location("_pjbc.decompile", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _is_jit(dec):
    """Whether a decorator is a jit (cuda.jit, njit, jit(...), ...)."""
    f = dec.func if isinstance(dec, ast.Call) else dec
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return "jit" in name


def _jitted(tree):
    """(first line, def) of each function decorated with a cuda.jit, at any depth."""
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef) and any(_is_jit(dec) for dec in n.decorator_list):
            out[n.decorator_list[0].lineno] = n
    return out


class _Normal(ast.NodeTransformer):
    """What the bytecode cannot tell, made alike in both trees: docstrings,
    annotations of local variables, constant expressions Python folded
    (and branches on them that it dropped), a loop's else clause with no
    break (the statements after the loop), and `else:` after a branch
    that returns, raises, breaks or continues."""

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
                isinstance(body[0].value.value, str):
            body = body[1:]
        node.body = self.block(body) or [ast.Pass()]
        return node

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if node.value is None or not node.simple:
            return node
        return ast.Assign(targets=[node.target], value=node.value, type_comment=None)

    @staticmethod
    def const(e):
        return isinstance(e, ast.Constant)

    def fold(self, node):
        try:
            v = eval(compile(ast.fix_missing_locations(ast.Expression(node)), "<fold>", "eval"), {"__builtins__": {}})
        except Exception:
            return node
        return ast.Constant(value=v) if isinstance(v, (int, float, complex, str, bytes, bool, type(None))) else node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        return self.fold(node) if self.const(node.operand) else node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self.fold(node) if self.const(node.left) and self.const(node.right) else node

    def visit_Compare(self, node):
        self.generic_visit(node)
        return self.fold(node) if all(map(self.const, [node.left] + node.comparators)) else node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        vals = list(node.values)
        while len(vals) > 1 and self.const(vals[0]):
            decides = bool(vals[0].value) == isinstance(node.op, ast.Or)
            if decides:
                return vals[0]
            vals.pop(0)
        if len(vals) == 1:
            return vals[0]
        node.values = vals
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        node.test = self.test(node.test)
        if self.const(node.test):
            return node.body if node.test.value else node.orelse
        return node

    def test(self, e):
        """A condition as its truth: `c or False` is c, and so is `c and True`."""
        if isinstance(e, ast.BoolOp):
            drop = isinstance(e.op, ast.Or)
            vals = [v for v in e.values if not (self.const(v) and bool(v.value) != drop)] or e.values[-1:]
            e.values = vals
            return vals[0] if len(vals) == 1 else e
        return e

    def block(self, stmts):
        out = []
        for st in stmts:
            if isinstance(st, (ast.If, ast.While)):
                st.test = self.test(st.test)
            if isinstance(st, ast.If) and self.const(st.test):
                out += self.block(st.body if st.test.value else st.orelse)
                continue
            if isinstance(st, ast.While) and self.const(st.test) and not st.test.value:
                out += self.block(st.orelse)
                continue
            out.append(st)
            if isinstance(st, (ast.For, ast.While)) and st.orelse and not self.breaks(st.body):
                out += st.orelse
                st.orelse = []
            if isinstance(st, ast.If) and st.orelse and st.body and \
                    isinstance(st.body[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue)):
                out += st.orelse
                st.orelse = []
        return out

    def breaks(self, stmts):
        for st in stmts:
            if isinstance(st, ast.Break):
                return True
            if isinstance(st, ast.If) and (self.breaks(st.body) or self.breaks(st.orelse)):
                return True
        return False

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse"):
            got = getattr(node, field, None)
            if isinstance(got, list) and got and isinstance(got[0], ast.stmt) and not isinstance(node, ast.FunctionDef):
                setattr(node, field, self.block(got) or ([ast.Pass()] if field == "body" else []))
        return node


def normal(node):
    """The dump of a def's AST, decorators, defaults and what _Normal
    makes alike aside."""
    node.decorator_list = []
    node.args.defaults = []
    node.args.kw_defaults = [None] * len(node.args.kw_defaults)
    return ast.dump(_Normal().visit(node))


def _codes(code):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield c
            yield from _codes(c)


def main(show, tests):
    """Golden kernels (every function), or with tests=True the functions
    decorated with a jit in tests/test_*.py."""
    d = _decompile()
    same = differs = refused = 0
    pattern = "test_*.py" if tests else os.path.join("golden", "kernels", "*.py")
    for path in sorted(glob.glob(os.path.join(HERE, pattern))):
        text = open(path).read()
        tree = ast.parse(text)
        code = compile(text, path, "exec")
        jitted = _jitted(tree) if tests else None
        for fc in _codes(code) if tests else (c for c in code.co_consts if isinstance(c, types.CodeType)):
            if tests:
                node = jitted.get(fc.co_firstlineno)
                if node is None or node.name != fc.co_name:
                    continue
            else:
                node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == fc.co_name)
            try:
                closure = tuple(types.CellType(0) for _ in fc.co_freevars)
                got, _ = d.rebuild(types.FunctionType(fc, {}, None, None, closure))
            except d.DecompileError as e:
                refused += 1
                if show:
                    print("REFUSED", os.path.basename(path), fc.co_name, e)
                continue
            new = ast.parse(got).body[0]
            if normal(node) == normal(new):
                same += 1
            else:
                differs += 1
                if show:
                    print("DIFFERS", os.path.basename(path), fc.co_name)
                    print(got)
    print("%d.%d %d %d %d" % (sys.version_info[0], sys.version_info[1], same, differs, refused))


def texts(out, names):
    """Writes to file `out` the text rebuilt here of every function of the
    golden kernels and of the test files `names` (JSON: [file, first line
    of the code, name, text, its first line, refusal]); the defaults are
    left out (the values are not here: the reader adds them)."""
    import json
    d = _decompile()
    paths = sorted(glob.glob(os.path.join(HERE, "golden", "kernels", "*.py"))) + [os.path.join(HERE, n) for n in names]
    got = []
    for path in paths:
        for fc in _codes(compile(open(path).read(), path, "exec")):
            closure = tuple(types.CellType(0) for _ in fc.co_freevars)
            try:
                text, first = d.rebuild(types.FunctionType(fc, {}, None, None, closure))
                got.append([os.path.basename(path), fc.co_firstlineno, fc.co_name, text, first, None])
            except d.DecompileError as e:
                got.append([os.path.basename(path), fc.co_firstlineno, fc.co_name, None, None, str(e)])
    with open(out, "w") as f:
        json.dump(got, f)


if __name__ == "__main__":
    if "--texts" in sys.argv:
        n = sys.argv.index("--texts")
        texts(sys.argv[n + 1], sys.argv[n + 2:])
    else:
        main("--show" in sys.argv, "--tests" in sys.argv)
