#!/usr/bin/env python3
"""gen_wrappers.py - write commprof's MPI wrappers from pmpi/mpi_calls.def.

usage: gen_wrappers.py DEF {calls|c|fortran|protos} OUT

  calls    cp_calls_gen.h: CP_CALL_* ids and the name table
  c        cp_wrappers_gen.c: one C wrapper per wrapped call
  fortran  cp_fortran_gen.c: one C body per call behind every Fortran name
           (mpi_x, mpi_x_, mpi_x__, MPI_X for mpif.h / use mpi, and
           mpi_x_f08_ for use mpi_f08; MPICH's mpi_f08 calls mpi_x_f08ts_
           where x has a choice buffer, mpi_x_f08ts_large_ for MPI_X_c)
  protos   the prototypes, one per line, normalised (for the header test)

Output is deterministic: no time, host or user.  A table it cannot read
as written (an unknown role, a role without the arguments or the other
roles it needs, text that is not a role) stops it with "DEF:LINE: why",
exit status 1 and no output: the build fails rather than a wrapper
silently recording nothing.  A wrapper claims a record in its thread's
ring (src/lib/cp_ring.h) before the real call, writes the arguments into
it raw and times the call; what a row means is decided in src/lib/, by
the flusher.
"""
import re
import sys


# The role grammar of pmpi/mpi_calls.def (its header documents each role).
# Argument kinds: P a parameter of the prototype, N a parameter or a
# number, or the name of a set of words below.  "needs" lists what else
# the entry must have: each item is one role or alternatives "a|b".
P, N = "parameter", "parameter or number"
ROLES = {
    # role          arguments      needs
    "p2p":        ((),             ("send|recv", "comm|message")),
    "coll":       ((),             ("comm", "block")),
    "probe":      ((),             ("src", "rtag", "comm", "status")),
    "send":       ((P, P),         ("p2p", "peer", "tag")),
    "recv":       ((P, P),         ("p2p",)),
    "peer":       ((P,),           ("send",)),
    "src":        ((P,),           ("recv|probe",)),
    "tag":        ((P,),           ("send",)),
    "rtag":       ((P,),           ("recv|probe",)),
    "comm":       ((P,),           ("p2p|coll|probe",)),
    "status":     ((P,),           ("recv|probe|complete|io",)),
    "req":        ((P,),           ("p2p|coll",)),
    "persist":    ((),             ("p2p|coll", "req")),
    "message":    ((P,),           ("recv|probe",)),
    "flag":       ((P,),           ("probe|complete",)),
    "root":       ((P,),           ("coll",)),
    "block":      (("block",),     ("coll",)),
    "complete":   (("complete",),  ("reqs", "status|statuses")),
    "start":      ((),             ("reqs",)),
    "reqs":       ((P, N),         ("complete|start",)),
    "index":      ((P,),           ("complete",)),
    "outcount":   ((P, P),         ("complete",)),
    "statuses":   ((P,),           ("complete",)),
    "reqfree":    ((P,),           ()),
    "cancel":     ((P,),           ()),
    "typecommit": ((P,),           ()),
    "typefree":   ((P,),           ()),
    "commnew":    ((P,),           ()),
    "commfree":   ((P,),           ()),
    "opfree":     ((P,),           ()),
    "rma":        ((),             ("win",)),
    "io":         ((),             ("file",)),
    "win":        ((P,),           ("rma",)),
    "file":       ((P,),           ("io",)),
    "data":       ((N, P),         ("rma|io",)),
    "target":     ((P,),           ("rma",)),
    "winnew":     ((P,),           ()),
    "winfree":    ((P,),           ()),
    "if":         (("macro",),     ()),
    "as":         (("call",),      ("if", "p2p|coll|rma|io|winnew")),
    "nowrap":     ((),             ()),
}
# what kind of call an entry is: exactly one of these per entry
CLASS_ROLES = ("p2p", "coll", "probe", "complete", "start", "reqfree",
               "cancel", "typecommit", "typefree", "commnew", "commfree",
               "opfree", "rma", "io", "winnew", "winfree", "nowrap")
# @block(kind, ...): cp_blk_<kind> of src/lib/cp_record.h and how many
# arguments it takes after the block
BLOCK_KINDS = {"none": 0, "bytes": 2, "send": 5, "reduce": 4, "scatter": 7,
               "scatterv": 7, "sendv": 6, "allgatherv": 6, "alltoallv": 6,
               "alltoallw": 6, "redscat": 5, "nbrv": 3, "nbrw": 3}
# @complete(kind): CP_DONE_<KIND> of src/lib/cp_record.h
COMPLETE_KINDS = ("one", "all", "any", "some", "test", "testall", "testany",
                  "testsome")


class DefError(Exception):
    """A line of the table that cannot be turned into a wrapper."""


class Param:
    def __init__(self, text):
        text = " ".join(text.split())
        if text == "...":       # MPI_Pcontrol: hand-written (@nowrap)
            self.ctype = self.name = self.text = text
            self.array = False
            return
        m = re.match(r"^(.*?)\s*\b([A-Za-z_]\w*)\s*(\[\])?$", text)
        if not m:
            raise DefError("cannot parse parameter %r" % text)
        self.ctype = m.group(1).replace(" *", "*").replace("* ", "*")
        self.name = m.group(2)
        self.array = bool(m.group(3))
        self.text = text

    def decl(self):
        return self.text


class Entry:
    def __init__(self, proto, roles):
        m = re.match(r"^int\s+(MPIX?_\w+)\s*\((.*)\)\s*$", proto)
        if not m:
            raise DefError("bad prototype %r" % proto)
        self.name = m.group(1)
        args = m.group(2).strip()
        self.params = [] if args == "void" else \
            [Param(a) for a in args.split(",")]
        self.roles = parse_roles(roles)
        check_roles(self)
        self.proto = "int %s(%s)" % (self.name,
                                     ", ".join(p.text for p in self.params)
                                     or "void")

    def names(self):
        return [p.name for p in self.params]

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


def parse_roles(text):
    """"@a @b(x, y)" -> {"a": [], "b": ["x", "y"]}; anything else between
    the roles is an error."""
    roles, pos = {}, 0
    for r in re.finditer(r"@(\w+)(?:\(([^()]*)\))?", text):
        junk = text[pos:r.start()].strip()
        if junk:
            raise DefError("not a role: %r" % junk)
        pos = r.end()
        name = r.group(1)
        if name in roles:
            raise DefError("role @%s twice" % name)
        args = r.group(2)
        vals = [] if args is None else [v.strip() for v in args.split(",")]
        if args is not None and not all(vals):
            raise DefError("@%s(%s): empty argument" % (name, args))
        roles[name] = vals
    junk = text[pos:].strip()
    if junk:
        raise DefError("not a role: %r" % junk)
    return roles


def check_args(e, name, vals):
    kinds, _ = ROLES[name]
    if kinds == ("block",):
        if not vals or vals[0] not in BLOCK_KINDS:
            raise DefError("@block kind %r is none of %s" % (
                vals[0] if vals else "", ", ".join(sorted(BLOCK_KINDS))))
        kinds = (N,) * BLOCK_KINDS[vals[0]]
        vals = vals[1:]
    elif kinds == ("macro",):
        if len(vals) != 1 or not re.match(r"^HAVE_[A-Z0-9_]+$", vals[0]):
            raise DefError("@if(%s): want one HAVE_* macro of config.h" %
                           ", ".join(vals))
        return
    elif kinds == ("call",):
        if len(vals) != 1 or not re.match(r"^MPIX?_\w+$", vals[0]):
            raise DefError("@as(%s): want the name of one wrapped call" %
                           ", ".join(vals))
        return
    elif kinds == ("complete",):
        if len(vals) != 1 or vals[0] not in COMPLETE_KINDS:
            raise DefError("@complete(%s): want one of %s" % (
                ", ".join(vals), ", ".join(COMPLETE_KINDS)))
        return
    if len(vals) != len(kinds):
        raise DefError("@%s takes %d argument%s, got %d" % (
            name, len(kinds), "" if len(kinds) == 1 else "s", len(vals)))
    for v, k in zip(vals, kinds):
        if v in e.names() or (k == N and v.isdigit()):
            continue
        raise DefError("@%s names %r, not a parameter of %s" % (
            name, v, e.name))


def check_roles(e):
    """Every role known, with the arguments it takes, and with the roles
    it needs; exactly one role says what kind of call it is."""
    for name, vals in e.roles.items():
        if name not in ROLES:
            raise DefError("unknown role @%s (known: %s)" % (
                name, " ".join("@" + k for k in sorted(ROLES))))
        check_args(e, name, vals)
    for name in e.roles:
        for need in ROLES[name][1]:
            alts = need.split("|")
            if not any(a in e.roles for a in alts):
                raise DefError("@%s needs %s" % (
                    name, " or ".join("@" + a for a in alts)))
    cls = [r for r in CLASS_ROLES if r in e.roles]
    if len(cls) != 1:
        raise DefError("%s: want exactly one of %s, got %s" % (
            e.name, " ".join("@" + r for r in CLASS_ROLES),
            " ".join("@" + r for r in cls) or "none"))


def parse(path):
    """The entries of the table; stops at the first bad line with
    "PATH:LINE: why" (exit status 1)."""
    entries, cur = [], None

    def close():
        if cur:
            try:
                entries.append(Entry(cur[0], cur[1]))
            except DefError as err:
                raise SystemExit("%s:%d: %s" % (path, cur[2], err))
            entries[-1].lineno = cur[2]

    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[0] in " \t":
                if cur is None:
                    raise SystemExit("%s:%d: continuation line before "
                                     "any prototype" % (path, n))
                cur[1] += " " + line.strip()
                continue
            close()
            proto, at, roles = line.strip().partition("@")
            cur = [proto.strip(), at + roles, n]
    close()
    if not entries:
        raise SystemExit("%s: no prototypes" % path)
    check_as(path, entries)
    return entries


def check_as(path, entries):
    """@as(MPI_X): MPI_X is an entry of the table, not one with @as, of
    the same class, with the same roles but @if and @as."""
    byname = {e.name: e for e in entries}
    for e in entries:
        if "as" not in e.roles:
            continue
        t = byname.get(e.roles["as"][0])
        why = None
        if t is None or "as" in t.roles:
            why = "@as(%s): not a call of the table without @as" % \
                e.roles["as"][0]
        elif {k for k in e.roles if k not in ("if", "as")} != \
                {k for k in t.roles if k not in ("if", "as")}:
            why = "@as(%s): the roles differ from %s's" % (t.name, t.name)
        if why:
            raise SystemExit("%s:%d: %s" % (path, e.lineno, why))


HEADER = "/* Generated by pmpi/gen_wrappers.py from pmpi/mpi_calls.def: " \
         "do not edit. */\n"
# Open MPI declares its MPIX_ calls in mpi-ext.h
INCLUDES = "#include \"config.h\"\n#include \"pmpi/cp_calls_gen.h\"\n" \
    "#include \"src/lib/cp_record.h\"\n#if HAVE_MPI_EXT_H\n" \
    "#include <mpi-ext.h>\n#endif\n\n"


def gen_calls(entries):
    # an @as entry is recorded as the call it names: no id of its own
    entries = [e for e in entries if "as" not in e.roles]
    out = [HEADER, "#ifndef CP_CALLS_GEN_H\n#define CP_CALLS_GEN_H\n\n"]
    out.append("enum cp_call_id {\n\tCP_CALL_NONE = 0,\n")
    for e in entries:
        out.append("\tCP_CALL_%s,\n" % e.name)
    out.append("\tCP_CALL_COUNT\n};\n\n")
    out.append("#define CP_CALL_NAMES { \"\", \\\n")
    for e in entries:
        out.append("\t\"%s\", \\\n" % e.name)
    out.append("}\n\n")
    out.append("/* kind of each call, as the ops table of db/schema.sql */\n")
    out.append("#define CP_CALL_KINDS { \"other\", \\\n")
    for e in entries:
        out.append("\t\"%s\", \\\n" % kind(e))
    out.append("}\n\n")
    out.append("/* class of each call, as the ops table of db/schema.sql */\n")
    out.append("#define CP_CALL_CLASSES { \"other\", \\\n")
    for e in entries:
        out.append("\t\"%s\", \\\n" % klass(e))
    out.append("}\n\n#endif\n")
    return "".join(out)


def kind(e):
    r = e.roles
    if "persist" in r:
        return "persistent"
    if "req" in r:
        return "nonblocking"
    if "complete" in r:
        return "completion"
    if "probe" in r:
        return "probe"
    if "p2p" in r or "coll" in r:
        return "blocking"
    return "other"


def klass(e):
    """What a row of the call is: a message half, a collective operation
    or neither (the matching after the run pairs only the first two); a
    one-sided (rma) or file (io) call is a class of its own, never
    predicted or matched."""
    r = e.roles
    if "probe" in r:
        return "probe"
    if "p2p" in r:
        return "p2p"
    if "coll" in r:
        return "coll"
    if "complete" in r:
        return "completion"
    if "rma" in r:
        return "rma"
    if "io" in r:
        return "io"
    return "other"


# ---------------------------------------------------------------- C side
class C:
    """Expressions for the C bindings: arguments are C values."""
    fortran = False

    @staticmethod
    def val(e, name):
        return name


    @staticmethod
    def comm(e, name):
        return name

    @staticmethod
    def dtype(e, name):
        return name

    @staticmethod
    def op(e, name):
        return name

    @staticmethod
    def buf(e, name):
        return name

    @staticmethod
    def ints(e, name):
        return name

    @staticmethod
    def dtypes(e, name, comm):
        return name

    @staticmethod
    def req(e, name):
        return "*" + name

    @staticmethod
    def msg(e, name):
        return "*" + name

    @staticmethod
    def newcomm(e, name):
        return "*" + name

    @staticmethod
    def newtype(e, name):
        return "*" + name

    @staticmethod
    def newop(e, name):
        return "*" + name

    @staticmethod
    def win(e, name):
        return name

    @staticmethod
    def newwin(e, name):
        return "*" + name

    @staticmethod
    def file(e, name):
        return name


class F:
    """Expressions for the Fortran bindings: every argument is a pointer
    to a Fortran INTEGER (or a buffer, passed through untouched)."""
    fortran = True

    @staticmethod
    def val(e, name):
        if e.param(name).ctype == "MPI_Count":
            return "*" + name   # INTEGER(KIND=MPI_COUNT_KIND)
        return "(int)*" + name


    @staticmethod
    def comm(e, name):
        return "PMPI_Comm_f2c(*%s)" % name

    @staticmethod
    def dtype(e, name):
        return "PMPI_Type_f2c(*%s)" % name

    @staticmethod
    def op(e, name):
        return "PMPI_Op_f2c(*%s)" % name

    @staticmethod
    def buf(e, name):
        return "cp_f_buf(%s)" % name

    @staticmethod
    def ints(e, name):
        if e.param(name).ctype == "const MPI_Count":
            return "(const MPI_Count *)" + name
        return "(const int *)" + name

    @staticmethod
    def dtypes(e, name, comm):
        return "cp_f_types(%s, %s)" % (name, comm)

    @staticmethod
    def req(e, name):
        return "PMPI_Request_f2c(*%s)" % name

    @staticmethod
    def msg(e, name):
        return "PMPI_Message_f2c(*%s)" % name

    @staticmethod
    def newcomm(e, name):
        return "PMPI_Comm_f2c(*%s)" % name

    @staticmethod
    def newtype(e, name):
        return "PMPI_Type_f2c(*%s)" % name

    @staticmethod
    def newop(e, name):
        return "PMPI_Op_f2c(*%s)" % name

    @staticmethod
    def win(e, name):
        return "PMPI_Win_f2c(*%s)" % name

    @staticmethod
    def newwin(e, name):
        return "PMPI_Win_f2c(*%s)" % name

    @staticmethod
    def file(e, name):
        return "PMPI_File_f2c(*%s)" % name


def block_arg(e, L, name, comm):
    """A @block argument in the binding's terms."""
    if name.isdigit():
        return name
    p = e.param(name)
    t = p.ctype
    if t in ("const void*", "void*"):
        return L.buf(e, name)
    if t == "MPI_Datatype":
        return L.dtype(e, name)
    if t == "MPI_Comm":
        return L.comm(e, name)
    if t == "MPI_Op":
        return L.op(e, name)
    if t == "const MPI_Datatype" and p.array:
        return L.dtypes(e, name, comm)
    if t in ("const int", "const MPI_Count") and p.array:
        return "cp_counts_of(%s)" % L.ints(e, name)
    if t in ("int", "MPI_Count"):
        return L.val(e, name)
    raise SystemExit("%s: no block argument rule for %s" % (e.name, p.text))


def w0(e, L, kind, flags=None):
    """The first word of a record of e: CP_W0(site, call, kind, flags)."""
    fl = ["CP_RF_FORTRAN"] if L.fortran else []
    if "as" in e.roles and ("p2p" in e.roles or "coll" in e.roles):
        fl.append("CP_RF_LARGE")    # (an rma or io record: u.o.large)
    if flags:
        fl.append(flags)
    return "CP_W0(site, CP_CALL_%s, %s, %s)" % (call_id(e), kind,
                                                " | ".join(fl) or "0")


def call_id(e):
    """The CP_CALL_ id e's rows carry: an MPI-4 large-count binding
    (@as) is recorded as the call it names."""
    return e.roles["as"][0] if "as" in e.roles else e.name


def put_count(e, L, dst, cnt):
    """dst.count (and, for a large-count binding, dst.count_hi: the
    flusher reads it only then) from cnt, a parameter or a number."""
    v = cnt if cnt.isdigit() else L.val(e, cnt)
    if "as" not in e.roles:
        return ["\t%s.count = %s;" % (dst, v)]
    return ["\t%s.count = (int32_t)%s;" % (dst, v),
            "\t%s.count_hi = (int32_t)((MPI_Count)%s >> 32);" % (dst, v)]


class Body:
    """The statements of one wrapper: decl (declarations), pre (before
    the real call), post (after it).  slot: the call's record s is
    claimed in pre and takes the two tick reads (else locals t0, t1)."""

    def __init__(self):
        self.decl, self.pre, self.post = [], [], []
        self.slot = False
        self.commit = None      # (slots, done, published when) of s


def status_in(L, st, field, b):
    """Substitute the record's status field for an ignored status."""
    if L.fortran:
        b.decl.append("\tMPI_Fint fst[CP_F_STATUS_SIZE];")
        b.pre.append("\tif (cp_f_status_ignored(%s))" % st)
        b.pre.append("\t\t%s = fst;" % st)
        b.post.append("\tPMPI_Status_f2c(%s, &%s);" % (st, field))
    else:
        b.pre.append("\tif (%s == MPI_STATUS_IGNORE)" % st)
        b.pre.append("\t\t%s = &%s;" % (st, field))
        b.post.append("\tif (%s != &%s)" % (st, field))
        b.post.append("\t\t%s = *%s;" % (field, st))


def msg_comm(e, L, b):
    """Mrecv/Imrecv: the communicator the probe noted for the message."""
    b.decl.append("\tMPI_Comm mcomm;")
    b.pre.append("\tmcomm = cp_msg_comm(%s);" % L.msg(e, e.roles["message"][0]))
    return "mcomm"


def gen_p2p(e, L, b):
    r = e.roles
    req = r.get("req", [None])[0]
    persist = "persist" in r
    comm = L.comm(e, r["comm"][0]) if "comm" in r else msg_comm(e, L, b)
    both = "send" in r and "recv" in r
    b.slot = True
    b.pre.append("\ts = cp_claim(r, %d);" % (2 if both else 1))
    k = 0
    if "send" in r:
        cnt, ty = r["send"]
        kind = "CP_RK_PSEND" if persist else \
            "CP_RK_ISEND" if req else "CP_RK_SEND"
        b.pre.append("\ts[0].w0 = %s;" % w0(e, L, kind))
        b.pre.append("\ts[0].u.p.comm = %s;" % comm)
        b.pre.append("\ts[0].u.p.type = %s;" % L.dtype(e, ty))
        b.pre += put_count(e, L, "s[0].u.p", cnt)
        b.pre.append("\ts[0].u.p.peer = %s;" % L.val(e, r["peer"][0]))
        b.pre.append("\ts[0].u.p.tag = %s;" % L.val(e, r["tag"][0]))
        k = 1
    if "recv" in r:
        cnt, ty = r["recv"]
        src = L.val(e, r["src"][0]) if "src" in r else "MPI_ANY_SOURCE"
        tag = L.val(e, r["rtag"][0]) if "rtag" in r else "MPI_ANY_TAG"
        x = "s[%d]" % k
        if req:
            kind = "CP_RK_PRECV" if persist else "CP_RK_IRECV"
            # an Isendrecv's receive: a half, completed by the request
            b.pre.append("\t%s.w0 = %s;" % (x, w0(e, L, kind, "CP_RF_HALF"
                                                  if both else None)))
            b.pre.append("\t%s.u.p.comm = %s;" % (x, comm))
            b.pre.append("\t%s.u.p.type = %s;" % (x, L.dtype(e, ty)))
            b.pre += put_count(e, L, x + ".u.p", cnt)
            b.pre.append("\t%s.u.p.peer = %s;" % (x, src))
            b.pre.append("\t%s.u.p.tag = %s;" % (x, tag))
        else:
            fl = "(%s == MPI_ANY_SOURCE ? CP_RF_ANYSRC : 0) | " \
                 "(%s == MPI_ANY_TAG ? CP_RF_ANYTAG : 0)" % (src, tag)
            if both:
                fl = "CP_RF_HALF | " + fl
            b.pre.append("\t%s.w0 = %s;" % (x, w0(e, L, "CP_RK_RECV", fl)))
            b.pre.append("\t%s.u.r.comm = %s;" % (x, comm))
            b.pre.append("\t%s.u.r.type = %s;" % (x, L.dtype(e, ty)))
            status_in(L, r["status"][0], x + ".u.r.st", b)
    if both:
        b.post.append("\ts[1].t0 = s[0].t0;")
        b.post.append("\ts[1].t1 = s[0].t1;")
    if req and both:    # the request completes both rows
        b.post.append("\tif (rc == MPI_SUCCESS)")
        b.post.append("\t\ts[0].u.p.req = s[1].u.p.req = %s;" %
                      L.req(e, req))
    elif req:
        b.post.append("\tif (rc == MPI_SUCCESS)")
        b.post.append("\t\ts[0].u.p.req = %s;" % L.req(e, req))
    b.commit = (2 if both else 1, "false", "rc == MPI_SUCCESS")


def gen_probe(e, L, b):
    r = e.roles
    b.slot = True
    b.pre.append("\ts = cp_claim(r, 1);")
    b.pre.append("\ts->w0 = %s;" % w0(e, L, "CP_RK_PROBE"))
    b.pre.append("\ts->u.pr.comm = %s;" % L.comm(e, r["comm"][0]))
    b.pre.append("\ts->u.pr.src = %s;" % L.val(e, r["src"][0]))
    b.pre.append("\ts->u.pr.tag = %s;" % L.val(e, r["rtag"][0]))
    status_in(L, r["status"][0], "s->u.pr.st", b)
    found = "(int)*%s" % r["flag"][0] if "flag" in r else "1"
    b.post.append("\tif (rc == MPI_SUCCESS && %s) {" % found)
    b.post.append("\t\ts->w0 |= CP_W0(0, 0, 0, CP_RF_DONE);")
    if "message" in r:
        b.post.append("\t\tcp_msg_note(%s, s->u.pr.comm);" %
                      L.msg(e, r["message"][0]))
    b.post.append("\t}")
    b.commit = (1, "false", "rc == MPI_SUCCESS")


def gen_coll(e, L, b):
    r = e.roles
    req = r.get("req", [None])[0]
    comm = L.comm(e, r["comm"][0])
    blk = r["block"]
    b.slot = True
    b.pre.append("\ts = cp_claim(r, 1);")
    b.pre.append("\ts->w0 = %s;" % w0(e, L, "CP_RK_ICOLL" if req
                                      else "CP_RK_COLL",
                                      "CP_RF_PCOLL" if "persist" in r
                                      else None))
    b.pre.append("\ts->u.c.comm = %s;" % comm)
    args = ", ".join(["&s->u.c.b"] + [block_arg(e, L, a, comm)
                                      for a in blk[1:]])
    b.pre.append("\tcp_blk_%s(%s);" % (blk[0], args))
    b.pre.append("\ts->u.c.b.root = %s;" % (L.val(e, r["root"][0])
                                            if "root" in r
                                            else "CP_PEER_NONE"))
    if req:
        b.post.append("\tif (rc == MPI_SUCCESS)")
        b.post.append("\t\ts->u.c.req = %s;" % L.req(e, req))
    b.commit = (1, "false", "rc == MPI_SUCCESS")


def xfer_status(L, st, b):
    """A file read's status: substituted when ignored, its byte count
    kept in the record (u.o has no room for the whole status)."""
    b.decl.append("\tMPI_Status xst;")
    if L.fortran:
        b.decl.append("\tMPI_Fint fst[CP_F_STATUS_SIZE];")
        b.pre.append("\tif (cp_f_status_ignored(%s))" % st)
        b.pre.append("\t\t%s = fst;" % st)
        b.post.append("\tif (rc == MPI_SUCCESS &&")
        b.post.append("\t    PMPI_Status_f2c(%s, &xst) == MPI_SUCCESS &&"
                      % st)
    else:
        b.pre.append("\tif (%s == MPI_STATUS_IGNORE)" % st)
        b.pre.append("\t\t%s = &xst;" % st)
        b.post.append("\tif (rc == MPI_SUCCESS &&")
        b.post.append("\t    cp_status_bytes(%s, &s->u.o.st_bytes))" % st)
        b.post.append("\t\ts->w0 |= CP_W0(0, 0, 0, CP_RF_XSTATUS);")
        return
    b.post.append("\t    cp_status_bytes(&xst, &s->u.o.st_bytes))")
    b.post.append("\t\ts->w0 |= CP_W0(0, 0, 0, CP_RF_XSTATUS);")


def gen_xfer(e, L, b):
    """A one-sided (@rma) or file (@io) call: its handle, the elements
    of its origin buffer, the target rank; a read's bytes from status."""
    r = e.roles
    fl = []
    if "rma" in r:
        fl.append("CP_RF_XWIN")
        obj = L.win(e, r["win"][0])
    else:
        obj = L.file(e, r["file"][0])
    if "target" in r:
        fl.append("CP_RF_XTARGET")
    b.slot = True
    b.pre.append("\ts = cp_claim(r, 1);")
    b.pre.append("\ts->w0 = %s;" % w0(e, L, "CP_RK_XFER", " | ".join(fl)))
    b.pre.append("\ts->u.o.obj = (uintptr_t)%s;" % obj)
    if "data" in r:
        cnt, ty = r["data"]
        b.pre.append("\ts->u.o.type = %s;" % L.dtype(e, ty))
        b.pre += put_count(e, L, "s->u.o", cnt)
    else:
        b.pre.append("\ts->u.o.type = MPI_DATATYPE_NULL;")
        b.pre.append("\ts->u.o.count = 0;")
    # no flag bit is left in a one-sided or file record's first word
    b.pre.append("\ts->u.o.large = %d;" % ("as" in r))
    b.pre.append("\ts->u.o.target = %s;" % (L.val(e, r["target"][0])
                                            if "target" in r else "0"))
    b.pre.append("\ts->u.o.st_bytes = 0;")
    if "status" in r:
        xfer_status(L, r["status"][0], b)
    b.commit = (1, "false", "rc == MPI_SUCCESS")


def gen_wait1(e, L, b):
    """MPI_Wait and MPI_Test (C): the request and its status in place."""
    r = e.roles
    req = r["reqs"][0]
    st = r["status"][0]
    b.slot = True
    b.pre.append("\ts = cp_claim(r, 1);")
    b.pre.append("\ts->w0 = %s;" % w0(e, L, "CP_RK_DONE", "CP_RF_ITEM"))
    b.pre.append("\ts->u.d.req = *%s;" % req)
    b.pre.append("\ts->u.d.n = 0;")
    status_in(L, st, "s->u.d.st", b)
    done = "rc != MPI_SUCCESS"
    if "flag" in r:
        done += " || !*%s" % r["flag"][0]
    b.post.append("\tif (%s)" % done)
    b.post.append("\t\ts->u.d.req = MPI_REQUEST_NULL;")
    b.commit = (1, "true", "true")


def gen_complete(e, L, b):
    r = e.roles
    kind = r["complete"][0]
    if not L.fortran and kind in ("one", "test"):
        gen_wait1(e, L, b)
        return
    reqs, n = r["reqs"]
    nexpr = "1" if n == "1" else L.val(e, n)
    idx = r.get("index", ["NULL"])[0]
    flag = r.get("flag", ["NULL"])[0]
    outc, indices = r.get("outcount", ["NULL", "NULL"])
    if "status" in r:
        st, many = r["status"][0], False
    else:
        st, many = r["statuses"][0], True
    f = "_f" if L.fortran else ""
    b.decl.append("\tstruct cp_wait w = { .call = CP_CALL_%s, .flags = %s };"
                  % (e.name, "CP_RF_FORTRAN" if L.fortran else "0"))
    b.pre.append("\tcp_wait_pre%s(&w, %s, %s, &%s, %d);" %
                 (f, reqs, nexpr, st, int(many)))
    b.post.append("\tif (rc != MPI_SUCCESS)")
    b.post.append("\t\tw.n = 0;\t/* what completed is unknown */")
    b.post.append("\tcp_wait_post%s(r, &w, CP_DONE_%s, %s, %s, %s, %s, %s, "
                  "t0, t1, site);" %
                  (f, kind.upper(), idx, flag, outc, indices, st))


def gen_body(e, L):
    """The Body of one wrapper."""
    r = e.roles
    b = Body()
    fl = "CP_RF_FORTRAN" if L.fortran else "0"
    if "p2p" in r:
        gen_p2p(e, L, b)
    elif "probe" in r:
        gen_probe(e, L, b)
    elif "coll" in r:
        gen_coll(e, L, b)
    elif "complete" in r:
        gen_complete(e, L, b)
    elif "rma" in r or "io" in r:
        gen_xfer(e, L, b)
    elif "winnew" in r:
        b.post.append("\tif (rc == MPI_SUCCESS)")
        b.post.append("\t\tcp_win_new(%s);" % L.newwin(e, r["winnew"][0]))
    elif "winfree" in r:
        w = L.newwin(e, r["winfree"][0])
        b.pre.append("\tcp_win_drop(%s);" % w)
        b.pre.append("\tcp_note(r, CP_RK_RETIRE, (uintptr_t)%s, site, "
                     "CP_CALL_%s, %s | CP_RF_COMM);" % (w, e.name, fl))
    elif "start" in r:
        reqs, n = r["reqs"]
        nexpr = "1" if n == "1" else L.val(e, n)
        b.post.append("\tif (rc == MPI_SUCCESS)")
        b.post.append("\t\tcp_start_post%s(r, %s, %s, t0, t1, site, "
                      "CP_CALL_%s, %s);" % ("_f" if L.fortran else "", reqs,
                                            nexpr, e.name, fl))
    elif "reqfree" in r or "cancel" in r:
        x = r.get("reqfree", r.get("cancel"))[0]
        if "cancel" in r:
            fl += " | CP_RF_CANCEL"
        b.pre.append("\tcp_note(r, CP_RK_FREE, (uintptr_t)%s, site, "
                     "CP_CALL_%s, %s);" % (L.req(e, x), e.name, fl))
    elif "typecommit" in r:
        b.post.append("\tif (rc == MPI_SUCCESS)")
        b.post.append("\t\tcp_layout_note(%s);" %
                      L.newtype(e, r["typecommit"][0]))
    elif "typefree" in r:
        t = L.newtype(e, r["typefree"][0])
        b.pre.append("\tcp_layout_drop(%s);" % t)
        b.pre.append("\tcp_note(r, CP_RK_RETIRE, (uintptr_t)%s, site, "
                     "CP_CALL_%s, %s);" % (t, e.name, fl))
    elif "commnew" in r:
        b.post.append("\tif (rc == MPI_SUCCESS)")
        b.post.append("\t\tcp_comm_new(%s);" % L.newcomm(e, r["commnew"][0]))
    elif "opfree" in r:
        b.pre.append("\tcp_op_drop(%s);" % L.newop(e, r["opfree"][0]))
    elif "commfree" in r:
        c = L.newcomm(e, r["commfree"][0])
        b.pre.append("\tcp_comm_drop(%s);" % c)
        b.pre.append("\tcp_note(r, CP_RK_RETIRE, (uintptr_t)%s, site, "
                     "CP_CALL_%s, %s | CP_RF_COMM);" % (c, e.name, fl))
    else:
        raise SystemExit("%s: no class role" % e.name)
    return b


def timed(b, call, clock):
    """The real call between the two tick reads, nested calls unrecorded."""
    t0, t1 = ("s->t0", "s->t1") if b.slot else ("t0", "t1")
    return ["\tr->nested = 1;", "\t%s = %s;" % (t0, clock), call,
            "\t%s = %s;" % (t1, clock), "\tr->nested = 0;"]


def decls(b):
    out = ["\tstruct cp_raw *s;"] if b.slot else \
        ["\tuint64_t t0, t1;"]
    return out + b.decl


def ending(b, ret):
    """The last statements: publish the records, return rc (ret)."""
    out = [] if b.slot else ["\t(void)t0; (void)t1; (void)site;"]
    if not ret:
        out.append("\t(void)rc;")
    if b.commit:
        n, done, ok = b.commit
        c = "cp_commit(r, s, %d, %s, %s, rc)" % (n, done, ok)
        return out + ["\treturn %s;" % c if ret else "\t(void)%s;" % c]
    return out + (["\treturn rc;"] if ret else [])


def only_if(e, text):
    """text, inside #if of the entry's @if macro (a call not every MPI
    has: configure checks mpi.h for it)."""
    if "if" not in e.roles or not text:
        return text
    m = e.roles["if"][0]
    return "#if %s\n%s#endif /* %s */\n\n" % (m, text, m)


def c_wrapper(e):
    return only_if(e, c_wrapper1(e))


def f_wrapper(e):
    return only_if(e, f_wrapper1(e))


def c_wrapper1(e):
    """Two bodies: the wrapper records on the TSC, its cold twin
    (cp_slow_*) on the portable clock, and attaches a thread's ring at its
    first call or calls through when nothing is recorded."""
    if "nowrap" in e.roles:
        return ""
    b = gen_body(e, C)
    args = ", ".join(e.names())
    params = ", ".join(p.text for p in e.params) or "void"
    call = "\trc = P%s(%s);" % (e.name, args)
    out = ["static CP_COLD int cp_slow_%s(uintptr_t site, %s)\n{" %
           (e.name, params)]
    out.append("\tstruct cp_ring *r = cp_ring_slow();")
    out += decls(b)
    out.append("\tint rc;\n")
    out.append("\tif (!r)")
    out.append("\t\treturn P%s(%s);" % (e.name, args))
    out.append("\tsite = cp_stack_site(site);\t/* COMMPROF_STACK */")
    out += b.pre
    out += timed(b, call, "cp_ticks()")
    out += b.post
    out += ending(b, True)
    out.append("}\n")
    out.append("%s\n{" % e.proto.replace("int MPI_", "CP_API int MPI_", 1))
    out.append("\tstruct cp_ring *r = cp_my_ring;")
    out += decls(b)
    out.append("\tuintptr_t site = (uintptr_t)__builtin_return_address(0);")
    out.append("\tint rc;\n")
    out.append("\tif (cp_unlikely(!cp_ring_fast(r)))")
    out.append("\t\treturn cp_slow_%s(site%s);" % (e.name,
                                                  ", " + args if args
                                                  else ""))
    out += b.pre
    out += timed(b, call, "cp_tsc()")
    out += b.post
    out += ending(b, True)
    out.append("}\n")
    return "\n".join(out) + "\n"


def f_param(p):
    if p.ctype in ("const void*", "void*"):
        return "void *" + p.name
    if p.ctype == "const MPI_Aint" and p.array:
        return "MPI_Aint *" + p.name
    if p.ctype == "const MPI_Count" and p.array:
        return "MPI_Count *" + p.name
    # INTEGER(KIND=MPI_ADDRESS_KIND) and (KIND=MPI_OFFSET_KIND), passed
    # through by reference and never read
    if p.ctype in ("MPI_Aint", "MPI_Offset", "MPI_Count"):
        return "%s *%s" % (p.ctype, p.name)
    return "MPI_Fint *" + p.name


def f_wrapper1(e):
    if "nowrap" in e.roles:
        return ""
    low = e.name.lower()
    # mpix_x_init: "x_x_init", apart from mpi_x_init's "x_init"
    short = low[4:] if low.startswith("mpi_") else "x" + low[4:]
    fparams = [f_param(p) for p in e.params] + ["MPI_Fint *ierr"]
    plist = ", ".join(fparams)
    args = ", ".join(e.names() + ["ierr"])
    b = gen_body(e, F)
    out = ["typedef void (*cp_ft_%s)(%s);" % (short, plist)]
    buf = any(p.ctype in ("const void*", "void*") for p in e.params)
    if "as" in e.roles:
        # a large-count binding: only MPICH's use mpi_f08 has it, as
        # mpi_x_f08_large_ or, with a choice buffer, mpi_x_f08ts_large_
        # (mpif.h and use mpi have none)
        base = e.roles["as"][0].lower()
        out.append("static cp_ft_%s real_%s_f08;\n" % (short, short))
        out += f_body(e, b, short, plist, args)
        out += f08_entry(short, base + "_f08_large_", plist, args)
        if buf:
            out += f08ts_entry(e, short, base + "_f08ts_large_", plist,
                               args)
        return "\n".join(out) + "\n"
    out.append("static cp_ft_%s real_%s, real_%s_f08;\n" % (short, short,
                                                             short))
    out += f_body(e, b, short, plist, args)
    # mpif.h / use mpi entry: resolves pmpi_x_ once, then the body
    out.append("static void entry_%s(%s)\n{" % (short, plist))
    out.append("\tif (cp_unlikely(!real_%s))" % short)
    out.append("\t\treal_%s = (cp_ft_%s)cp_f_real(\"p%s_\", \"%s\");" %
               (short, short, low, low))
    out.append("\tbody_%s(real_%s, (uintptr_t)__builtin_return_address(0),"
               " %s);\n}\n" % (short, short, args))
    for name in (low, low + "_", low + "__", e.name.upper()):
        out.append("CP_API void %s(%s) __attribute__((alias(\"entry_%s\")));"
                   % (name, plist, short))
    out += f08_entry(short, low + "_f08_", plist, args)
    if buf:
        out += f08ts_entry(e, short, low + "_f08ts_", plist, args)
    return "\n".join(out) + "\n"


def f08_entry(short, sym, plist, args):
    """The use mpi_f08 entry sym: the arguments of mpif.h's (handles are
    one-INTEGER types), but ierror is OPTIONAL and may be absent (NULL)."""
    out = ["\nCP_API void %s(%s)\n{" % (sym, plist)]
    out.append("\tMPI_Fint own;\n")
    out.append("\tif (cp_unlikely(!real_%s_f08))" % short)
    out.append("\t\treal_%s_f08 = (cp_ft_%s)cp_f_real(\"%s\", NULL);" %
               (short, short, sym))
    out.append("\tif (!ierr)\n\t\tierr = &own;")
    out.append("\tbody_%s(real_%s_f08, (uintptr_t)__builtin_return_address(0)"
               ", %s);\n}\n" % (short, short, args))
    return out


def f_body(e, b, short, plist, args):
    """body_<short>: the one C body behind every Fortran name of e."""
    out = ["static void body_%s(cp_ft_%s real, uintptr_t site, %s)\n{"
           % (short, short, plist)]
    out.append("\tstruct cp_ring *r = cp_ring_on();")
    out += decls(b)
    out.append("\tint rc;\n")
    out.append("\tif (cp_unlikely(!r)) {")
    out.append("\t\treal(%s);\n\t\treturn;\n\t}" % args)
    out.append("\tsite = cp_stack_site(site);\t/* COMMPROF_STACK */")
    out += b.pre
    out += timed(b, "\treal(%s);" % args, "cp_ticks()")
    out.append("\trc = (int)*ierr;")
    out += b.post
    out += ending(b, False)
    out.append("}\n")
    return out


def f08ts_entry(e, short, sym, plist, args):
    """MPICH's use mpi_f08 calls <name>_f08ts_ (sym) for a call with a
    choice buffer, passed as an array descriptor (its data address
    first): the body reads the address through cp_f_buf while cp_f_desc
    is set.  Its large-count bindings are <name>_f08ts_large_."""
    out = ["static cp_ft_%s real_%s_f08ts;\n" % (short, short)]
    out.append("CP_API void %s(%s)\n{" % (sym, plist))
    out.append("\tMPI_Fint own;\n")
    out.append("\tif (cp_unlikely(!real_%s_f08ts))" % short)
    out.append("\t\treal_%s_f08ts = (cp_ft_%s)cp_f_real(\"%s\", "
               "NULL);" % (short, short, sym))
    out.append("\tif (!ierr)\n\t\tierr = &own;")
    out.append("\tcp_f_desc = true;")
    out.append("\tbody_%s(real_%s_f08ts, (uintptr_t)__builtin_return_address"
               "(0), %s);" % (short, short, args))
    out.append("\tcp_f_desc = false;\n}\n")
    return out


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    entries = parse(sys.argv[1])
    what = sys.argv[2]
    if what == "calls":
        text = gen_calls(entries)
    elif what == "c":
        text = HEADER + INCLUDES + "".join(c_wrapper(e) for e in entries)
    elif what == "fortran":
        text = HEADER + INCLUDES + "".join(f_wrapper(e) for e in entries)
    elif what == "protos":
        text = "".join(e.proto + "\n" for e in entries)
    else:
        raise SystemExit(__doc__)
    with open(sys.argv[3], "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
