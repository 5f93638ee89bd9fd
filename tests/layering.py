"""layering.py - the module table "who includes what" of the style guide,
checked on the source tree.

usage: layering.py SRCDIR

Reads every .c and .h file of the project, follows its #include lines and
prints one line per violation, "FILE:LINE: what", then exits 1 if any:

  folders   a file includes only what MODULES lets its folder include
  libraries a file reaches (itself or through our headers) only the
            outside libraries MODULES lets its folder use; the files built
            into libcommprof.so never reach GSL
  stdio     nothing in pmpi/ includes stdio.h (the call path)
  sql       no SQL text outside db/
  cycles    no #include "..." cycle among our files, of any length

MODULES is the table; edit it, not the code, when the rules change.
Violations the tree still has on purpose are listed in KNOWN: they are
reported as known, and a KNOWN entry that no longer happens fails, so the
list only shrinks.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkvars import Vars  # noqa: E402

# folder: (what its files may include of ours, outside libraries they may
# use).  An entry of the first set is a folder, a file, a file and every
# header it pulls in ("FILE+"), or "FOLDER@lib": the files of FOLDER that
# are built into libcommprof.so (the db writer, the analysis/ evaluation).
# Every folder may include its own files and config.h.
MODULES = {
    "pmpi": ({"src/lib/cp_record.h+"}, {"mpi"}),
    # libunwind: the deeper callsites of COMMPROF_STACK (cp_stack.c)
    "src/lib": ({"src/common", "db@lib", "analysis@lib", "src/reduce",
                 "pmpi/cp_calls_gen.h"}, {"mpi", "libunwind"}),
    "src/cli": ({"src/common", "db", "analysis", "src/reduce"}, {"libdw"}),
    # the reduction of a run: libc, and MPI in its transport alone
    # (cp_red_mpi.c), which the CLI neither includes nor links
    "src/reduce": ({"src/common", "analysis@lib"}, {"mpi"}),
    "src/calib": ({"src/common", "db", "analysis"}, {"mpi"}),
    # commprof-mpi: the MPI form of the commprof command
    "src/mpicli": ({"src/common", "db", "analysis", "src/reduce"}, {"mpi"}),
    "src/common": (set(), set()),
    "db": ({"src/common"}, {"sqlite"}),
    "analysis": (set(), {"gsl"}),
}
# outside libraries: header name prefixes
LIBRARIES = {
    "mpi": ("mpi.h", "mpif.h", "mpi_"),
    "sqlite": ("sqlite3",),
    "gsl": ("gsl/",),
    "libdw": ("elfutils/", "dwarf.h", "libdw"),
    "libunwind": ("libunwind",),
}
LIBRARY = "libcommprof.la"	# its files never reach:
LIBRARY_NEVER = {"gsl"}
# folders that are read (as includers only tests/, bench/ and examples/
# are free)
TREE = ("pmpi", "src", "db", "analysis", "tests", "bench", "examples")
SQL = re.compile(r"\b(SELECT\b.*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|"
                 r"UPDATE\s+\w+\s+SET|DELETE\s+FROM|"
                 r"(CREATE|DROP)\s+(TEMP\s+)?(TABLE|INDEX|VIEW)|PRAGMA\s+\w|"
                 r"ATTACH\s+DATABASE)\b")

# (file, what it includes or reaches) -> who removes it
KNOWN = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def strip_comments(text):
    """C text with comments blanked, newlines kept (lines stay true)."""
    return re.sub(r"/\*.*?\*/|//[^\n]*",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
                  flags=re.S)


class Tree:
    def __init__(self, top):
        self.top = top
        self.files = {}		# path -> stripped text
        for d in TREE:
            for root, dirs, names in os.walk(os.path.join(top, d)):
                dirs[:] = [x for x in dirs if not x.startswith(".")]
                for n in names:
                    if n.endswith((".c", ".h")):
                        p = os.path.relpath(os.path.join(root, n), top)
                        with open(os.path.join(top, p), errors="replace") \
                                as f:
                            self.files[p] = strip_comments(f.read())
        self.ours = {}		# path -> [(line, included path)]
        self.outside = {}	# path -> [(line, header)]
        for p, text in self.files.items():
            self.ours[p], self.outside[p] = [], []
            for n, line in enumerate(text.splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                if m.group(1) == '"':
                    self.ours[p].append((n, self.resolve(p, m.group(2))))
                else:
                    self.outside[p].append((n, m.group(2)))

    def resolve(self, src, inc):
        """Path of #include "inc" in src: beside src, else from the top
        (generated headers need not exist in the source tree)."""
        near = os.path.normpath(os.path.join(os.path.dirname(src), inc))
        return near if near in self.files else os.path.normpath(inc)

    def closure(self, path):
        """Our headers path pulls in, directly or not."""
        seen, todo = set(), [path]
        while todo:
            for _, q in self.ours.get(todo.pop(), []):
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        return seen

    def reach(self, path):
        """{outside header: (first chain of our files, line)}."""
        out, seen, todo = {}, {path}, [(path, ())]
        while todo:
            p, chain = todo.pop(0)
            for n, h in self.outside.get(p, []):
                out.setdefault(h, (chain, "%s:%d" % (p, n)))
            for n, q in self.ours.get(p, []):
                if q not in seen:
                    seen.add(q)
                    todo.append((q, chain + ("%s:%d" % (p, n),)))
        return out


def module(path):
    best = None
    for m in MODULES:
        if path.startswith(m + "/") and (not best or len(m) > len(best)):
            best = m
    return best


def library_of(header):
    for lib, prefixes in LIBRARIES.items():
        if header.startswith(prefixes):
            return lib
    return None


def allowed(tree, lib_files, mod, target):
    if target == "config.h" or module(target) == mod:
        return True
    for a in MODULES[mod][0]:
        if a.endswith("+"):
            if target == a[:-1] or target in tree.closure(a[:-1]):
                return True
        elif a.endswith("@lib"):
            if target.startswith(a[:-4] + "/") and target in lib_files:
                return True
        elif target == a or target.startswith(a + "/"):
            return True
    return False


def check_folders(tree, lib_files, report):
    for p in sorted(tree.files):
        mod = module(p)
        if not mod:
            continue
        for n, q in tree.ours[p]:
            if not allowed(tree, lib_files, mod, q):
                report(p, n, q, "folders: %s may not include %s" % (mod, q))


def check_libraries(tree, lib_files, report):
    for p in sorted(tree.files):
        mod = module(p)
        if not mod:
            continue
        ok = set(MODULES[mod][1])
        if p in lib_files:
            ok -= LIBRARY_NEVER
        for h, (chain, where) in sorted(tree.reach(p).items()):
            lib = library_of(h)
            if not lib or lib in ok:
                continue
            line = int((chain[0] if chain else where).split(":")[1])
            via = " via " + " -> ".join(chain[1:] + (where,)) if chain \
                else ""
            what = "%s may not use %s (%s)%s" % (
                "libcommprof.so" if lib in MODULES[mod][1] else mod, lib,
                h, via)
            report(p, line, lib, "libraries: " + what)


def check_stdio(tree, report):
    for p in sorted(tree.files):
        if module(p) == "pmpi":
            for n, h in tree.outside[p]:
                if h == "stdio.h":
                    report(p, n, h, "stdio: pmpi/ is the call path")


def check_sql(tree, report):
    for p in sorted(tree.files):
        mod = module(p)
        if not mod or mod == "db":
            continue
        for n, line in enumerate(tree.files[p].splitlines(), 1):
            for s in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
                if SQL.search(s):
                    report(p, n, "sql", "sql: SQL text outside db/: \"%s\""
                           % s[:50])


def check_cycles(tree, report):
    """Depth-first search over #include "..." edges; each cycle found is
    printed once, from its smallest file."""
    state, stack, found = {}, [], set()

    def visit(p):
        state[p] = 1
        for n, q in tree.ours.get(p, []):
            stack.append((p, n))
            if state.get(q) == 1:
                i = [s[0] for s in stack].index(q)
                cyc = stack[i:]
                k = min(range(len(cyc)), key=lambda j: cyc[j][0])
                cyc = cyc[k:] + cyc[:k]
                key = tuple(c[0] for c in cyc)
                if key not in found:
                    found.add(key)
                    path = " -> ".join("%s:%d" % c for c in cyc)
                    report(cyc[0][0], cyc[0][1], key,
                           "cycles: %s -> %s" % (path, cyc[0][0]))
            elif q not in state:
                visit(q)
            stack.pop()
        state[p] = 2

    for p in sorted(tree.files):
        if p not in state:
            visit(p)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    top = sys.argv[1]
    tree = Tree(top)
    lib_files = set(Vars(top).sources(LIBRARY))
    if not lib_files:
        sys.exit("layering: no sources of %s in the Makefiles" % LIBRARY)
    bad, known, seen_known = [], [], set()

    def report(path, line, target, what):
        if (path, target) in KNOWN:
            seen_known.add((path, target))
            known.append("%s:%d: %s (known: %s)" % (
                path, line, what, KNOWN[(path, target)]))
        else:
            bad.append("%s:%d: %s" % (path, line, what))

    check_folders(tree, lib_files, report)
    check_libraries(tree, lib_files, report)
    check_stdio(tree, report)
    check_sql(tree, report)
    check_cycles(tree, report)
    for k in sorted(set(KNOWN) - seen_known):
        bad.append("%s: known violation of %s is gone: remove it from "
                   "KNOWN in tests/layering.py" % k)
    for b in bad + known:
        print(b)
    if bad:
        sys.exit("layering: %d violations" % len(bad))
    print("layering: %d files, %d includes of ours, no violation beyond "
          "the %d known" % (len(tree.files),
                            sum(len(v) for v in tree.ours.values()),
                            len(KNOWN)))


if __name__ == "__main__":
    main()
