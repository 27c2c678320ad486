"""The `ptxjitc` command a wheel installs (pyproject's [project.scripts]):
the compiler of src/cli run inside the extension.  It must print what the
standalone build/ptxjitc prints, byte for byte (PTX, dumps, help, error
messages, exit statuses), and as a function it returns its status instead
of ending the process.

The entry point runs in a child process as pip's console script runs it:
the module and function that pyproject.toml names, imported and called.
"""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

import ptxjit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GOLDEN = os.path.join(HERE, "golden")
STANDALONE = os.path.join(ROOT, "build", "ptxjitc")
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__)))

_spec = importlib.util.spec_from_file_location("golden_run", os.path.join(GOLDEN, "run.py"))
golden_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden_run)

# kernels of every kind: shared memory, device functions, atomics, float16,
# math, 2-D indices, module constants, records of several kernels
KERNELS = ["matmul_shared.py", "device_func.py", "atomics_shared.py", "float16.py", "math_funcs.py",
           "index_2d.py", "module_constants.py", "mandelbrot.py", "conv1d.py"]
ERRORS = ["array_plus_tuple.py", "atomic_int8.py"]


def entry_point():
    """The `ptxjitc = "module:function"` line of pyproject.toml."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    scripts = re.search(r"^\[project\.scripts\]\n(.*?)(?=^\[|\Z)", text, re.S | re.M)
    assert scripts, "pyproject.toml has no [project.scripts]"
    m = re.search(r'^ptxjitc\s*=\s*"([\w.]+):(\w+)"', scripts.group(1), re.M)
    assert m, "pyproject.toml's [project.scripts] has no ptxjitc"
    return m.group(1), m.group(2)


def console(args):
    """Runs the console script's entry point with args in tests/golden."""
    mod, func = entry_point()
    code = "import sys, %s as m; sys.argv[0] = 'ptxjitc'; sys.exit(m.%s())" % (mod, func)
    env = dict(os.environ, PYTHONPATH=PKG_PARENT)
    return subprocess.run([sys.executable, "-c", code] + list(args), cwd=GOLDEN, env=env,
                          capture_output=True, timeout=120)


def standalone(args):
    if not os.path.exists(STANDALONE):
        pytest.skip("build/ptxjitc is not built (make cli)")
    return subprocess.run([STANDALONE] + list(args), cwd=GOLDEN, capture_output=True, timeout=120)


def entry_args(rel):
    entries = golden_run.entries_of(rel)
    assert not isinstance(entries, str), entries
    return [[rel, "--kernel", e.kernel, "--sig", e.sig] for e in entries]


@pytest.mark.parametrize("name", KERNELS)
def test_ptx_as_standalone(name):
    for args in entry_args("kernels/" + name):
        got = console(args + ["--sim"])
        assert got.returncode == 0, got.stderr.decode()
        ptx = got.stdout.decode()
        assert re.search(r"^\.visible \.entry %s_\w+\(" % re.escape(args[2]), ptx, re.M), ptx[:400]
        assert "\n.target sm_90" in ptx
        ref = standalone(args + ["--sim"])
        assert ref.returncode == 0
        assert got.stdout == ref.stdout


def test_dumps_and_options_as_standalone(tmp_path):
    args = entry_args("kernels/matmul_shared.py")[0]
    extra = ["--arch", "sm_75", "--driver", "12040", "--dump", "ast,ir,opt", "--fastmath", "--noalias",
             "-o", str(tmp_path / "out.ptx")]
    got = console(args + extra)
    assert got.returncode == 0, got.stderr.decode()
    ptx = (tmp_path / "out.ptx").read_bytes()
    assert b"\n.target sm_75" in ptx and b".version 8.4" in ptx
    assert got.stdout == b""
    ref = standalone(args + extra[:-1] + [str(tmp_path / "ref.ptx")])
    assert (got.returncode, got.stderr) == (ref.returncode, ref.stderr)
    assert ptx == (tmp_path / "ref.ptx").read_bytes()


@pytest.mark.parametrize("name", ERRORS)
def test_user_error_as_golden(name):
    """A kernel that is refused: status 1, and stderr is the golden message."""
    args = entry_args("errors/" + name)[0]
    got = console(args)
    assert got.returncode == 1
    with open(os.path.join(GOLDEN, "errors", name[:-3] + ".err"), "rb") as f:
        assert got.stderr == f.read()
    assert got.stdout == b""


@pytest.mark.parametrize("args,status,text", [
    (["--help"], 0, b"usage: ptxjitc FILE.py --kernel NAME --sig SIGNATURE"),
    (["--version"], 0, b"ptxjitc " + ptxjit.__version__.encode()),
    (["--bogus", "kernels/conv1d.py"], 3, b"ptxjitc: unknown option --bogus\nTry 'ptxjitc --help'.\n"),
    (["--arch", "sm_1", "kernels/conv1d.py"], 3, b"ptxjitc: bad --arch 'sm_1' (expected sm_XY, like sm_90)"),
    (["kernels/no_such_file.py"], 3, b"ptxjitc: cannot read kernels/no_such_file.py: "),
    (["kernels/matmul_shared.py", "--kernel", "nothere", "--sig", "void()"], 3,
     b"has no top-level function named 'nothere'"),
    (["--sig"], 3, b"option --sig needs a value"),
])
def test_status_and_message(args, status, text):
    got = console(args)
    assert got.returncode == status
    assert text in (got.stdout if status == 0 else got.stderr)
    if os.path.exists(STANDALONE):
        ref = standalone(args)
        assert (got.returncode, got.stdout, got.stderr) == (ref.returncode, ref.stdout, ref.stderr)


def test_returns_status_in_process(capfd):
    """Called as a function, a usage error returns 3 and the caller lives on
    (the command once left by exit())."""
    from ptxjit import cli

    assert cli.main(["--arch", "sm_1", os.path.join(GOLDEN, "kernels", "conv1d.py")]) == 3
    assert cli.main(["--bogus"]) == 3
    err = capfd.readouterr().err
    assert "bad --arch 'sm_1'" in err and "unknown option --bogus" in err
    assert cli.main(["--help"]) == 0
    assert capfd.readouterr().out.startswith("usage: ptxjitc")
