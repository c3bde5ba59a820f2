#!/usr/bin/env python3
"""Generate Shoal's typed API from tools/gen/api_table.py.

The one generator: prototypes and C11 selections (shmem/include/shoal_typed.h,
and shmem/include/shmemx_typed.h for the shmemx_ routines),
wrappers (shmem/api/gen/*.c), the profiling interface's prototypes
(shmem/include/pshmem.h), the GPU routines (gpu/include/nvshmem_typed.h,
gpu/device/gen/*.cu, gpu/host/gen/*.cu), test lists and tables (tests/gen/*.h,
tests/gpu/gen/*.cu) and man pages (man/man3/ from man/src/*.3.in). Output is
deterministic and committed; the normal build never runs this. Python 3
standard library only. Its parts, in this folder: shoal_gen_gpu.py writes the
GPU outputs, c_emit.py the C text both halves share; api_table.py is the table,
its rows made by api_rows.py.

  shoal_gen.py               rewrite the outputs in the source tree
  shoal_gen.py --outdir DIR  write the same tree under DIR
  shoal_gen.py --check       exit 1 and list the outputs that are stale
  shoal_gen.py --list        print the outputs' paths
"""

import argparse
import filecmp
import os
import sys
import tempfile

import api_table
import shoal_gen_cxx
import shoal_gen_gpu
from c_emit import (BANNER, COMPLEX_EXT, COMPLEX_EXT_DEF, c_decl, complex_guarded, subst_type,
                    wrap, wrapper, xmacro)

SRCDIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# roff pages stay ASCII: groff without preconv rejects UTF-8 even in comments.
ROFF_BANNER = BANNER.replace("\u2014", "--")
TEST_TYPES_H = "tests/gen/shoal_types.h"
TEST_TABLES_H = "tests/gen/shoal_type_tables.h"
MAN_SRC = "man/src"
MAN_OUT = "man/man3"
PAGES_AM = "man/man3/pages.am"
# The profiling interface: every exported routine X is defined as p + X
# (pshmem_putmem, p_my_pe, pshmalloc) and X is a weak alias of it, made by
# SHOAL_PROFILED in shoal_profile.h; PROFILE_H declares the p names.
PROFILE_H = "shmem/include/pshmem.h"
PROFILE_INCLUDE = "shoal_profile.h"
C11_GUARD = ("#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L"
             " && !defined(__cplusplus)")
FLOATING = ("float", "double", "long double")
# The KIND the test lists give for each kind of arithmetic (c_emit.DT: what a
# reduction passes).
TEST_KIND = {"i": "'i'", "u": "'u'", "f": "'f'", "c": "'c'", "char": "SHOAL_CHAR_KIND"}


class Type:
    def __init__(self, row):
        self.ctype, self.typename, self.bits, self.signed, self.c11, fams = row
        self.families = set(fams.split())
        # The kind of arithmetic: complex, real floating, plain char (signed or
        # not as the compiler has it), else the signed column.
        if "_Complex" in self.ctype:
            self.kind = "c"
        elif self.ctype in FLOATING:
            self.kind = "f"
        elif self.ctype == "char":
            self.kind = "char"
        elif self.signed in (0, 1):
            self.kind = "i" if self.signed else "u"
        else:
            sys.exit("api_table: %s: not complex, floating or char, and no signed column"
                     % self.ctype)
        # ISO C++ has no _Complex: such routines are declared where the
        # compiler takes it (COMPLEX_GUARD).
        self.complex = self.kind == "c"


class Routine:
    """One concrete routine: a table row applied to one type or one size."""

    def __init__(self, row, name, ctype, size_expr, key, ty=None):
        self.row = row
        self.name = name
        self.ctype = ctype          # C element type ("void" for sized forms)
        self.size_expr = size_expr  # what the wrapper passes as the element size
        self.key = key              # TYPENAME, or SIZE for sized forms
        self.ty = ty                # the Type (None for sized forms)
        self.signed = ty.signed if ty else None
        self.complex = bool(ty and ty.complex)
        self.ret = subst_type(row["ret"], ctype)
        self.params = subst_type(row["params"], ctype)
        self.decl_name = name       # parenthesized where a C11 macro has the same name
        self.twin = None            # a GPU routine's host twin, by name (Api sets it)
        # Its shmemx_ alias (x_alias rows): the name Shoal gave it before 1.6.
        self.alias = x_name(name) if row.get("x_alias") else None

    def proto(self, name=None):
        return c_decl(self.ret, name or self.decl_name, self.params)

    def op(self):
        return row_op(self.row)

    def uses_signed(self):
        return any("{signed}" in a for a in [self.row["args"]] + self.row.get("locals", []))


def x_name(name):
    """The shmemx_ alias of a shmem_ name: shmemx_int_ibput, shmemx_ctx_int_ibput."""
    return "shmemx_" + name[len("shmem_"):]


def short_name(name):
    """A name less its shmem_ or shmemx_ prefix: put, ibput, sum_inscan."""
    for prefix in ("shmem_", "shmemx_"):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def row_op(row):
    """A row's op; a GPU row has its twin's (see api_table.GPU_ROUTINES)."""
    if "twin" in row and row["twin"] is not None:
        return row_op(row["twin"])
    if row["op"]:
        op = row["op"]
    elif row["generic"]:
        op = short_name(row["generic"])
    else:
        op = row["core"][len("shoal_api_"):]
    return "ctx_" + op if row["ctx"] else op


def param_names(params):
    return [p.split()[-1].lstrip("*") for p in params.split(",")]


class Api:
    def __init__(self, table):
        self.t = table
        # The hand-written routines, and the header that declares each.
        self.untyped = list(table.UNTYPED) + list(table.UNTYPED_X)
        self.untyped_header = dict([(u[1], table.UNTYPED_HEADER) for u in table.UNTYPED]
                                   + [(u[1], table.UNTYPED_X_HEADER) for u in table.UNTYPED_X])
        self.types = [Type(r) for r in table.TYPES]
        self.routines = []      # every concrete host routine, table order
        self.by_row = []        # (row, [Routine])
        for row in table.ROUTINES:
            rs = self.expand(row)
            self.by_row.append((row, rs))
            self.routines.extend(rs)
        # The GPU routines: kept apart, the host outputs never see them, nor
        # the hand-written device routines that only the man pages list.
        self.gpu_untyped = list(table.GPU_UNTYPED)
        self.gpu_routines = []
        self.gpu_by_row = []
        host = {r.name for r in self.routines}
        for row in table.GPU_ROUTINES:
            rs = self.expand(row)
            for r in rs:
                # The host routine this one mirrors, where the host has it for
                # this type (NVSHMEM's deprecated wait takes more types).
                if row["twin"] is not None:
                    twin = row["twin"]["name"].replace("{TYPENAME}", r.key).replace("{SIZE}",
                                                                                    r.key)
                    r.twin = twin if twin in host else None
            self.gpu_by_row.append((row, rs))
            self.gpu_routines.extend(rs)
        names = ([r.name for r in self.routines + self.gpu_routines]
                 + [r.alias for r in self.routines if r.alias]
                 + [u[1] for u in self.untyped + self.gpu_untyped])
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            sys.exit("api_table: routine names defined twice: " + ", ".join(dup))
        # generic name -> {"plain": row, "ctx": row}: at most one of each.
        self.generics = {}
        for row in table.ROUTINES:
            if not row["generic"]:
                continue
            if row["over"] == "sized":
                sys.exit("api_table: %s: a sized row has no C11 name" % row["name"])
            forms = self.generics.setdefault(row["generic"], {})
            form = "ctx" if row["ctx"] else "plain"
            if form in forms:
                sys.exit("api_table: %s: two %s rows share the C11 name"
                         % (row["generic"], "ctx" if row["ctx"] else "default-ctx"))
            forms[form] = row
            params = param_names(row["params"])
            if row["select"] not in params:
                sys.exit("api_table: %s: select %r is no parameter" % (row["name"], row["select"]))
        for g, forms in self.generics.items():
            if "plain" not in forms:
                sys.exit("api_table: %s: a ctx row needs its default-ctx twin" % g)
            if "ctx" in forms:
                plain, ctx = forms["plain"], forms["ctx"]
                if (param_names(plain["params"]).index(plain["select"]) != 0
                        or param_names(ctx["params"])[:2] != [ctx["ctx"], plain["select"]]
                        or ctx["over"] != plain["over"] or ctx["const_ok"] != plain["const_ok"]):
                    sys.exit("api_table: %s: a ctx twin must select on the argument after ctx, "
                             "which its default-ctx row selects on first" % g)
        generics = list(self.generics)
        # A routine may share its name with a C11 macro (the deprecated untyped
        # shmem_wait_until); its declarator is parenthesized so the macro stays out.
        for r in self.routines:
            if r.name in generics:
                r.decl_name = "(%s)" % r.name

    def expand(self, row):
        """A row's concrete routines: one per type of its family, or per size."""
        t = self.t
        rs = []
        if row["over"] == "sized":
            sizes = [s for s in t.SIZES if row["sizes"] is None or s[0] in row["sizes"]]
            sizes += [t.MEM] if row["mem"] else []
            for size, nbytes in sizes:
                name = row["name"].replace("{SIZE}", size)
                rs.append(Routine(row, name, "void", str(nbytes), size))
            return rs
        if row["over"] not in t.FAMILIES:
            sys.exit("api_table: unknown family %r" % row["over"])
        tys = self.family(row["over"])
        if row["only"]:
            tys = [ty for ty in tys if ty.typename == row["only"]]
            if len(tys) != 1:
                sys.exit("api_table: %s: only=%r is not one type of %s"
                         % (row["name"], row["only"], row["over"]))
        for ty in tys:
            name = row["name"].replace("{TYPENAME}", ty.typename)
            rs.append(Routine(row, name, ty.ctype, "sizeof(%s)" % ty.ctype, ty.typename, ty))
        return rs

    def family(self, fam):
        return [ty for ty in self.types if fam in ty.families]

    def family_expr(self, expr):
        """"a -b": the types of family a that are not in family b."""
        words = expr.split()
        tys = self.family(words[0])
        for w in words[1:]:
            if not w.startswith("-"):
                sys.exit("api_table: bad family expression %r" % expr)
            tys = [ty for ty in tys if w[1:] not in ty.families]
        return tys

    def generic_rows(self):
        return [(row, rs) for row, rs in self.by_row if row["generic"]]


def listed_typedefs(tys):
    """Typedefs a selection must name itself: those whose family holds no base
    type of the same signedness for them to reach (int32_t and int64_t among
    the bitwise AMO types, which hold only unsigned base types). Such a typedef
    cannot equal a listed base type; two of them could equal each other only
    with the same signedness and width, which is refused here."""
    have = {ty.signed for ty in tys if ty.c11}
    out = [ty for ty in tys if not ty.c11 and ty.signed not in have]
    for a in out:
        for b in out:
            if a is not b and a.signed == b.signed and (a.bits is None or a.bits == b.bits):
                sys.exit("api_table: %s and %s may be one type; a _Generic cannot list both"
                         % (a.ctype, b.ctype))
    return out


def assoc_routines(api, row, rs):
    """The routines one selection lists: those of the distinct base types, then
    those of the typedefs that reach none of them."""
    by_key = {r.key: r for r in rs}
    tys = [ty for ty in api.family(row["over"]) if ty.typename in by_key]
    return [by_key[ty.typename] for ty in [ty for ty in tys if ty.c11] + listed_typedefs(tys)]


def generic_assoc(api, row, rs):
    """The associations of one selection, (pointer type, function)."""
    assoc = []
    for r in assoc_routines(api, row, rs):
        assoc.append(("%s *" % r.ctype, r.name))
        if row["const_ok"]:
            assoc.append(("const %s *" % r.ctype, r.name))
    return assoc


def overload_sets(api):
    """The C++ overloads of each C11 selection (shoal_gen_cxx.py writes them):
    the same rows and routines, so C++ takes the types C11 takes. The shmemx_
    name of an x_alias row gets a set of its own, calling the aliases. Where a C
    function has the generic's own name (the deprecated shmem_wait_until on
    long), the overload with its parameters is that function."""
    c_funcs = {(r.name, r.params) for r in api.routines}
    sets = []
    for row, rs in api.generic_rows():
        routines = assoc_routines(api, row, rs)
        fam = [ty for ty in api.family(row["over"]) if ty.typename in {r.key for r in rs}]
        callee = {r.name: row["generic"] if (row["generic"], r.params) in c_funcs else r.name
                  for r in routines}
        sets.append(shoal_gen_cxx.OverloadSet(row["generic"], row, routines, callee,
                                              row["header"], fam))
        if row.get("x_alias"):
            sets.append(shoal_gen_cxx.OverloadSet(
                x_name(row["generic"]), row, routines, {r.name: r.alias for r in routines},
                "shmem/include/shmemx_typed.h", fam))
    return sets


def generic_body(api, row, rs):
    """The _Generic lines of one selection."""
    assoc = ["%s: %s" % a for a in generic_assoc(api, row, rs)]
    out = ["    _Generic((x), \\"]
    for i, a in enumerate(assoc):
        out.append("             %s%s \\" % (a, "," if i + 1 < len(assoc) else ")"))
    out[-1] = out[-1][:-2]
    return out


def select_macro(row):
    """SHOAL_SELECT_<op>: the selection of one row, ctx rows' with ctx_ in front."""
    return "SHOAL_SELECT_" + ("ctx_" if row["ctx"] else "") + short_name(row["generic"])


# ---------------------------------------------------------------------------
# shmem/include/shoal_typed.h
# ---------------------------------------------------------------------------
def header_head(path, info, complex_used):
    """A generated header's banner, guard and include of its base, up to the
    opening of extern "C"."""
    g = info["guard"]
    out = ["/* %s */" % BANNER,
           "/* %s" % path.split("/")[-1] + " - " + info["what"],
           " * Included at the end of %s; including it alone pulls that in first. */"
           % info["base"],
           "#ifndef %s" % g, "#define %s" % g, "",
           '#include "%s"' % info["base"], ""]
    if complex_used:
        out += COMPLEX_EXT_DEF + [""]
    return out + ["#ifdef __cplusplus", 'extern "C" {', "#endif"]


def gen_header(api, path, info):
    if info.get("aliases"):
        return gen_alias_header(api, path, info)
    g = info["guard"]
    out = header_head(path, info, any(r.complex and r.row["header"] == path
                                      for r in api.routines))
    for row, rs in api.by_row:
        if row["header"] != path:
            continue
        out.append("")
        pattern = row["name"].replace("{", "").replace("}", "")
        out.append("/* %s (man page %s) */" % (pattern, row["page"]))
        out.extend(complex_guarded(rs, lambda r: wrap((COMPLEX_EXT + " " if r.complex else "")
                                                      + r.proto() + ";")))
    out += ["", "#ifdef __cplusplus", "}", "#endif", ""]
    out.append("/* C11 type-generic forms. SHOAL_SELECT_<op>(x) yields the function the")
    out.append(" * call resolves to, so tests can compare it. Only distinct C types may")
    out.append(" * appear: the <stdint.h> and <stddef.h> typedefs reach their base type. */")
    out.append(C11_GUARD)
    sels = {id(row): rs for row, rs in api.generic_rows()}
    if any("ctx" in f and f["plain"]["header"] == path for f in api.generics.values()):
        out += [""] + CTX_DISPATCH
    for name, forms in api.generics.items():
        plain = forms["plain"]
        if plain["header"] != path:
            continue
        for row in [plain] + ([forms["ctx"]] if "ctx" in forms else []):
            out.append("")
            out.append("#define %s(x) \\" % select_macro(row))
            out.extend(generic_body(api, row, sels[id(row)]))
        if "ctx" not in forms:
            params = param_names(plain["params"])
            head = params[:params.index(plain["select"]) + 1]
            out.append("#define %s(%s, ...) %s(%s)(%s, __VA_ARGS__)"
                       % (name, ", ".join(head), select_macro(plain), plain["select"],
                          ", ".join(head)))
            continue
        any_t = generic_assoc(api, plain, sels[id(plain)])[0][0]
        out += ["#define %s(...) \\" % name,
                "    _Generic(SHOAL_ARG0(__VA_ARGS__, ~), \\",
                "             shmem_ctx_t: %s(SHOAL_PICK_CTX(%s, __VA_ARGS__)), \\"
                % (select_macro(forms["ctx"]), any_t),
                "             default: %s(SHOAL_PICK_PLAIN(%s, __VA_ARGS__)))(__VA_ARGS__)"
                % (select_macro(plain), any_t)]
    out += ["", "#endif /* C11 */"]
    out += shoal_gen_cxx.header([s for s in overload_sets(api) if s.header == path])
    out += ["", "#endif /* %s */" % g, ""]
    return "\n".join(out)


def gen_alias_header(api, path, info):
    """The shmemx_ aliases of the x_alias rows: their prototypes, and each C11
    shmemx_ name as the shmem_ one (both arities go through)."""
    g = info["guard"]
    rows = [(row, rs) for row, rs in api.by_row if row.get("x_alias")]
    out = header_head(path, info, any(r.complex for _, rs in rows for r in rs))
    for row, rs in rows:
        out.append("")
        out.append("/* %s: %s (man page %s) */"
                   % (x_name(row["name"]), row["name"], row["page"]))
        out.extend(complex_guarded(rs, lambda r: wrap((COMPLEX_EXT + " " if r.complex else "")
                                                      + r.proto(r.alias) + ";")))
    out += ["", "#ifdef __cplusplus", "}", "#endif", "", C11_GUARD]
    for name in sorted({row["generic"] for row, _ in rows if row["generic"]}):
        out.append("#define %s(...) %s(__VA_ARGS__)" % (x_name(name), name))
    out += ["#endif /* C11 */"]
    out += shoal_gen_cxx.header([s for s in overload_sets(api) if s.header == path])
    out += ["", "#endif /* %s */" % g, ""]
    return "\n".join(out)


# The helpers of the two-arity macros: the outer selection asks whether argument
# 0 is a context; the arm taken then selects on argument 1 or argument 0.
CTX_DISPATCH = [
    "/* Arity dispatch for the names with a context form: shmem_put(dest, ...) and",
    " * shmem_put(ctx, dest, ...). The selection not taken picks on (T)0, T the first",
    " * pointer type it lists, so a wrong type fails in the one taken, and only there.",
    " * Nothing here is evaluated: each argument is evaluated once, by the call. */",
    "#ifndef SHOAL_PICK_CTX",
    "#define SHOAL_ARG0(a, ...) a",
    "#define SHOAL_ARG1(a, b, ...) b",
    "#define SHOAL_PICK_CTX(T, ...) \\",
    "    _Generic(SHOAL_ARG0(__VA_ARGS__, ~), shmem_ctx_t: SHOAL_ARG1(__VA_ARGS__, ~), \\",
    "             default: (T)0)",
    "#define SHOAL_PICK_PLAIN(T, ...) \\",
    "    _Generic(SHOAL_ARG0(__VA_ARGS__, ~), shmem_ctx_t: (T)0, \\",
    "             default: SHOAL_ARG0(__VA_ARGS__, ~))",
    "#endif",
]


def profiled(name):
    """The profiling name of an exported routine: pshmem_put, p_my_pe, pshmalloc."""
    return "p" + name


# ---------------------------------------------------------------------------
# shmem/include/pshmem.h
# ---------------------------------------------------------------------------
def gen_profile_header(api):
    """Every routine libshoal exports, under its profiling name: the hand-written
    ones (UNTYPED, as shmem.h declares them), then the typed ones, row by row."""
    out = ["/* %s */" % BANNER,
           "/* pshmem.h - the OpenSHMEM profiling interface: every routine of shmem.h under",
           " * its pshmem_ name (p_my_pe, p_num_pes, pstart_pes, pshmalloc, pshfree,",
           " * pshrealloc, pshmemalign for the deprecated names without shmem_), and every",
           " * routine of shmemx.h under its pshmemx_ name. libshoal defines each routine as",
           " * pshmem_X, and shmem_X is a weak alias of it (a shmemx_ alias of a shmem_",
           " * routine is a weak alias of the same code, pshmemx_X a strong one): a tool",
           " * defines its own shmem_X",
           " * and calls pshmem_X to do the work (shmem_profiling(3)). The C11 type-generic",
           " * macros stay in shmem.h and shmemx.h, naming the shmem_ and shmemx_ routines. */",
           "#ifndef PSHMEM_H", "#define PSHMEM_H", "", '#include "shmemx.h"', "",
           "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
           "/* The untyped routines */"]
    for u in api.untyped:
        out.extend(wrap(c_decl(u[0], profiled(u[1]), u[2]) + ";"))
    for row, rs in api.by_row:
        out.append("")
        out.append("/* %s */" % profiled(row["name"].replace("{", "").replace("}", "")))
        out.extend(complex_guarded(rs, lambda r: wrap((COMPLEX_EXT + " " if r.complex else "")
                                                      + r.proto(profiled(r.name)) + ";")))
    for row, rs in api.by_row:
        if row.get("x_alias"):
            out += ["", "/* %s */" % profiled(x_name(row["name"]).replace("{", "")
                                              .replace("}", ""))]
            out.extend(complex_guarded(rs, lambda r: wrap(
                (COMPLEX_EXT + " " if r.complex else "") + r.proto(profiled(r.alias)) + ";")))
    out += ["", "#ifdef __cplusplus", "}", "#endif", "", "#endif /* PSHMEM_H */", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# shmem/api/gen/*.c
# ---------------------------------------------------------------------------
def gen_source(api, path, info):
    out = ["/* %s */" % BANNER,
           "/* %s - %s" % (path.split("/")[-1], info["what"]),
           " * Arguments are checked behind shoal_api_*; nothing may be added here. Each",
           " * routine is defined as pshmem_X; SHOAL_PROFILED makes shmem_X a weak alias",
           " * of it, the same code at a second name (shoal_profile.h). */",
           ""]
    out += ['#include "%s"' % inc for inc in info["includes"] + [PROFILE_INCLUDE]]
    for row, rs in api.by_row:
        if row["source"] != path:
            continue
        for r in rs:
            out.append("")
            out.extend(wrapper(r, name=profiled(r.name), ctx_default="SHOAL_API_CTX_DEFAULT"))
            out.append("SHOAL_PROFILED(%s);" % r.name)
            if r.alias:
                out.append("SHOAL_PROFILED_ALIAS(%s, %s);" % (r.alias, r.name))
    out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# tests/gen/
# ---------------------------------------------------------------------------
def gen_test_types(api):
    t = api.t
    out = ["/* %s */" % BANNER,
           "/* shoal_types.h - the API table's type lists as X-macros, for tests.",
           " * X(TYPE, TYPENAME) for types; the *_SIGNED lists X(TYPE, TYPENAME, IS_SIGNED)",
           " * with IS_SIGNED 1 or 0; the *_KIND lists X(TYPE, TYPENAME, KIND) with KIND",
           " * 'i' signed, 'u' unsigned, 'f' real floating, 'c' complex (complex types",
           " * are C only); X(SIZE, BYTES) for sized forms. */",
           "#ifndef SHOAL_TEST_TYPES_H", "#define SHOAL_TEST_TYPES_H", "",
           "/* The KIND of plain char: 'i' or 'u', as the compiler has it. */",
           "#define SHOAL_CHAR_KIND ((char)-1 < 0 ? 'i' : 'u')", ""]
    for macro, expr in t.TEST_LISTS:
        tys = api.family_expr(expr)
        words = expr.split()
        what = t.FAMILIES[words[0]]
        if len(words) > 1:
            what = "%s, less the %s" % (what.split(" (")[0], "; ".join(
                t.FAMILIES[w[1:]].split(" (")[0] for w in words[1:]))
        out += xmacro(macro, ["%s, %s" % (ty.ctype, ty.typename) for ty in tys], what)
        out.append("#define %s_COUNT %d" % (macro, len(tys)))
        out.append("")
    for macro, expr in t.TEST_LISTS_SIGNED:
        tys = api.family_expr(expr)
        out += xmacro(macro, ["%s, %s, %d" % (ty.ctype, ty.typename, ty.signed) for ty in tys],
                      t.FAMILIES[expr.split()[0]] + ", with signedness")
        out.append("#define %s_COUNT %d" % (macro, len(tys)))
        out.append("")
    for macro, expr in t.TEST_LISTS_KIND:
        tys = api.family_expr(expr)
        out += xmacro(macro, ["%s, %s, %s" % (ty.ctype, ty.typename, TEST_KIND[ty.kind])
                              for ty in tys],
                      t.FAMILIES[expr.split()[0]] + ", with the kind of arithmetic")
        out.append("#define %s_COUNT %d" % (macro, len(tys)))
        out.append("")
    rma_c11 = [ty for ty in api.family("rma") if ty.c11]
    out += xmacro("SHOAL_RMA_C11_TYPES", ["%s, %s" % (ty.ctype, ty.typename) for ty in rma_c11],
                  "the standard RMA types a _Generic list names (no typedefs)")
    out.append("#define SHOAL_RMA_C11_TYPES_COUNT %d" % len(rma_c11))
    out.append("")
    out += xmacro("SHOAL_RMA_SIZES", ["%s, %d" % s for s in t.SIZES],
                  "sized forms: X(SIZE, BYTES); the mem forms are bytes")
    out.append("#define SHOAL_RMA_SIZES_COUNT %d" % len(t.SIZES))
    out += ["", "#endif /* SHOAL_TEST_TYPES_H */", ""]
    return "\n".join(out)


def gen_test_tables(api):
    out = ["/* %s */" % BANNER,
           "/* shoal_type_tables.h - the API table as C arrays for unit tests: each RMA",
           " * type with its size, every generated routine as a function pointer, and what",
           " * each C11 selection picks per type. Include in one file per test program. */",
           "#ifndef SHOAL_TEST_TYPE_TABLES_H", "#define SHOAL_TEST_TYPE_TABLES_H", "",
           "#include <stddef.h>", "#include <stdint.h>", '#include "shmemx.h"',
           '#include "shoal_types.h"', "",
           "typedef void (*shoal_fn_t)(void);", "",
           "/* bits: exact width from the table (0 where C does not fix it);",
           " * is_signed: 1 signed, 0 unsigned, -1 neither (floating types, char). */",
           "typedef struct {", "    const char *type;", "    const char *typename;",
           "    size_t size;", "    unsigned bits;", "    int c11;", "    int is_signed;",
           "} shoal_type_info_t;", "",
           "static const shoal_type_info_t shoal_rma_type_info[] = {"]
    rma = api.family("rma")
    for ty in rma:
        out.append('    {"%s", "%s", sizeof(%s), %d, %d, %d},'
                   % (ty.ctype, ty.typename, ty.ctype, ty.bits or 0, int(ty.c11),
                      -1 if ty.signed is None else ty.signed))
    out += ["};", "",
            "/* key: TYPENAME, or SIZE (8..128, mem) for sized forms. */",
            "typedef struct {", "    const char *name;", "    const char *op;",
            "    const char *key;", "    shoal_fn_t fn;", "    size_t elem_size;",
            "} shoal_routine_info_t;", "",
            "static const shoal_routine_info_t shoal_routine_info[] = {"]
    for row, rs in api.by_row:
        for r in rs:
            out.append('    {"%s", "%s", "%s", (shoal_fn_t)%s, %s},'
                       % (r.name, r.op(), r.key, r.name, r.size_expr))
    out += ["};", "#define SHOAL_ROUTINE_INFO_COUNT %d" % len(api.routines), ""]
    out.append(C11_GUARD)
    gens = [(row, rs) for row, rs in api.generic_rows() if row["over"] == "rma"]
    fields = []
    for row, _ in gens:
        op = select_macro(row)[len("SHOAL_SELECT_"):]
        fields.append((op, row, False))
        if row["const_ok"]:
            fields.append((op + "_const", row, True))
    out += ["/* What each SHOAL_SELECT_<op> picks for a pointer to each standard RMA type,",
            " * in shoal_rma_type_info order. */",
            "typedef struct {", "    const char *typename;"]
    out += ["    shoal_fn_t %s;" % f for f, _, _ in fields]
    out += ["} shoal_rma_select_t;", "",
            "static const shoal_rma_select_t shoal_rma_select[] = {"]
    for ty in rma:
        vals = ['"%s"' % ty.typename]
        for f, row, const in fields:
            ptr = "(%s%s *)0" % ("const " if const else "", ty.ctype)
            vals.append("(shoal_fn_t)%s(%s)" % (select_macro(row), ptr))
        out.append("    {" + vals[0] + ",")
        out += ["     %s%s" % (v, "," if i + 2 < len(vals) else "},")
                for i, v in enumerate(vals[1:])]
    out += ["};", ""]
    out += ["/* Every C11 selection, for every type of its row: op is the routine's op,",
            " * fn what SHOAL_SELECT_<op> picks for a pointer to type (to const type",
            " * where is_const). */",
            "typedef struct {", "    const char *op;", "    const char *type;",
            "    const char *typename;", "    size_t size;", "    int c11;",
            "    int is_signed;", "    int is_const;", "    shoal_fn_t fn;",
            "} shoal_select_info_t;", "",
            "static const shoal_select_info_t shoal_select_info[] = {"]
    nsel = 0
    for row, rs in api.generic_rows():
        by_key = {r.key: r for r in rs}
        for ty in api.family(row["over"]):
            if ty.typename not in by_key:
                continue
            for const in ([False, True] if row["const_ok"] else [False]):
                ptr = "(%s%s *)0" % ("const " if const else "", ty.ctype)
                out.append('    {"%s", "%s", "%s", sizeof(%s), %d, %d, %d,'
                           % (by_key[ty.typename].op(), ty.ctype, ty.typename, ty.ctype,
                              int(ty.c11), -1 if ty.signed is None else ty.signed, int(const)))
                out.append("     (shoal_fn_t)%s(%s)}," % (select_macro(row), ptr))
                nsel += 1
    out += ["};", "#define SHOAL_SELECT_INFO_COUNT %d" % nsel]
    out += ["#endif /* C11 */", "", "#endif /* SHOAL_TEST_TYPE_TABLES_H */", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# man pages
# ---------------------------------------------------------------------------
def page_names(api):
    t = api.t
    pages = {}
    for row, rs in api.by_row + api.gpu_by_row:
        pages.setdefault(row["page"], [])
    for u in api.untyped + api.gpu_untyped:
        pages.setdefault(u[3], [])
    for p in t.EXTRA_PAGES:
        pages.setdefault(p, [])
    return sorted(pages)


def page_header(api, page):
    """The header a page's routines come from: shmemx.h for the shmemx_ ones."""
    t = api.t
    bases = {api.untyped_header[u[1]] for u in api.untyped if u[3] == page and not u[4]}
    bases |= {"shmem/include/" + t.HEADERS[row["header"]]["base"] for row, _ in api.by_row
              if row["page"] == page and row["header"] in t.HEADERS}
    return "shmemx.h" if t.UNTYPED_X_HEADER in bases else "shmem.h"


def man_synopsis(api, page):
    out = [".SH SYNOPSIS"]
    untyped = [u for u in api.untyped if u[3] == page]
    rows = [(row, rs) for row, rs in api.by_row if row["page"] == page]
    if untyped or rows:  # else a GPU page: its sections name their headers
        out += [".nf", "#include <%s>" % page_header(api, page), ".fi"]
    cur = [u for u in untyped if not u[4]]
    dep = [u for u in untyped if u[4]]
    if cur:
        out += [".PP", ".nf"] + [c_decl(u[0], u[1], u[2]) + ";" for u in cur] + [".fi"]
    cur_rows = [(row, rs) for row, rs in rows if not row["deprecated"]]
    dep_rows = [(row, rs) for row, rs in rows if row["deprecated"]]
    out += synopsis_rows(api, cur_rows, "")
    out += shoal_gen_gpu.synopsis(api, page, False)
    gpu_dep = shoal_gen_gpu.synopsis(api, page, True)
    if dep or dep_rows or gpu_dep:
        out += [".SS Deprecated"]
        if dep:
            out += [".nf"] + [c_decl(u[0], u[1], u[2]) + ";" for u in dep] + [".fi"]
        out += synopsis_rows(api, dep_rows, "Deprecated ") + gpu_dep
    # A paragraph break right after a heading is redundant (mandoc warns).
    return [ln for i, ln in enumerate(out) if not (ln == ".PP" and out[i - 1].startswith(".SS"))]


def synopsis_rows(api, rows, label):
    """The C11, typed and sized parts of a synopsis. label is empty for the
    current names; the deprecated ones get their own subsection headings."""
    t = api.t
    out = []
    head = (lambda s: [".SS %s" % s]) if not label else (lambda s: [".PP", label + s + ":"])
    gens = [(row, rs) for row, rs in rows if row["generic"]]
    if gens:
        out += head("C11 and C++ type-generic") + [".nf"]
        for row, rs in gens:
            out.append(c_decl(row["ret"], row["generic"], row["params"]) + ";")
        out += [".fi", ".PP"]
        fams = sorted({row["over"] for row, _ in gens})
        for fam in fams:
            names = ", ".join(ty.ctype for ty in api.family(fam))
            out.append("TYPE is one of the %s: %s." % (t.FAMILIES[fam].split(" (")[0], names))
        out.append("In C11 each name is a macro, in C++ a set of overloaded functions; both "
                   "take these types.")
        if any(not ty.c11 for fam in fams for ty in api.family(fam)):
            out[-1] += (" A typedef such as int64_t reaches the typed routine of the type it "
                        "names.")
    typed = [(row, rs) for row, rs in rows if row["over"] != "sized"]
    if typed:
        out += head("C/C++ typed") + [".nf"]
        for row, rs in typed:
            out += [r.proto().replace(r.decl_name, r.name) + ";" for r in rs]
        out += [".fi"]
    sized = [(row, rs) for row, rs in rows if row["over"] == "sized"]
    if sized:
        out += head("C/C++ sized") + [".nf"]
        for row, rs in sized:
            out += [r.proto() + ";" for r in rs]
        out += [".fi"]
    return out


def page_routines(api, page):
    names = [u[1] for u in api.untyped if u[3] == page]
    for row, rs in api.by_row:
        if row["page"] == page:
            if row["generic"] and row["generic"] not in names:  # a ctx twin shares it
                names.append(row["generic"])
                if row.get("x_alias"):
                    names.append(x_name(row["generic"]))
            names += [r.name for r in rs] + [r.alias for r in rs if r.alias]
    return names + shoal_gen_gpu.page_routines(api, page)


def gen_man(api, files):
    t = api.t
    pages = page_names(api)
    srcs = sorted(f[:-len(".3.in")] for f in os.listdir(os.path.join(SRCDIR, MAN_SRC))
                  if f.endswith(".3.in"))
    missing = [p for p in pages if p not in srcs]
    extra = [p for p in srcs if p not in pages]
    if missing or extra:
        sys.exit("man/src: pages missing: %s; pages no table row names: %s"
                 % (", ".join(missing) or "none", ", ".join(extra) or "none"))
    man3 = []
    for page in pages:
        with open(os.path.join(SRCDIR, MAN_SRC, page + ".3.in"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        has_syn = page_routines(api, page)
        if has_syn:
            if lines.count(t.SYNOPSIS_MARKER) != 1:
                sys.exit("man/src/%s.3.in: needs exactly one line %r"
                         % (page, t.SYNOPSIS_MARKER))
            i = lines.index(t.SYNOPSIS_MARKER)
            lines = lines[:i] + man_synopsis(api, page) + lines[i + 1:]
        elif t.SYNOPSIS_MARKER in lines:
            sys.exit("man/src/%s.3.in: no routine to synopsize" % page)
        files["%s/%s.3" % (MAN_OUT, page)] = '.\\" %s\n' % ROFF_BANNER + "\n".join(lines) + "\n"
        man3.append(page + ".3")
        for name in has_syn:
            if name == page:
                continue
            files["%s/%s.3" % (MAN_OUT, name)] = '.\\" %s\n.so man3/%s.3\n' % (ROFF_BANNER,
                                                                               page)
            man3.append(name + ".3")
    man3.sort()
    am = ["# " + BANNER, "dist_man3_MANS = \\"]
    am += ["\tman3/%s%s" % (m, " \\" if i + 1 < len(man3) else "") for i, m in enumerate(man3)]
    files[PAGES_AM] = "\n".join(am) + "\n"


def check_untyped(api):
    """The hand-written headers must declare each UNTYPED (shmem.h), UNTYPED_X
    (shmemx.h) and GPU_UNTYPED (nvshmem.h) row exactly as listed."""
    where = dict(api.untyped_header, **{u[1]: api.t.GPU_UNTYPED_HEADER for u in api.gpu_untyped})
    for header in sorted(set(where.values())):
        with open(os.path.join(SRCDIR, header), encoding="utf-8") as f:
            text = " ".join(f.read().split())
        bad = [u[1] for u in api.untyped + api.gpu_untyped if where[u[1]] == header
               and c_decl(u[0], u[1], u[2]) + ";" not in text]
        if bad:
            sys.exit("%s does not declare, as api_table.py lists them: %s"
                     % (header, ", ".join(bad)))


def generate():
    api = Api(api_table)
    check_untyped(api)
    files = {}
    for path, info in sorted(api.t.HEADERS.items()):
        files[path] = gen_header(api, path, info)
    files[PROFILE_H] = gen_profile_header(api)
    for path, info in sorted(api.t.SOURCES.items()):
        files[path] = gen_source(api, path, info)
    files[TEST_TYPES_H] = gen_test_types(api)
    files[TEST_TABLES_H] = gen_test_tables(api)
    files[shoal_gen_cxx.TEST_H] = shoal_gen_cxx.test_header(api, overload_sets(api))
    files.update(shoal_gen_gpu.generate(api))
    gen_man(api, files)
    return files


def old_generated(root, files):
    """Generated files already under root, found by their banner, in the
    folders that hold outputs (so a file the table no longer makes is found)."""
    found = []
    for rel_dir in sorted({os.path.dirname(rel) for rel in files}):
        d = os.path.join(root, rel_dir)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if not os.path.isfile(p):
                continue
            try:
                with open(p, encoding="utf-8") as fh:
                    head = fh.readline()
            except (OSError, UnicodeDecodeError):
                continue
            if BANNER in head or ROFF_BANNER in head:
                found.append("%s/%s" % (rel_dir, f))
    return found


def write_tree(files, root):
    for rel, text in sorted(files.items()):
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        try:
            with open(p, encoding="utf-8") as f:
                if f.read() == text:
                    continue
        except OSError:
            pass
        with open(p, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outdir", help="write the outputs under DIR, not the source tree")
    ap.add_argument("--check", action="store_true",
                    help="compare with the committed outputs; exit 1 if any are stale")
    ap.add_argument("--list", action="store_true", help="print the outputs' paths")
    opt = ap.parse_args()
    files = generate()
    if opt.list:
        print("\n".join(sorted(files)))
        return 0
    if opt.check:
        with tempfile.TemporaryDirectory() as tmp:
            write_tree(files, tmp)
            stale = []
            for rel in sorted(files):
                cur = os.path.join(SRCDIR, rel)
                if not os.path.isfile(cur) or not filecmp.cmp(cur, os.path.join(tmp, rel),
                                                              shallow=False):
                    stale.append(rel)
            stale += ["%s (no longer generated)" % rel for rel in old_generated(SRCDIR, files)
                      if rel not in files]
        if stale:
            print("stale generated files (run python3 tools/gen/shoal_gen.py):")
            for s in stale:
                print("  " + s)
            return 1
        return 0
    root = opt.outdir or SRCDIR
    for rel in old_generated(root, files):
        if rel not in files:
            os.remove(os.path.join(root, rel))
    write_tree(files, root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
