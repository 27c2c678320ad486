"""Rebuilds every function of the golden kernels (or, with --tests, each
jitted function of tests/test_*.py) from its bytecode and compares the
rebuilt text's AST with the source's (decorators, defaults and positions
aside): `python tests/bytecode_ast.py` prints "PYTHON same differs refused".  It needs neither NumPy nor the compiled
extension, so any Python can run it (test_bytecode_path runs it under the
interpreters it finds), and --show prints each difference.
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
    path = os.path.join(os.path.dirname(HERE), "python", "ptxjit", "decompile.py")
    spec = importlib.util.spec_from_file_location("_pjbc.decompile", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _jitted(tree):
    """(first line, def) of each function decorated with a cuda.jit, at any depth."""
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef) and any("jit" in ast.dump(dec) for dec in n.decorator_list):
            out[n.decorator_list[0].lineno] = n
    return out


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
            node.decorator_list = []
            node.args.defaults = []
            if ast.dump(node) == ast.dump(new):
                same += 1
            else:
                differs += 1
                if show:
                    print("DIFFERS", os.path.basename(path), fc.co_name)
                    print(got)
    print("%d.%d %d %d %d" % (sys.version_info[0], sys.version_info[1], same, differs, refused))


if __name__ == "__main__":
    main("--show" in sys.argv, "--tests" in sys.argv)
