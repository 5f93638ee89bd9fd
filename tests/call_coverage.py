"""call_coverage.py - every call pmpi/mpi_calls.def wraps is made by a
test program that `make check` builds and runs.

usage: call_coverage.py SRCDIR

The programs are the C and Fortran files under tests/ that are either
sources of a program in TESTS, or named (by file name without suffix)
outside comments in a test script in TESTS; both lists come from the
Makefiles (tests/mkvars.py).  A call counts when such a file calls it
outside comments and strings.  Prints each wrapped call that no program
makes as "DEF:LINE: MPI_X is called by no test program" and exits 1 if
there is any.
"""
import importlib.util
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkvars import Vars  # noqa: E402

SUFFIXES = (".c", ".f90", ".F90", ".f")


def load_generator(top):
    path = os.path.join(top, "pmpi", "gen_wrappers.py")
    spec = importlib.util.spec_from_file_location("gen_wrappers", path)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def test_programs(top):
    """tests/ sources that make check builds and runs, sorted."""
    v = Vars(top)
    cands = {}
    for root, _, names in os.walk(os.path.join(top, "tests")):
        for n in names:
            if n.endswith(SUFFIXES):
                p = os.path.relpath(os.path.join(root, n), top)
                cands[p] = os.path.splitext(n)[0]
    used = set()
    for t in v.get("TESTS"):
        if not t.endswith(".sh"):
            used |= {s for s in v.sources(t) if s in cands}
            continue
        with open(os.path.join(top, t)) as f:
            text = "\n".join(ln for ln in f.read().splitlines()
                             if not ln.lstrip().startswith("#"))
        used |= {p for p, stem in cands.items()
                 if re.search(r"(?<![\w.])%s\b" % re.escape(stem), text)}
    return sorted(used)


def calls_in(path):
    """Lowercase names of the MPI_ (and MPIX_) functions path calls."""
    with open(path, errors="replace") as f:
        text = f.read()
    if path.endswith(".c"):
        text = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"', " ", text,
                      flags=re.S)
        pat = r"(?<![\w])(MPIX?_\w+)\s*\("
    else:
        text = re.sub(r"!.*|'[^'\n]*'|\"[^\"\n]*\"", " ", text)
        pat = r"(?i)\bcall\s+(mpix?_\w+)\s*\("
    return {m.lower() for m in re.findall(pat, text)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    top = sys.argv[1]
    gen = load_generator(top)
    def_path = os.path.join(top, "pmpi", "mpi_calls.def")
    wrapped = [e for e in gen.parse(def_path) if "nowrap" not in e.roles]
    progs = test_programs(top)
    made = set()
    for p in progs:
        made |= calls_in(os.path.join(top, p))
    missing = [e for e in wrapped if e.name.lower() not in made]
    for e in missing:
        print("pmpi/mpi_calls.def:%d: %s is called by no test program" %
              (e.lineno, e.name))
    if missing:
        sys.exit("call_coverage: %d of %d wrapped calls not covered by %s"
                 % (len(missing), len(wrapped), " ".join(progs)))
    print("call_coverage: all %d wrapped calls made by %d test programs: %s"
          % (len(wrapped), len(progs), " ".join(progs)))


if __name__ == "__main__":
    main()
