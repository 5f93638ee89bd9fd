#!/usr/bin/env python3
"""gen_wrappers.py - write commprof's MPI wrappers from pmpi/mpi_calls.def.

usage: gen_wrappers.py DEF {calls|c|fortran|protos} OUT

  calls    cp_calls_gen.h: CP_CALL_* ids and the name table
  c        cp_wrappers_gen.c: one C wrapper per wrapped call
  fortran  cp_fortran_gen.c: one C body per call behind every Fortran name
           (mpi_x, mpi_x_, mpi_x__, MPI_X for mpif.h / use mpi, and
           mpi_x_f08_ for use mpi_f08; MPICH's mpi_f08 calls mpi_x_f08ts_
           where x has a choice buffer)
  protos   the prototypes, one per line, normalised (for the header test)

Output is deterministic: no time, host or user.  A table it cannot read
as written (an unknown role, a role without the arguments or the other
roles it needs, text that is not a role) stops it with "DEF:LINE: why",
exit status 1 and no output: the build fails rather than a wrapper
silently recording nothing.  Wrappers only time the call and hand the
arguments to the cp_rec_* / cp_post_* functions of src/lib/cp_record.h;
what a row means is decided there.
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
    "status":     ((P,),           ("recv|probe|complete",)),
    "req":        ((P,),           ("p2p|coll",)),
    "persist":    ((),             ("p2p", "req")),
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
    "nowrap":     ((),             ()),
}
# what kind of call an entry is: exactly one of these per entry
CLASS_ROLES = ("p2p", "coll", "probe", "complete", "start", "reqfree",
               "cancel", "typecommit", "typefree", "commnew", "commfree",
               "nowrap")
# @block(kind, ...): cp_blk_<kind> of src/lib/cp_record.h and how many
# arguments it takes after the block
BLOCK_KINDS = {"none": 0, "bytes": 2, "send": 5, "reduce": 3, "scatter": 7,
               "scatterv": 7, "sendv": 6, "alltoallv": 6, "alltoallw": 6,
               "redscat": 4, "nbrv": 3, "nbrw": 3}
# @complete(kind): CP_DONE_<KIND> of src/lib/cp_record.h
COMPLETE_KINDS = ("one", "all", "any", "some", "test", "testall", "testany",
                  "testsome")


class DefError(Exception):
    """A line of the table that cannot be turned into a wrapper."""


class Param:
    def __init__(self, text):
        text = " ".join(text.split())
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
        m = re.match(r"^int\s+(MPI_\w+)\s*\((.*)\)\s*$", proto)
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
    return entries


HEADER = "/* Generated by pmpi/gen_wrappers.py from pmpi/mpi_calls.def: " \
         "do not edit. */\n"


def gen_calls(entries):
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
    or neither (the matching after the run pairs only the first two)."""
    r = e.roles
    if "probe" in r:
        return "probe"
    if "p2p" in r:
        return "p2p"
    if "coll" in r:
        return "coll"
    if "complete" in r:
        return "completion"
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


class F:
    """Expressions for the Fortran bindings: every argument is a pointer
    to a Fortran INTEGER (or a buffer, passed through untouched)."""
    fortran = True

    @staticmethod
    def val(e, name):
        return "(int)*" + name


    @staticmethod
    def comm(e, name):
        return "PMPI_Comm_f2c(*%s)" % name

    @staticmethod
    def dtype(e, name):
        return "PMPI_Type_f2c(*%s)" % name

    @staticmethod
    def buf(e, name):
        return "cp_f_buf(%s)" % name

    @staticmethod
    def ints(e, name):
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
    if t == "const MPI_Datatype" and p.array:
        return L.dtypes(e, name, comm)
    if t == "const int" and p.array:
        return L.ints(e, name)
    if t == "int":
        return L.val(e, name)
    raise SystemExit("%s: no block argument rule for %s" % (e.name, p.text))


def call_fill(e, L, lines, ind):
    """Fill struct cp_call c from the arguments (after the real call)."""
    r = e.roles
    comm = r["comm"][0] if "comm" in r else None
    if comm:
        lines.append(ind + "c.comm = %s;" % L.comm(e, comm))
    if "message" in r and "comm" not in r:
        lines.append(ind + "c.comm = cp_msg_comm(msg_c);")
    for role, field in (("peer", "peer"), ("src", "peer"), ("root", "root")):
        if role in r:
            lines.append(ind + "c.%s = %s;" % (field, L.val(e, r[role][0])))
    for role in ("tag", "rtag"):
        if role in r:
            lines.append(ind + "c.tag = %s;" % L.val(e, r[role][0]))


def gen_body(e, L):
    """Statements of one wrapper; `real(...)` is the call of the MPI
    library, `site` the callsite expression; both supplied by the caller.
    Returns (pre, post) lists: pre runs before the real call, post after;
    t0/t1 bracket the real call."""
    r = e.roles
    pre, post = [], []
    fl = "CP_F_FORTRAN" if L.fortran else "0"
    call = "CP_CALL_%s" % e.name

    def newcall(var="c"):
        post.append("\tstruct cp_call %s = { .t0 = t0, .t1 = t1, "
                    ".site = site, .call = %s, .flags = %s, "
                    ".peer = CP_PEER_NONE, .root = CP_PEER_NONE, "
                    ".tag = CP_TAG_NONE, .comm = MPI_COMM_NULL };"
                    % (var, call, fl))

    st = r.get("status", [None])[0]
    if st:
        if L.fortran:
            pre.append("\tMPI_Fint fst[CP_F_STATUS_SIZE];")
            pre.append("\tMPI_Status cst;")
            pre.append("\tif (cp_f_status_ignored(%s))" % st)
            pre.append("\t\t%s = fst;" % st)
        else:
            pre.append("\tMPI_Status cst;")
            pre.append("\tif (%s == MPI_STATUS_IGNORE)" % st)
            pre.append("\t\t%s = &cst;" % st)
    if "message" in r:
        m = r["message"][0]
        if "comm" not in r:       # Mrecv/Imrecv: the message knows the comm
            pre.append("\tMPI_Message msg_c = %s;" % L.msg(e, m))

    if "p2p" in r:
        if st:
            if L.fortran:
                post.append("\tPMPI_Status_f2c(%s, &cst);" % st)
            else:
                post.append("\tcst = *%s;" % st)
        newcall()
        call_fill_p2p(e, L, post)
        return pre, post
    if "probe" in r:
        if L.fortran:
            post.append("\tPMPI_Status_f2c(%s, &cst);" % st)
        else:
            post.append("\tcst = *%s;" % st)
        newcall()
        call_fill(e, L, post, "\t")
        flag = ("%s(int)*%s" % ("", r["flag"][0])) if "flag" in r else "1"
        if "message" in r:
            post.append("\tif (%s)" % flag)
            post.append("\t\tcp_msg_note(%s, c.comm);" %
                        L.msg(e, r["message"][0]))
        post.append("\tcp_rec_probe(&c, %s, &cst);" % flag)
        return pre, post
    if "coll" in r:
        newcall()
        call_fill(e, L, post, "\t")
        b = r["block"]
        comm = L.comm(e, r["comm"][0])
        args = ", ".join(["&b"] + [block_arg(e, L, a, comm) for a in b[1:]])
        post.append("\tstruct cp_blk b;")
        post.append("\tcp_blk_%s(%s);" % (b[0], args))
        if "req" in r:
            post.append("\tcp_post_coll(&c, &b, %s);" %
                        L.req(e, r["req"][0]))
        else:
            post.append("\tcp_rec_coll(&c, &b);")
        return pre, post
    if "complete" in r:
        return gen_complete(e, L)
    if "start" in r:
        reqs, n = r["reqs"]
        nexpr = "1" if n == "1" else L.val(e, n)
        post.append("\tfor (int i = 0; i < %s; i++)" % nexpr)
        post.append("\t\tcp_req_start(%s, t0);" %
                    ("PMPI_Request_f2c(%s[i])" % reqs if L.fortran
                     else "%s[i]" % reqs))
        return pre, post
    if "reqfree" in r or "cancel" in r:
        x = r.get("reqfree", r.get("cancel"))[0]
        if "reqfree" in r:
            pre.append("\tcp_req_free(%s, cp_ticks());" % L.req(e, x))
        else:
            pre.append("\tcp_req_cancel(%s);" % L.req(e, x))
        return pre, post
    if "typecommit" in r:
        post.append("\tcp_layout_note(%s);" % L.newtype(e, r["typecommit"][0]))
        return pre, post
    if "typefree" in r:
        pre.append("\tcp_layout_drop(%s);" % L.newtype(e, r["typefree"][0]))
        return pre, post
    if "commnew" in r:
        post.append("\tcp_comm_new(%s);" % L.newcomm(e, r["commnew"][0]))
        return pre, post
    if "commfree" in r:
        pre.append("\tcp_comm_drop(%s);" % L.newcomm(e, r["commfree"][0]))
        return pre, post
    raise SystemExit("%s: no class role" % e.name)


def call_fill_p2p(e, L, post):
    r = e.roles
    comm = r["comm"][0] if "comm" in r else None
    if comm:
        post.append("\tc.comm = %s;" % L.comm(e, comm))
    elif "message" in r:
        post.append("\tc.comm = cp_msg_comm(msg_c);")
    req = r.get("req", [None])[0]
    persist = "persist" in r
    if "send" in r:
        cnt, ty = r["send"]
        post.append("\tc.count = %s;" % L.val(e, cnt))
        post.append("\tc.type = %s;" % L.dtype(e, ty))
        post.append("\tc.peer = %s;" % L.val(e, r["peer"][0]))
        post.append("\tc.tag = %s;" % L.val(e, r["tag"][0]))
        if req:
            post.append("\tcp_post_send(&c, %s, %d);" %
                        (L.req(e, req), persist))
        else:
            post.append("\tcp_rec_send(&c);")
    if "recv" in r:
        cnt, ty = r["recv"]
        if "send" in r:
            post.append("\tc.flags |= CP_F_HALF;")
        post.append("\tc.count = %s;" % L.val(e, cnt))
        post.append("\tc.type = %s;" % L.dtype(e, ty))
        post.append("\tc.peer = %s;" % (L.val(e, r["src"][0]) if "src" in r
                                        else "MPI_ANY_SOURCE"))
        post.append("\tc.tag = %s;" % (L.val(e, r["rtag"][0]) if "rtag" in r
                                       else "MPI_ANY_TAG"))
        if req:
            post.append("\tcp_post_recv(&c, %s, %d);" %
                        (L.req(e, req), persist))
        else:
            post.append("\tcp_rec_recv(&c, &cst);")


def gen_complete(e, L):
    r = e.roles
    kind = r["complete"][0]
    reqs, n = r["reqs"]
    pre, post = [], []
    nexpr = "1" if n == "1" else L.val(e, n)
    idx = r.get("index", ["NULL"])[0]
    flag = r.get("flag", ["NULL"])[0]
    outc, indices = r.get("outcount", ["NULL", "NULL"])
    if "status" in r:
        st, many = r["status"][0], False
    else:
        st, many = r["statuses"][0], True
    f = "_f" if L.fortran else ""
    pre.append("\tstruct cp_wait w = { .call = CP_CALL_%s, .flags = %s };"
               % (e.name, "CP_F_FORTRAN" if L.fortran else "0"))
    pre.append("\tcp_wait_pre%s(&w, %s, %s, &%s, %d);" %
               (f, reqs, nexpr, st, int(many)))
    post.append("\tif (rc != MPI_SUCCESS)")
    post.append("\t\tw.n = 0;\t/* what completed is unknown */")
    post.append("\tcp_wait_post%s(&w, CP_DONE_%s, %s, %s, %s, %s, %s, "
                "t0, t1, site);" %
                (f, kind.upper(), idx, flag, outc, indices, st))
    return pre, post


def guarded(e, post):
    """Record only after a successful call: a failed call's handles may be
    invalid.  Completion calls check rc themselves (their own row)."""
    if not post:
        return []
    if "complete" in e.roles:
        return post
    return ["\tif (rc == MPI_SUCCESS) {"] + ["\t" + ln for ln in post] + \
        ["\t}"]


def c_wrapper(e):
    if "nowrap" in e.roles:
        return ""
    pre, post = gen_body(e, C)
    args = ", ".join(e.names())
    out = ["%s\n{" % e.proto.replace("int MPI_", "CP_API int MPI_", 1)]
    out.append("\tuint64_t t0, t1;\n\tint rc;\n")
    out.append("\tif (!cp_should_record())")
    out.append("\t\treturn P%s(%s);" % (e.name, args))
    out.append("\tuintptr_t site = (uintptr_t)__builtin_return_address(0);")
    out.append("\tcp_nested++;")
    out += pre
    out.append("\tt0 = cp_ticks();")
    out.append("\trc = P%s(%s);" % (e.name, args))
    out.append("\tt1 = cp_ticks();")
    out += guarded(e, post)
    out.append("\tcp_nested--;")
    out.append("\t(void)t0; (void)t1; (void)site;")
    out.append("\treturn rc;\n}\n")
    return "\n".join(out) + "\n"


def f_param(p):
    if p.ctype in ("const void*", "void*"):
        return "void *" + p.name
    if p.ctype == "const MPI_Aint" and p.array:
        return "MPI_Aint *" + p.name
    return "MPI_Fint *" + p.name


def f_wrapper(e):
    if "nowrap" in e.roles:
        return ""
    low = e.name.lower()
    short = low[4:]
    fparams = [f_param(p) for p in e.params] + ["MPI_Fint *ierr"]
    plist = ", ".join(fparams)
    args = ", ".join(e.names() + ["ierr"])
    pre, post = gen_body(e, F)
    out = ["typedef void (*cp_ft_%s)(%s);" % (short, plist)]
    out.append("static cp_ft_%s real_%s, real_%s_f08;\n" % (short, short,
                                                             short))
    out.append("static void body_%s(cp_ft_%s real, uintptr_t site, %s)\n{"
               % (short, short, plist))
    out.append("\tuint64_t t0, t1;\n\tint rc;\n")
    out.append("\tif (!cp_should_record()) {")
    out.append("\t\treal(%s);\n\t\treturn;\n\t}" % args)
    out.append("\tcp_nested++;")
    out += pre
    out.append("\tt0 = cp_ticks();")
    out.append("\treal(%s);" % args)
    out.append("\tt1 = cp_ticks();")
    out.append("\trc = (int)*ierr;")
    out += guarded(e, post)
    out.append("\tcp_nested--;")
    out.append("\t(void)t0; (void)t1; (void)site; (void)rc;")
    out.append("}\n")
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
    # use mpi_f08 entry: same arguments (handles are one-INTEGER types),
    # but ierror is OPTIONAL and may be absent (NULL)
    out.append("\nCP_API void %s_f08_(%s)\n{" % (low, plist))
    out.append("\tMPI_Fint own;\n")
    out.append("\tif (cp_unlikely(!real_%s_f08))" % short)
    out.append("\t\treal_%s_f08 = (cp_ft_%s)cp_f_real(\"%s_f08_\", NULL);" %
               (short, short, low))
    out.append("\tif (!ierr)\n\t\tierr = &own;")
    out.append("\tbody_%s(real_%s_f08, (uintptr_t)__builtin_return_address(0)"
               ", %s);\n}\n" % (short, short, args))
    if any(p.ctype in ("const void*", "void*") for p in e.params):
        out += f08ts_entry(e, short, low, plist, args)
    return "\n".join(out) + "\n"


def f08ts_entry(e, short, low, plist, args):
    """MPICH's use mpi_f08 calls <name>_f08ts_ for a call with a choice
    buffer, passed as an array descriptor (its data address first): the
    body reads the address through cp_f_buf while cp_f_desc is set."""
    out = ["static cp_ft_%s real_%s_f08ts;\n" % (short, short)]
    out.append("CP_API void %s_f08ts_(%s)\n{" % (low, plist))
    out.append("\tMPI_Fint own;\n")
    out.append("\tif (cp_unlikely(!real_%s_f08ts))" % short)
    out.append("\t\treal_%s_f08ts = (cp_ft_%s)cp_f_real(\"%s_f08ts_\", "
               "NULL);" % (short, short, low))
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
        text = HEADER + "#include \"config.h\"\n#include \"pmpi/cp_calls_gen.h\"\n#include \"src/lib/cp_record.h\"" \
            "\n\n" + "".join(c_wrapper(e) for e in entries)
    elif what == "fortran":
        text = HEADER + "#include \"config.h\"\n#include \"pmpi/cp_calls_gen.h\"\n#include \"src/lib/cp_record.h\"" \
            "\n\n" + "".join(f_wrapper(e) for e in entries)
    elif what == "protos":
        text = "".join(e.proto + "\n" for e in entries)
    else:
        raise SystemExit(__doc__)
    with open(sys.argv[3], "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
