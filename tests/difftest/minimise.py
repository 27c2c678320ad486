"""Reduces a failing generated program to a small reproducer.

minimise_seed(seed, mode, outcome) regenerates program `seed`, then
greedily, until nothing more can go:

  * deletes statements (anywhere, device functions included);
  * replaces if/for/while by their bodies, drops elif/else arms;
  * replaces an expression by a child of the same type, or by a literal
    0/1 of that type (same type: the types of everything around it stay
    what they were, so the reference stays right).

A candidate is kept when the reference still runs (a deleted definition
makes it fail, and the candidate is dropped) and the path still fails the
same way: a mismatch in the same array, or an error with the same message.
The result is written to tests/difftest/regress/NNN_<what>.py with the
failure in its header; tests/test_difftest.py runs every file there.

    python3 tests/difftest/minimise.py SEED [--mode pure|comm] [--path sim] [--focus CLASS]
"""

import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen  # noqa: E402
import harness  # noqa: E402

REGRESS = os.path.join(HERE, "regress")


def signature(o):
    """What must stay the same while reducing."""
    if o.status == "mismatch":
        m = re.match(r"(input \w+ was written|\w+)", o.detail)
        return ("mismatch", m.group(1) if m else "")
    if o.status in ("crash", "fault"):
        return (o.status, "")
    if o.status == "error":
        d = re.sub(r"\S+\.py:\d+:\d+: ", "", o.detail)
        d = d.split(" | ")[0]
        d = re.sub(r"\b(v|j|w|t|la|q)\d+\b", "_", d)
        return ("error", d[:80])
    return (o.status, "")


class Reducer:
    def __init__(self, prog, path, sig, work):
        self.p, self.path, self.sig, self.work = prog, path, sig, work
        self.tries = 0

    def interesting(self):
        self.tries += 1
        if not consistent(self.p):
            return False
        try:
            text = self.p.render()
        except Exception:
            return False
        if self.sig in (("crash", ""), ("fault", "")):
            return dies_in_child(text, self.path, self.work, self.sig[0] == "fault")
        o = harness.check_text(text, [self.path], self.work)[0]
        return signature(o) == self.sig

    # ------------------------------------------------------------ statements

    def blocks(self):
        """Every statement list, outermost first."""
        out = []

        def walk(body):
            out.append(body)
            for s in body:
                for b in s.blocks():
                    walk(b)
        walk(self.p.body)
        for fn in self.p.devs:
            walk(fn.body)
        return out

    def deletable(self, s):
        if isinstance(s, gen.Return):
            return False
        if isinstance(s, gen.Text):
            # barriers, shared arrays and their initialisation: on the
            # simulator only, which reports the race a missing barrier makes
            # (on the GPU it could pass for the mismatch being reduced)
            return self.path.startswith("sim")
        return True

    def pass_statements(self):
        changed = False
        for body in self.blocks():
            i = len(body) - 1
            while i >= 0:
                if i < len(body) and self.deletable(body[i]):
                    s = body.pop(i)
                    if self.interesting():
                        changed = True
                    else:
                        body.insert(i, s)
                        # a compound statement: its body instead of it
                        if isinstance(s, (gen.For, gen.While)) or (isinstance(s, gen.If)):
                            inner = s.body if not isinstance(s, gen.If) else s.arms[0][1]
                            body[i:i + 1] = inner
                            if self.interesting():
                                changed = True
                            else:
                                body[i:i + len(inner)] = [s]
                if i < len(body) and isinstance(body[i], gen.If):
                    changed |= self.reduce_if(body[i])
                i -= 1
        return changed

    def reduce_if(self, s):
        changed = False
        if s.orelse:
            saved = s.orelse
            s.orelse = []
            if self.interesting():
                changed = True
            else:
                s.orelse = saved
        k = len(s.arms) - 1
        while k >= 1:
            arm = s.arms.pop(k)
            if self.interesting():
                changed = True
            else:
                s.arms.insert(k, arm)
            k -= 1
        return changed

    # ------------------------------------------------------------ expressions

    def slots(self):
        """(get, set) pairs of every expression position, outermost first."""
        out = []

        def expr_slots(get, put):
            out.append((get, put))
            e = get()
            for i, _ in enumerate(e.kids()):
                def g(e=e, i=i):
                    return e.kids()[i]

                def p(x, e=e, i=i):
                    e.set_kid(i, x)
                expr_slots(g, p)

        def stmt(s):
            for attr in ("e", "c", "idx"):
                v = getattr(s, attr, None)
                if isinstance(v, gen.E):
                    expr_slots(lambda s=s, a=attr: getattr(s, a), lambda x, s=s, a=attr: setattr(s, a, x))
            if isinstance(s, gen.For):
                for i in range(len(s.bounds)):
                    expr_slots(lambda s=s, i=i: s.bounds[i], lambda x, s=s, i=i: s.bounds.__setitem__(i, x))
            if isinstance(s, gen.TupleAssign):
                for i in range(len(s.es)):
                    expr_slots(lambda s=s, i=i: s.es[i], lambda x, s=s, i=i: s.es.__setitem__(i, x))
            if isinstance(s, gen.If):
                for i in range(len(s.arms)):
                    expr_slots(lambda s=s, i=i: s.arms[i][0],
                               lambda x, s=s, i=i: s.arms.__setitem__(i, (x, s.arms[i][1])))
            for b in s.blocks():
                for t in b:
                    stmt(t)
        for s in self.p.body:
            stmt(s)
        for fn in self.p.devs:
            for s in fn.body:
                stmt(s)
        return out

    def replacements(self, e):
        out = []
        for k in e.kids():
            if k.ty == e.ty and not isinstance(e, gen.IfExp) or (isinstance(e, gen.IfExp) and k is not e.args[0]
                                                                   and k.ty == e.ty):
                out.append(k)
        if not isinstance(e, gen.Lit) and isinstance(e.ty, str):
            out.append(gen.Lit(False if e.ty == "b" else (0.0 if e.ty in gen.FLOATS else 0), e.ty))
            out.append(gen.Lit(True if e.ty == "b" else (1.0 if e.ty in gen.FLOATS else 1), e.ty))
        return out

    def pass_exprs(self):
        changed = False
        for get, put in self.slots():
            try:
                e = get()
            except (IndexError, AttributeError):
                continue
            for r in self.replacements(e):
                put(r)
                if self.interesting():
                    changed = True
                    break
                put(e)
        return changed

    def pass_devs(self):
        changed = False
        for i in range(len(self.p.devs) - 1, -1, -1):
            fn = self.p.devs.pop(i)
            if self.interesting():
                changed = True
            else:
                self.p.devs.insert(i, fn)
        return changed

    def run(self, limit=4000):
        while self.tries < limit:
            self.pass_devs()
            c1 = self.pass_statements()
            c2 = self.pass_exprs()
            if not (c1 or c2):
                break
        return self.p


def consistent(p):
    """Every conditional expression and and/or typed as both compilers
    type it after the reductions (gen.risky): a condition that became
    constant must be a literal, or a variable whose only assignment is a
    literal (then the taken branch's type), or have branches of one type;
    and no fma whose product became a constant (gen.settle_fma)."""
    counts, lits = {}, {}

    def count(s, cvars):
        for name, es, plain in gen.assigned(s):
            counts[name] = counts.get(name, 0) + 1
            if plain and gen.is_literal(es[0]):
                lits[name] = es[0]
    gen.walk_program(p, count)
    lits = {n: e for n, e in lits.items() if counts[n] == 1}
    bad = []

    def check(e, cvars):
        if isinstance(e, gen.IfExp):
            c, a, b = e.args
            d, x = c, (a, b)
        elif isinstance(e, gen.BoolOp):
            d, x = e.args[0], tuple(e.args)
        else:
            d = None
        if d is not None:
            a, b = x
            lit = d if gen.is_literal(d) else lits.get(d.name) if isinstance(d, gen.Var) else None
            if lit is not None:
                if isinstance(e, gen.IfExp):
                    want = a.ty if lit.v else b.ty
                else:
                    want = a.ty if bool(lit.v) == (e.op == "or") else b.ty
            elif d.const or gen.risky(d, cvars):
                want = a.ty if a.ty == b.ty else None
            else:
                want = gen.unify(a.ty, b.ty)
            if want != e.ty:
                bad.append(e)
        if gen.ambiguous_fma(e, cvars):
            bad.append(e)
        for k in e.kids():
            check(k, cvars)

    def visit(s, cvars):
        for e in gen.stmt_exprs(s):
            check(e, cvars)
        if isinstance(s, (gen.AugAssign, gen.AugLocalStore)) and gen.ambiguous_fma(s.aug_bin(), cvars):
            bad.append(s)
    gen.walk_program(p, visit)
    return not bad


def dies_in_child(text, path, work, fault=False):
    """Whether checking the program on path kills the process (a signal),
    or with fault, whether the kernel faults on the GPU (an illegal
    address: the context is lost, so every try needs a new process): run
    in a child process."""
    import subprocess
    os.makedirs(work, exist_ok=True)
    f = os.path.join(work, "crash_%d.py" % os.getpid())
    with open(f, "w") as fh:
        fh.write(text)
    code = ("import sys; sys.path.insert(0, %r); import harness; "
            "print([o.detail for o in harness.check_file(%r, [%r])])" % (HERE, f, path))
    env = dict(os.environ, PTXJIT_SIM="0" if path.startswith("gpu") else "1")
    try:
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=120, text=True)
    except subprocess.TimeoutExpired:
        return False
    if fault:
        return "CUDA_ERROR_ILLEGAL_ADDRESS" in r.stdout
    return r.returncode < 0 or r.returncode >= 128


def minimise_seed(seed, mode, outcome, write=True, extras=None, focus=None):
    prog = gen.Program(seed, mode, extras=extras, focus=focus)
    sig = signature(outcome)
    work = tempfile.mkdtemp(prefix="difftest_min")
    red = Reducer(prog, outcome.path, sig, work)
    if not red.interesting():
        return None
    red.run()
    text = prog.render()
    if not write:
        return text
    o = harness.check_text(text, [outcome.path], work)[0]
    return save(text, seed, o)


def save(text, seed, o):
    os.makedirs(REGRESS, exist_ok=True)
    nums = [int(f[:3]) for f in os.listdir(REGRESS) if f[:3].isdigit()]
    n = max(nums, default=0) + 1
    what = o.status + "_" + re.sub(r"[^a-z0-9]+", "_", o.detail.split("=")[0].lower())[:30].strip("_")
    path = os.path.join(REGRESS, "%03d_%s.py" % (n, what))
    head = "# reduced from difftest seed %d on %s: %s\n" % (seed, o.path, o.detail.replace("\n", " ")[:300])
    with open(path, "w") as f:
        f.write(head + text)
    return path


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--mode", default=None)
    ap.add_argument("--path", default="sim")
    ap.add_argument("--print", action="store_true", help="print instead of writing regress/")
    ap.add_argument("--extra", default=None, help="comma-separated classes of gen.EXTRAS to draw")
    ap.add_argument("--focus", default=None, help="a class of gen.EXTRAS the program draws")
    ap.add_argument("--crash", action="store_true", help="the program kills the process: reduce that (in child processes)")
    ap.add_argument("--fault", action="store_true",
                    help="the kernel faults on the GPU (an illegal address): reduce that (in child processes)")
    a = ap.parse_args()
    os.environ.setdefault("PTXJIT_SIM", "0" if a.path.startswith("gpu") else "1")
    extras = None if a.extra is None else [x for x in a.extra.split(",") if x]
    text = gen.generate(a.seed, a.mode, extras=extras, focus=a.focus)
    if a.crash or a.fault:
        o = (harness.Outcome(a.path, "fault", "the kernel faults (illegal address)") if a.fault
             else harness.Outcome(a.path, "crash", "the process died (signal)"))
        if not dies_in_child(text, a.path, tempfile.mkdtemp(prefix="difftest_min"), a.fault):
            print("it does not %s" % ("fault" if a.fault else "crash"))
            return 1
        r = minimise_seed(a.seed, a.mode, o, write=False, extras=extras, focus=a.focus)
        if not a.print:
            r = save(r, a.seed, o)
        print(r)
        return 0
    o = harness.check_text(text, [a.path], tempfile.mkdtemp(prefix="difftest_min"))[0]
    print("before:", o)
    if o.status not in ("mismatch", "error"):
        return 1
    r = minimise_seed(a.seed, a.mode, o, write=not a.print, extras=extras, focus=a.focus)
    print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
