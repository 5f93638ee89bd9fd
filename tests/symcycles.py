#!/usr/bin/env python3
"""tests/symcycles.py - the file-level call graph of one program, and its
cycles.  A file uses another when its object file leaves a symbol
undefined that the other's object defines (nm); a cycle is a set of
files that use each other, directly or through a chain (a strongly
connected component of more than one file).

usage: symcycles.py NAME OBJECT...   (.o, or libtool .lo: its PIC object)

Prints every use between files, then "NAME: N files, no cycles" (exit
0) or each cycle with the symbols along its edges (exit 1).
"""

import os
import re
import subprocess
import sys

# automake names an object target-prefix-source.o when the target has
# its own flags: libcommprof_la-cp_rt.lo is cp_rt.c
PREFIX = re.compile(r"^[A-Za-z0-9_]+-(?=[^-]+$)")


def real_object(path):
    """A libtool .lo stands for its PIC object in .libs/."""
    if not path.endswith(".lo"):
        return path
    with open(path) as f:
        for line in f:
            m = re.match(r"pic_object='(.*)'", line)
            if m and m.group(1) != "none":
                return os.path.join(os.path.dirname(path), m.group(1))
    sys.exit("symcycles: no PIC object in " + path)


def source_name(path):
    d, base = os.path.split(path)
    stem = PREFIX.sub("", os.path.splitext(base)[0])
    return os.path.join(d, stem + ".c")


# nm kinds of a symbol an object defines for other objects (lowercase
# ones are its own: static)
DEFINES = set("BCDGRSTVWiu")


def symbols(obj):
    """(defined, undefined) global symbol names of object obj."""
    out = subprocess.run(["nm", "-P", obj], check=True, text=True,
                         capture_output=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            undefined.add(name)
        elif kind in DEFINES:
            defined.add(name)
    return defined, undefined


def sccs(nodes, edges):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    name = sys.argv[1]
    files = {}
    for o in sys.argv[2:]:
        files[source_name(o)] = symbols(real_object(o))
    owner = {}
    for f, (defined, _) in files.items():
        for s in defined:
            owner.setdefault(s, f)
    uses = {}
    for f, (_, undefined) in files.items():
        for s in undefined:
            g = owner.get(s)
            if g and g != f:
                uses.setdefault(f, {}).setdefault(g, set()).add(s)
    for f in sorted(uses):
        for g in sorted(uses[f]):
            print("%s -> %s: %s" % (f, g, " ".join(sorted(uses[f][g]))))
    cycles = [c for c in sccs(files, uses) if len(c) > 1]
    if not cycles:
        print("%s: %d files, no cycles" % (name, len(files)))
        return 0
    for c in cycles:
        print("%s: cycle of %d files:" % (name, len(c)))
        for f in c:
            for g in sorted(uses.get(f, ())):
                if g in c:
                    print("  %s -> %s: %s" % (f, g,
                          " ".join(sorted(uses[f][g]))))
    return 1


if __name__ == "__main__":
    sys.exit(main())
