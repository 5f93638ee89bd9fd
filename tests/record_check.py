"""record_check.py - compare `commprof export --format csv` with the rows
a test program said it would make (its manifest).

usage: record_check.py CSV MANIFEST_DIR NRANKS SOURCE [CP_RECORD_H]

MANIFEST_DIR holds expect-<rank>.tsv, one expected row per line, in the
order the program made the calls, tab separated:

    op peer root tag comm_size bytes contiguous block_bytes stride_bytes
    nblocks line flags [label]

A field is "-" (the CSV field must be empty), "*" (anything), or values
separated by "/" (any of them).  peer and root are world ranks, -2 is
MPI_PROC_NULL.  line is the source line of the call in SOURCE; flags is a
comma separated list of CP_F_* names (lowercase, without CP_F_) that must
be set, or "-".  label (optional, "-" for none) names the communicator
of the row: the rows of one label, over all ranks, must have one `comm`
id in the CSV, and two labels two different ids.

Checks: for every rank and every op named in a manifest, the CSV has
exactly as many rows as the manifest, each expected row matches its own
CSV row (exact fields, callsite SOURCE:line, flags when the CSV has a
flags column), t_measured >= 0 everywhere, and t_start does not decrease
along the program order of the calls; the labels hold.  Exit status 0
when all hold.
"""
import csv
import os
import re
import sys

FIELDS = ["peer", "root", "tag", "comm_size", "bytes", "contiguous",
          "block_bytes", "stride_bytes", "nblocks"]
PROCNULL_NAMES = {"mpi_proc_null", "proc_null", "procnull"}


def flag_bits(header_path):
    """CP_F_* names (lowercase, no prefix) -> bit, from cp_row.h."""
    bits = {}
    if not header_path or not os.path.exists(header_path):
        return bits
    with open(header_path) as f:
        for m in re.finditer(r"#define\s+CP_F_(\w+)\s+(0x[0-9a-fA-F]+|\d+)",
                             f.read()):
            bits[m.group(1).lower()] = int(m.group(2), 0)
    return bits


def norm(v):
    """CSV value -> comparable text: "-" for empty, -2 for PROC_NULL."""
    v = (v or "").strip()
    if v == "":
        return "-"
    if v.lower() in PROCNULL_NAMES:
        return "-2"
    return v


def same(want, got):
    if want == "*":
        return True
    for w in want.split("/"):
        if w == got:
            return True
        try:
            if float(w) == float(got):
                return True
        except ValueError:
            pass
    return False


def csv_flags(v, bits):
    """CSV flags (a number or names) -> set of lowercase names."""
    v = (v or "").strip()
    if v == "":
        return set()
    try:
        n = int(v, 0)
        return {name for name, b in bits.items() if n & b}
    except ValueError:
        names = re.split(r"[^A-Za-z0-9_]+", v.lower())
        return {n[5:] if n.startswith("cp_f_") else n for n in names if n}


def site_line(callsite, source):
    m = re.search(r"([^/\s:]+):(\d+)\s*$", callsite or "")
    if not m or m.group(1) != source:
        return None
    return m.group(2)


def load_manifest(mdir, nranks):
    want = {}
    for r in range(nranks):
        rows = []
        with open(os.path.join(mdir, "expect-%d.tsv" % r)) as f:
            for n, line in enumerate(f):
                p = line.rstrip("\n").split("\t")
                if len(p) not in (12, 13):
                    sys.exit("manifest %d line %d: %d fields" % (r, n + 1,
                                                                 len(p)))
                rows.append({"op": p[0], **dict(zip(FIELDS, p[1:10])),
                             "line": p[10], "flags": p[11], "n": n + 1,
                             "label": p[12] if len(p) == 13 else "-"})
        want[r] = rows
    return want


def mismatch(w, g, source, bits, has_flags):
    """Why CSV row g is not expected row w ("" when it is)."""
    for k in FIELDS:
        if not same(w[k], norm(g.get(k))):
            return "%s %s != %s" % (k, norm(g.get(k)), w[k])
    line = site_line(g.get("callsite"), source)
    if line is None or not same(w["line"], line):
        return "callsite %s != %s:%s" % (g.get("callsite"), source,
                                         w["line"])
    if has_flags and w["flags"] != "-":
        have = csv_flags(g.get("flags"), bits)
        for f in w["flags"].split(","):
            if f not in have:
                return "flag %s missing in %s" % (f, g.get("flags"))
    return ""


def label_errors(labels, has_comm):
    """One comm id per label, a different one for each label."""
    if labels and not has_comm:
        return ["manifest has labels, CSV has no comm column"]
    errors, owner = [], {}
    for lab, ids in sorted(labels.items()):
        if len(ids) > 1:
            errors.append("label %s: comm ids %s" % (lab, "; ".join(
                "%s (%s)" % (c, ", ".join(w)) for c, w in sorted(
                    ids.items()))))
        for c in ids:
            if c in owner:
                errors.append("labels %s and %s share comm id %s" % (
                    owner[c], lab, c))
            owner[c] = lab
    return errors


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    path, mdir, nranks, source = sys.argv[1:5]
    bits = flag_bits(sys.argv[5] if len(sys.argv) > 5 else None)
    nranks = int(nranks)
    want = load_manifest(mdir, nranks)
    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        header = rd.fieldnames or []
        got = list(rd)
    need = ["rank", "op", "callsite", "t_start", "t_measured"] + FIELDS
    missing = [c for c in need if c not in header]
    if missing:
        sys.exit("CSV lacks columns %s (has %s)" % (missing, header))
    has_flags = "flags" in header
    if has_flags and not bits:
        sys.exit("CSV has flags but no CP_F_ names were given")
    errors = []
    for g in got:
        try:
            g["_t0"] = float(g["t_start"])
            g["_tm"] = float(g["t_measured"])
        except ValueError:
            errors.append("rank %s %s: times %r %r not numbers" % (
                g["rank"], g["op"], g["t_start"], g["t_measured"]))
            continue
        if g["_tm"] < 0:
            errors.append("rank %s %s: t_measured %s < 0" % (
                g["rank"], g["op"], g["t_measured"]))
    if errors:
        sys.exit("\n".join(errors))
    ops = {w["op"] for rows in want.values() for w in rows}
    matched, labels = 0, {}
    for r in range(nranks):
        mine = [g for g in got if g["rank"] == str(r)]
        for op in sorted(ops):
            nw = sum(1 for w in want[r] if w["op"] == op)
            ng = sum(1 for g in mine if g["op"] == op)
            if nw != ng:
                errors.append("rank %d: %d %s rows, want %d" % (r, ng, op,
                                                                nw))
        free = list(mine)
        last = None
        for w in want[r]:
            cand = [g for g in free if g["op"] == w["op"] and
                    not mismatch(w, g, source, bits, has_flags)]
            if not cand:
                near = [g for g in free if g["op"] == w["op"]]
                why = "; ".join(sorted({mismatch(w, g, source, bits,
                                                 has_flags)
                                        for g in near})[:3])
                errors.append("rank %d manifest line %d: no %s row %s"
                              " (unmatched rows of that op: %s)" % (
                                  r, w["n"], w["op"],
                                  "/".join(w[k] for k in FIELDS) +
                                  " line " + w["line"], why or "none"))
                continue
            g = min(cand, key=lambda c: c["_t0"])
            free.remove(g)
            matched += 1
            if w["label"] != "-":
                labels.setdefault(w["label"], {}).setdefault(
                    g.get("comm"), []).append("rank %d manifest line %d" %
                                              (r, w["n"]))
            if last is not None and g["_t0"] < last[0]:
                errors.append("rank %d: t_start %s of %s (manifest line "
                              "%d) before %s of the call made earlier" % (
                                  r, g["t_start"], w["op"], w["n"],
                                  last[1]))
            last = (g["_t0"], g["t_start"])
    errors += label_errors(labels, "comm" in header)
    if errors:
        print("\n".join(errors[:40]), file=sys.stderr)
        sys.exit("%d mismatches" % len(errors))
    print("record_check: %d rows matched over %d ranks%s" % (
        matched, nranks, "" if has_flags else " (no flags column)"))


if __name__ == "__main__":
    main()
