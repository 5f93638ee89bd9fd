"""mkvars.py - the variables of Makefile.am and the fragments it includes,
as make would expand them, for the tests that check the tree against the
build: which files go into libcommprof.so (tests/layering.py), which
programs `make check` runs (tests/call_coverage.py).

Reads assignments (VAR = ..., VAR += ..., backslash continuations) and
`include $(srcdir)/...` lines; recipe lines and conditionals are not
interpreted (both branches of an `if` count).  Cannot fail on a readable
tree; an unreadable file raises OSError.
"""
import os
import re

ASSIGN = re.compile(r"^([A-Za-z_][\w.]*)\s*(\+?=)\s*(.*)$")
REF = re.compile(r"\$[({]([A-Za-z_][\w.]*)[)}]")


def _load(top, rel, raw):
    with open(os.path.join(top, rel)) as f:
        text = f.read().replace("\\\n", " ")
    for line in text.splitlines():
        if line.startswith("\t") or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^include\s+\$\(srcdir\)/(\S+)", line)
        if m:
            _load(top, m.group(1), raw)
            continue
        m = ASSIGN.match(line)
        if m:
            name, op, val = m.groups()
            raw[name] = (raw.get(name, "") + " " + val) if op == "+=" \
                else val


class Vars:
    """make's view of the variables: get("TESTS") is the expanded list."""

    def __init__(self, top):
        self.raw = {}
        _load(top, "Makefile.am", self.raw)

    def get(self, name, depth=0):
        """Words of $(name), references expanded; [] when unset."""
        return self.expand(self.raw.get(name, ""), depth).split()

    def expand(self, text, depth=0):
        if depth > 20:
            return text
        return REF.sub(lambda m: " ".join(self.get(m.group(1), depth + 1)),
                       text)

    def sources(self, target):
        """Files a program or library is built from, with the sources of
        the convenience libraries it links (e.g. libcommprof.la)."""
        canon = re.sub(r"[^A-Za-z0-9_]", "_", target)
        files = self.get(canon + "_SOURCES") + \
            self.get("nodist_" + canon + "_SOURCES")
        for lib in self.get(canon + "_LIBADD") + self.get(canon + "_LDADD"):
            if lib.endswith(".la"):
                files += self.sources(lib)
        return files
