"""The C++ outputs of tools/gen/shoal_gen.py: the type-generic names as overloads.

Part of the one generator, kept apart to keep each file small. C++ has no
_Generic, so each C11 selection of shoal_typed.h (and each shmemx_ name of
shmemx_typed.h) becomes a set of inline functions of the same name, one for each
type the selection lists, each one call of the typed routine. shoal_gen.py makes
the sets (OverloadSet) from the same rows and associations as the selections, so
both accept the same types; this file only writes them: the overloads at the end
of the headers, and the test that checks them (tests/gen/shoal_cxx_generic.h).
It must never import shoal_gen.py, which imports it.
"""

import re

from c_emit import BANNER, COMPLEX_EXT, c_decl, complex_guarded, subst_type, wrap

TEST_H = "tests/gen/shoal_cxx_generic.h"
# In the test, a complex type is named through a typedef made with __extension__
# (ISO C++ has no _Complex: under -pedantic the bare name is an error).
GNU_GUARD = "#ifdef __GNUC__ /* _Complex: C++ with GNU extensions */"


class OverloadSet:
    """The overloads of one name for one row: name is the generic name (or its
    shmemx_ twin), routines the ones the row's selection lists, in its order,
    callee what each overload calls (the routine, its shmemx_ alias, or the C
    function of the generic's own name where one takes those very parameters)."""

    def __init__(self, name, row, routines, callee, header, family):
        self.name = name
        self.row = row
        self.routines = routines
        self.callee = callee        # routine name -> the function its overload calls
        self.header = header
        self.family = family        # the types the selection takes: Type list

    def is_c_function(self, r):
        """Whether the overload for r is a C function of the generic's name
        (the deprecated shmem_wait_until on long), declared by the C half."""
        return self.callee[r.name] == self.name


def header(sets):
    """The C++ overloads of one header, after its C11 selections."""
    out = ["", "/* C++: each type-generic name is a set of overloads, one for each type its",
           " * C11 selection above lists (made from the same table rows), each calling the",
           " * typed routine. extern \"C++\" keeps them C++ functions when the header is",
           " * included inside an extern \"C\" block. */",
           "#ifdef __cplusplus", 'extern "C++" {']
    for s in sets:
        out += ["", "/* %s%s */" % (s.name, ", with a context" if s.row["ctx"] else "")]
        out += complex_guarded(s.routines, lambda r: overload(s, r))
    out += ["", '} /* extern "C++" */', "#endif /* __cplusplus */"]
    return out


def overload(s, r):
    if s.is_c_function(r):
        return ["/* %s is the C function of that name. */" % c_decl(r.ret, s.name, r.params)]
    args = ", ".join(param_names(r.params))
    call = "%s%s(%s);" % ("" if r.ret == "void" else "return ", s.callee[r.name], args)
    ext = COMPLEX_EXT + " " if r.complex else ""
    return wrap(ext + "inline " + c_decl(r.ret, s.name, r.params)) + ["{"] + wrap(
        "    " + call) + ["}"]


def param_names(params):
    return [p.split()[-1].lstrip("*") for p in params.split(",")]


def param_types(params):
    """Each parameter without its name: "const TYPE *source" -> "const TYPE *"."""
    return [re.sub(r"\s*\b\w+$", "", p.strip()) for p in params.split(",")]


# ---------------------------------------------------------------------------
# tests/gen/shoal_cxx_generic.h
# ---------------------------------------------------------------------------
def test_name(ty):
    """How the test spells a type: complex ones through their typedef."""
    return "shoal_cxx_" + ty.typename if ty.complex else ty.ctype


def test_header(api, sets):
    types = api.types
    fams = sorted({s.row["over"] for s in sets})
    out = ["/* %s */" % BANNER,
           "/* shoal_cxx_generic.h - checks the C++ overloads of the type-generic names",
           " * against the table, for one C++ test program (tests/unit/check_cxx_generic.cc):",
           " * that each name takes exactly the types its C11 selection takes (as a pointer,",
           " * and as a pointer to const where the selection takes that), and that a call",
           " * reaches the typed routine of the argument's own type and returns its type.",
           " * It defines every routine an overload calls as a stub that records its name",
           " * and type: the program links no libshoal. */",
           "#ifndef SHOAL_CXX_GENERIC_H", "#define SHOAL_CXX_GENERIC_H", "",
           "#include <cstdio>", "#include <cstring>", "#include <initializer_list>",
           "#include <type_traits>", "#include <typeinfo>", "",
           '#include "shmemx.h"', "",
           GNU_GUARD]
    out += ["__extension__ typedef %s %s;" % (ty.ctype, test_name(ty)) for ty in types
            if ty.complex]
    out += ["#endif", "",
            "/* What the last stub called was, and the type it takes. */",
            "static const char *shoal_cxx_called;",
            "static const std::type_info *shoal_cxx_called_type;",
            "static int shoal_cxx_failures;", "",
            "static void shoal_cxx_hit(const char *name, const std::type_info &type)", "{",
            "    shoal_cxx_called = name;", "    shoal_cxx_called_type = &type;", "}", "",
            "/* Whether the call of name with a pointer to type reached one of want, and",
            " * that one takes type itself (a typedef may be any of want). */",
            "static void shoal_cxx_reached(const char *name, const char *type,",
            "                              const std::type_info &want_type,",
            "                              std::initializer_list<const char *> want)", "{",
            "    bool named = false;",
            "    for (const char *w : want)",
            "        named = named || (shoal_cxx_called && std::strcmp(w, shoal_cxx_called) == 0);",
            "    if (!named || !shoal_cxx_called_type || *shoal_cxx_called_type != want_type) {",
            '        std::fprintf(stderr, "FAIL: %s for %s called %s; expected", name, type,',
            '                     shoal_cxx_called ? shoal_cxx_called : "nothing");',
            "        for (const char *w : want)",
            '            std::fprintf(stderr, " %s", w);',
            '        std::fprintf(stderr, "%s\\n",',
            '                     want.size() > 1 ? ", the one that takes it" : "");',
            "        shoal_cxx_failures++;", "    }",
            "    shoal_cxx_called = nullptr;", "    shoal_cxx_called_type = nullptr;", "}", "",
            "/* A value of each parameter type, for calls that only need to resolve. */",
            "template <typename X> static X shoal_cxx_zero()", "{", "    return X();", "}", "",
            "/* The element type of the pointer a call selects on. */",
            "template <typename P>",
            "using shoal_cxx_elem = typename std::remove_cv<"
            "typename std::remove_pointer<P>::type>::type;", "",
            "/* Whether T is one of U...: the types a selection takes, typedefs included. */",
            "template <typename T, typename... U> struct shoal_cxx_in : std::false_type {", "};",
            "template <typename T, typename U, typename... V>",
            "struct shoal_cxx_in<T, U, V...>",
            "    : std::integral_constant<bool, std::is_same<T, U>::value ||"
            " shoal_cxx_in<T, V...>::value> {", "};"]
    for fam in fams:
        tys = api.family(fam)
        out += ["", "template <typename T>",
                "struct shoal_cxx_in_%s : shoal_cxx_in<T" % fam]
        plain = [ty for ty in tys if not ty.complex]
        cplx = [ty for ty in tys if ty.complex]
        out += wrap_list([test_name(ty) for ty in plain], "                                 ")
        if cplx:
            out += [GNU_GUARD]
            out += wrap_list([test_name(ty) for ty in cplx], "                                 ")
            out += ["#endif"]
        out += ["                                 > {", "};"]
    out += ["", "/* The stubs: every function an overload calls. */", 'extern "C" {']
    seen = set()
    for s in sets:
        for r in s.routines:
            callee = s.callee[r.name]
            if callee in seen:
                continue
            seen.add(callee)
            out += stub(s, r, callee)
    out += ['} /* extern "C" */']
    for s in sets:
        out += trait_and_call(s)
    out += type_check(api)
    out += ["", "/* Checks every overload set; returns the number of failures (each printed). */",
            "static int shoal_cxx_generic_check(void)", "{"]
    for s in sets:
        out.append("    shoal_cxx_types<%s, shoal_cxx_in_%s>(\"%s\", %s);"
                   % (set_id(s, "ok"), s.row["over"], display(s), "true" if s.row["const_ok"]
                      else "false"))
    for s in sets:
        out += calls(s)
    out += ["    return shoal_cxx_failures;", "}", "", "#endif /* SHOAL_CXX_GENERIC_H */", ""]
    return "\n".join(out)


def wrap_list(items, pad):
    """', a, b, ...' continuation lines of a template argument list."""
    out, cur = [], pad
    for it in items:
        piece = ", " + it
        if len(cur) + len(piece) > 100 and cur != pad:
            out.append(cur)
            cur = pad
        cur += piece
    if cur != pad:
        out.append(cur)
    return out


def display(s):
    return s.name + (" with a context" if s.row["ctx"] else "")


def set_id(s, what):
    return "shoal_cxx_%s_%s%s" % (what, "ctx_" if s.row["ctx"] else "", s.name)


def stub(s, r, callee):
    tname = test_name(r.ty)
    params = ", ".join(subst_type(p, tname) for p in param_types(s.row["params"]))
    ret = subst_type(s.row["ret"], tname)
    body = ['    shoal_cxx_hit("%s", typeid(%s));' % (callee, tname)]
    if ret != "void":
        body.append("    return 0;")
    lines = wrap(c_decl(ret, callee, params)) + ["{"] + body + ["}"]
    return [GNU_GUARD] + lines + ["#endif"] if r.complex else lines


def call_expr(s, elem):
    """The call of s with a value of each parameter type, selecting on P."""
    sel = param_names(s.row["params"]).index(s.row["select"])
    args = []
    for i, p in enumerate(param_types(s.row["params"])):
        args.append("shoal_cxx_zero<%s>()" % ("P" if i == sel else subst_type(p, elem)))
    return "%s(%s)" % (s.name, ", ".join(args))


def trait_and_call(s):
    """The trait that says whether s takes a pointer P, and the function that
    calls it with one and checks where it went."""
    elem = "shoal_cxx_elem<P>"
    expr = call_expr(s, elem)
    ok = set_id(s, "ok")
    out = ["", "/* %s */" % display(s),
           "template <typename P, typename = void> struct %s : std::false_type {" % ok, "};",
           "template <typename P>",
           "struct %s<P, decltype((void)%s)>" % (ok, expr), "    : std::true_type {", "};",
           "template <typename P>",
           "static void %s(const char *type, std::initializer_list<const char *> want)"
           % set_id(s, "call"), "{",
           "    static_assert(std::is_same<decltype(%s), %s>::value," % (
               expr, subst_type(s.row["ret"], elem)),
           '                  "%s: the return type");' % display(s),
           "    %s;" % expr,
           '    shoal_cxx_reached("%s", type, typeid(%s), want);' % (display(s), elem), "}"]
    return [ln for line in out for ln in wrap(line)]


def calls(s):
    """One call per type the family lists (and per pointer to const where the
    selection takes that), each with the routines it may reach."""
    by_type = {r.ty.typename: r for r in s.routines}
    out = []
    for ty in s.family:
        if ty.c11 or ty.typename in by_type:
            want = [s.callee[by_type[ty.typename].name]]
        else:
            # A typedef: the routine of whichever listed type it is; the stub's
            # type tells which.
            want = [s.callee[r.name] for r in s.routines if r.ty.signed == ty.signed
                    and r.ty.kind in ("i", "u")]
        name = test_name(ty)
        lines = []
        for const in ([False, True] if s.row["const_ok"] else [False]):
            ptr = "%s%s *" % ("const " if const else "", name)
            lines += wrap('    %s<%s>("%s", {%s});'
                          % (set_id(s, "call"), ptr, ptr,
                             ", ".join('"%s"' % w for w in want)), r"\(")
        out += [GNU_GUARD] + lines + ["#endif"] if ty.complex else lines
    return out


def type_check(api):
    """shoal_cxx_types: for each type of the table, whether a set takes a pointer
    to it (and to const) is whether its family holds it."""
    out = ["", "/* Ok<P, void>: whether a set takes P; In<T>: whether its family holds T. */",
           "template <template <typename, typename> class Ok, template <typename> class In,",
           "          typename T>",
           "static void shoal_cxx_type(const char *name, const char *type, bool const_ok)", "{",
           "    const bool in = In<T>::value;",
           "    const bool in_const = in && const_ok;",
           "    if (Ok<T *, void>::value != in || Ok<const T *, void>::value != in_const) {",
           '        std::fprintf(stderr, "FAIL: %s takes %s *: %d (expected %d), const %s *: %d "',
           '                     "(expected %d)\\n", name, type, (int)Ok<T *, void>::value,'
           " (int)in,",
           "                     type, (int)Ok<const T *, void>::value, (int)in_const);",
           "        shoal_cxx_failures++;", "    }", "}", "",
           "template <template <typename, typename> class Ok, template <typename> class In>",
           "static void shoal_cxx_types(const char *name, bool const_ok)", "{"]
    for ty in api.types:
        line = '    shoal_cxx_type<Ok, In, %s>(name, "%s", const_ok);' % (test_name(ty), ty.ctype)
        out += [GNU_GUARD, line, "#endif"] if ty.complex else [line]
    return out + ["}"]
