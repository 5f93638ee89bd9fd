"""report_same.py - where two JSON reports of the same run differ, as
tests/test_finalize.sh and tests/test_mpi_report.sh compare a run reduced
in one place with the same run reduced in another.

Numbers compare within a relative 1e-9: a mean is a sum of doubles, and
summaries merged in another order (threads, MPI ranks, a tree) round its
last bits otherwise; everything else compares exactly.

    from report_same import differences
    differences(a, b) -> ["path: a != b", ...], empty when the same
"""

REL = 1e-9


def differences(a, b, path="$"):
    """The places where a and b differ (see above)."""
    num = (int, float)
    if isinstance(a, num) and isinstance(b, num) and \
            not isinstance(a, bool) and not isinstance(b, bool):
        if a == b or abs(a - b) <= REL * max(abs(a), abs(b)):
            return []
        return ["%s: %r != %r" % (path, a, b)]
    if isinstance(a, dict) and isinstance(b, dict):
        out = ["%s.%s: only in one" % (path, k)
               for k in sorted(set(a) ^ set(b))]
        for k in sorted(set(a) & set(b)):
            out += differences(a[k], b[k], "%s.%s" % (path, k))
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return ["%s: %d != %d items" % (path, len(a), len(b))]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, "%s[%d]" % (path, i))
        return out
    return [] if a == b else ["%s: %r != %r" % (path, a, b)]
