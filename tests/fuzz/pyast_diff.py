#!/usr/bin/env python3
"""pyast_diff.py - the parser checked against CPython's own.

For every Python file given (or found under the folders given), the AST
of each top-level def is printed twice: by CPython's `ast` module turned
into ptxjit's S-expression form (the rules below mirror src/front/astdump.c
and what the parser refuses by name), and by `ptxjitc --parse-only`.  Any
file where the two differ is reported; files CPython cannot parse are
skipped.  The last line is "N passed, N failed, N skipped".

    python3 tests/fuzz/pyast_diff.py --ptxjitc build/ptxjitc /usr/lib/python3*/
"""
import argparse
import ast
import os
import subprocess
import sys

def esc(b):
    out = ['"']
    for ch in b:
        c = chr(ch)
        if c in '"\\': out.append('\\' + c)
        elif c == '\n': out.append('\\n')
        elif c == '\t': out.append('\\t')
        elif ch < 0x20 or ch >= 0x7f: out.append('\\x%02x' % ch)
        else: out.append(c)
    out.append('"'); return ''.join(out)
BIN = {ast.Add:'+',ast.Sub:'-',ast.Mult:'*',ast.Div:'/',ast.FloorDiv:'//',ast.Mod:'%',ast.Pow:'**',ast.MatMult:'@',ast.LShift:'<<',ast.RShift:'>>',ast.BitAnd:'&',ast.BitOr:'|',ast.BitXor:'^'}
UN = {ast.USub:'-',ast.UAdd:'+',ast.Invert:'~',ast.Not:'not'}
CMP = {ast.Lt:'<',ast.LtE:'<=',ast.Gt:'>',ast.GtE:'>=',ast.Eq:'==',ast.NotEq:'!=',ast.Is:'is',ast.IsNot:'is not',ast.In:'in',ast.NotIn:'not in'}
def U(s): return '(unsupported "%s")' % s
def E(e):
    if e is None: return '_'
    t = type(e)
    if t is ast.Constant:
        v = e.value
        if v is True or v is False: return '(bool %s)' % v
        if v is None: return '(none)'
        if v is Ellipsis: return U('Ellipsis')
        if isinstance(v, int):
            if v >= 2**64: return U('integer literal wider than 64 bits')
            return '(int %d)' % v
        if isinstance(v, float): return '(float %r)' % v
        if isinstance(v, complex): return '(imag %r)' % v.imag
        if isinstance(v, str): return '(str %s)' % esc(v.encode('utf-8', 'surrogatepass'))
        if isinstance(v, bytes): return '(bytes %s)' % esc(v)
    if t is ast.JoinedStr: return U('f-string')
    if t is ast.Name: return '(name %s)' % e.id
    if t is ast.UnaryOp: return '(unary %s %s)' % (UN[type(e.op)], E(e.operand))
    if t is ast.BinOp: return '(binop %s %s %s)' % (BIN[type(e.op)], E(e.left), E(e.right))
    if t is ast.Compare:
        s = '(compare ' + E(e.left)
        for o, c in zip(e.ops, e.comparators): s += ' %s %s' % (CMP[type(o)], E(c))
        return s + ')'
    if t is ast.BoolOp: return '(%s %s)' % ('and' if type(e.op) is ast.And else 'or', ' '.join(E(v) for v in e.values))
    if t is ast.IfExp: return '(ifexp %s %s %s)' % (E(e.test), E(e.body), E(e.orelse))
    if t is ast.Call:
        parts = [E(e.func)]
        for a in e.args:
            if type(a) is ast.Starred: parts.append(U('*args argument unpacking'))
            else: parts.append(E(a))
        for k in e.keywords:
            if k.arg is None: parts.append(U('**kwargs argument unpacking'))
        for k in e.keywords:
            if k.arg is not None: parts.append('(kw %s %s)' % (k.arg, E(k.value)))
        return '(call %s)' % ' '.join(parts)
    if t is ast.Attribute: return '(attr %s %s)' % (E(e.value), e.attr)
    if t is ast.Subscript: return '(subscript %s %s)' % (E(e.value), E(e.slice))
    if t is ast.Slice: return '(slice %s %s %s)' % (E(e.lower), E(e.upper), E(e.step))
    if t is ast.Tuple: return '(tuple%s)' % ''.join(' ' + E(x) for x in e.elts)
    if t is ast.List: return U('list display')
    if t is ast.ListComp: return U('list comprehension')
    if t is ast.Dict: return U('dict display')
    if t is ast.Set: return U('set display')
    if t is ast.DictComp: return U('dict comprehension')
    if t is ast.SetComp: return U('set comprehension')
    if t is ast.GeneratorExp: return U('generator expression')
    if t is ast.Starred: return U('starred expression')
    if t is ast.NamedExpr: return U('assignment expression (:=)')
    if t is ast.Await: return U('await')
    if t in (ast.Yield, ast.YieldFrom): return U('yield')
    if t is ast.Lambda: return '(lambda)'
    raise Exception('expr %s' % t)
def body(out, stmts, ind):
    for s in stmts: out.append('\n' + ' ' * ind); S(out, s, ind)
def S(out, s, ind):
    t = type(s)
    if t is ast.Expr and type(s.value) in (ast.Yield, ast.YieldFrom): out.append('(unsupported yield)')
    elif t is ast.Expr: out.append('(expr %s)' % E(s.value))
    elif t is ast.Assign: out.append('(assign %s %s)' % (' '.join(E(x) for x in s.targets), E(s.value)))
    elif t is ast.AugAssign: out.append('(augassign %s %s %s)' % (BIN[type(s.op)], E(s.target), E(s.value)))
    elif t is ast.AnnAssign: out.append('(annassign %s %s)' % (E(s.target), E(s.value)) if s.value else '(pass)')
    elif t in (ast.If, ast.While):
        out.append('(%s %s' % ('if' if t is ast.If else 'while', E(s.test))); body(out, s.body, ind + 2)
        if s.orelse: out.append('\n' + ' ' * ind + 'else'); body(out, s.orelse, ind + 2)
        out.append(')')
    elif t is ast.For:
        out.append('(for %s %s' % (E(s.target), E(s.iter))); body(out, s.body, ind + 2)
        if s.orelse: out.append('\n' + ' ' * ind + 'else'); body(out, s.orelse, ind + 2)
        out.append(')')
    elif t is ast.Break: out.append('(break)')
    elif t is ast.Continue: out.append('(continue)')
    elif t is ast.Pass: out.append('(pass)')
    elif t is ast.Return: out.append('(return %s)' % E(s.value) if s.value else '(return)')
    elif t is ast.Raise: out.append('(raise %s)' % E(s.exc) if s.exc else '(raise)')
    elif t is ast.Assert: out.append('(assert %s%s)' % (E(s.test), ' ' + E(s.msg) if s.msg else ''))
    elif t is ast.FunctionDef: out.append('(nested def)')
    else:
        name = {ast.AsyncFunctionDef:'async', ast.AsyncFor:'async', ast.AsyncWith:'async', ast.ClassDef:'class', ast.With:'with', ast.Try:'try', ast.Global:'global', ast.Nonlocal:'nonlocal', ast.Delete:'del', ast.Import:'import', ast.ImportFrom:'import', ast.Match:'match'}.get(t)
        if name is None and hasattr(ast, 'TryStar') and t is ast.TryStar: name = 'try'
        if name is None: raise Exception('stmt %s' % t)
        out.append('(unsupported %s)' % name)
def F(f):
    a = f.args
    pos = a.posonlyargs + a.args
    d = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    ps = [p.arg + ('=' + E(dv) if dv else '') for p, dv in zip(pos, d)]
    var = a.vararg or a.kwarg or a.kwonlyargs
    s = '(def %s (%s%s)' % (f.name, ' '.join(ps), (' *varargs' if ps else '*varargs') if var else '')
    out = [s]; body(out, f.body, 2); out.append(')\n')
    return ''.join(out)


def reference(path):
    src = open(path, 'rb').read()
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return None
    return ''.join(F(n) for n in tree.body if type(n) is ast.FunctionDef)


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.endswith('.py'):
                        yield os.path.join(root, n)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--ptxjitc', default='build/ptxjitc')
    ap.add_argument('-v', '--verbose', action='store_true', help='print the first differing lines')
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()
    npass = nfail = nskip = 0
    for path in files_of(args.paths):
        want = reference(path)
        if want is None:
            nskip += 1
            continue
        r = subprocess.run([args.ptxjitc, '--parse-only', path], capture_output=True)
        got = r.stdout.decode('utf-8', 'replace')
        if r.returncode == 0 and got == want:
            npass += 1
            continue
        nfail += 1
        print('DIFF', path)
        if args.verbose:
            gl, wl = got.splitlines(), want.splitlines()
            for i in range(max(len(gl), len(wl))):
                g = gl[i] if i < len(gl) else '<end>'
                w = wl[i] if i < len(wl) else '<end>'
                if g != w:
                    print('  line %d\n    ptxjitc: %s\n    CPython: %s' % (i + 1, g[:200], w[:200]))
                    break
            if r.returncode:
                print('  ' + r.stderr.decode('utf-8', 'replace').splitlines()[0])
    print('%d passed, %d failed, %d skipped' % (npass, nfail, nskip))
    return 1 if nfail else 0


if __name__ == '__main__':
    sys.exit(main())
