"""The Shoal API table: the one place where C types and typed routines are listed.

tools/gen/shoal_gen.py turns it into prototypes, wrappers, _Generic selections,
man page synopses and the typed lists the tests loop over. Edit this file, then
run `python3 tools/gen/shoal_gen.py` (or `make regen`) and commit the outputs.
Plain data only: no imports, no logic beyond building the lists.

Adding a family later (ctx forms, AMOs, signal, nvshmem_* aliases) means adding
rows to ROUTINES, plus an OUTPUTS entry when the rows go to a new file.
"""

# ---------------------------------------------------------------------------
# Type families: the columns of TYPES. Each names a set of types the spec
# lists in one of its tables (OpenSHMEM 1.5).
# ---------------------------------------------------------------------------
FAMILIES = {
    "rma": "standard RMA types (put, get, p, g, iput, iget, nbi, collectives)",
    "amo_std": "standard AMO types (compare_swap, fetch_inc, inc, fetch_add, add)",
    "amo_ext": "extended AMO types (fetch, set, swap)",
    "amo_bit": "bitwise AMO types (fetch_and, and, fetch_or, or, fetch_xor, xor)",
    "signal": "types of put_signal / put_signal_nbi (the standard RMA types)",
    "red_bit": "team reductions AND, OR, XOR",
    "red_minmax": "team reductions MAX, MIN",
    "red_arith": "team reductions SUM, PROD",
    "toall_bit": "deprecated active-set reductions AND, OR, XOR (_to_all)",
    "toall_minmax": "deprecated active-set reductions MAX, MIN (_to_all)",
    "toall_arith": "deprecated active-set reductions SUM, PROD (_to_all)",
    "p2p": "point-to-point synchronization types (wait_until, test and friends)",
}

# Family shorthands, to keep the rows below on one line each.
_RMA = "rma signal"
_TEAM_ALL = "red_minmax red_arith"
_TEAM_INT = "red_bit red_minmax red_arith"
_TOALL_INT = "toall_bit toall_minmax toall_arith"
_TOALL_REAL = "toall_minmax toall_arith"

# ---------------------------------------------------------------------------
# TYPES: (TYPE, TYPENAME, bits, c11, families)
#   bits     exact width for the <stdint.h> types, None where C leaves it open;
#            the unit test checks it against sizeof.
#   c11      True for the distinct C types a _Generic list may name. Typedefs
#            (int64_t, size_t, ...) are False: they alias one of these, and the
#            selection reaches them through their base type.
#   families space-separated keys of FAMILIES.
# Order is the spec's order for the standard RMA table, then the extra types.
# ---------------------------------------------------------------------------
TYPES = [
    ("float", "float", None, True, _RMA + " amo_ext " + _TEAM_ALL + " " + _TOALL_REAL),
    ("double", "double", None, True, _RMA + " amo_ext " + _TEAM_ALL + " " + _TOALL_REAL),
    ("long double", "longdouble", None, True, _RMA + " " + _TEAM_ALL + " " + _TOALL_REAL),
    ("char", "char", None, True, _RMA + " " + _TEAM_ALL),
    ("signed char", "schar", None, True, _RMA + " " + _TEAM_ALL),
    ("short", "short", None, True, _RMA + " " + _TEAM_ALL + " " + _TOALL_INT + " p2p"),
    ("int", "int", None, True,
     _RMA + " amo_std amo_ext " + _TEAM_ALL + " " + _TOALL_INT + " p2p"),
    ("long", "long", None, True,
     _RMA + " amo_std amo_ext " + _TEAM_ALL + " " + _TOALL_INT + " p2p"),
    ("long long", "longlong", None, True,
     _RMA + " amo_std amo_ext " + _TEAM_ALL + " " + _TOALL_INT + " p2p"),
    ("unsigned char", "uchar", None, True, _RMA + " " + _TEAM_INT),
    ("unsigned short", "ushort", None, True, _RMA + " " + _TEAM_INT + " p2p"),
    ("unsigned int", "uint", None, True,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("unsigned long", "ulong", None, True,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("unsigned long long", "ulonglong", None, True,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("int8_t", "int8", 8, False, _RMA + " " + _TEAM_INT),
    ("int16_t", "int16", 16, False, _RMA + " " + _TEAM_INT),
    ("int32_t", "int32", 32, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("int64_t", "int64", 64, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("uint8_t", "uint8", 8, False, _RMA + " " + _TEAM_INT),
    ("uint16_t", "uint16", 16, False, _RMA + " " + _TEAM_INT),
    ("uint32_t", "uint32", 32, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("uint64_t", "uint64", 64, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("size_t", "size", None, False, _RMA + " amo_std amo_ext " + _TEAM_INT + " p2p"),
    ("ptrdiff_t", "ptrdiff", None, False, _RMA + " amo_std amo_ext " + _TEAM_ALL + " p2p"),
    # Reduction-only types (never RMA): C only, there is no _Complex in C++.
    ("double _Complex", "complexd", None, True, "red_arith toall_arith"),
    ("float _Complex", "complexf", None, True, "red_arith toall_arith"),
]

# ---------------------------------------------------------------------------
# SIZES: the sized forms. (SIZE as it appears in the name, element bytes).
# "mem" is the byte form: shmem_putmem and friends count nelems in bytes.
# ---------------------------------------------------------------------------
SIZES = [("8", 1), ("16", 2), ("32", 4), ("64", 8), ("128", 16)]
MEM = ("mem", 1)

# ---------------------------------------------------------------------------
# OUTPUTS: where generated declarations and definitions go.
#   header  guard and the hand-written header it completes (included at the
#           end of that header; the generated one includes it back, guarded).
# ---------------------------------------------------------------------------
HEADERS = {
    "shmem/include/shoal_typed.h": {
        "guard": "SHOAL_TYPED_H",
        "base": "shmem.h",
        "what": "Typed and sized OpenSHMEM routines and the C11 type-generic macros.",
    },
}
SOURCES = {
    "shmem/api/gen/rma_put.c": {
        "includes": ["shoal_api.h"],
        "what": "Typed and sized put-side RMA wrappers: one call into shoal_api_* each, no logic.",
    },
    "shmem/api/gen/rma_get.c": {
        "includes": ["shoal_api.h"],
        "what": "Typed and sized get-side RMA wrappers: one call into shoal_api_* each, no logic.",
    },
}

# ---------------------------------------------------------------------------
# ROUTINES: one row per routine family and form.
#   name     the C name; {TYPENAME} for typed rows, {SIZE} for sized rows
#            ({SIZE} is 8..128 or "mem").
#   over     "rma", "amo_std", ...: one routine per type of that family;
#            "sized": one per SIZES entry (plus MEM if mem=True).
#   ret      return type; TYPE stands for the element type (void for sized).
#   params   parameter list; TYPE as above.
#   core     the internal function the wrapper calls.
#   args     its arguments. {ctx}: the ctx parameter if ctx is set, else
#            SHMEM_CTX_DEFAULT; {size}: sizeof(TYPE) or the sized width;
#            {routine}: the routine's name as a string literal. When ret is
#            not void the wrapper declares `TYPE val`, passes &val in args,
#            and returns it.
#   ctx      name of the shmem_ctx_t parameter, or None for default-ctx forms.
#   generic  name of the C11 type-generic macro (typed rows only), or None.
#            One row per generic name for now; the ctx forms will share the
#            name and need an arity-dispatching macro in the generator.
#   select   parameter the _Generic selects on; const_ok: also accept a
#            pointer to const of each type (shmem_g reads through source).
#   page     the man page (man/src/<page>.3.in) that documents the row.
#   header, source: keys of HEADERS and SOURCES.
# ---------------------------------------------------------------------------
_RMA_OUT = {"header": "shmem/include/shoal_typed.h", "source": "shmem/api/gen/rma_put.c"}
_GET = {"source": "shmem/api/gen/rma_get.c"}


def _row(**kw):
    row = {"ctx": None, "generic": None, "select": None, "const_ok": False, "mem": False}
    row.update(_RMA_OUT)
    row.update(kw)
    return row


_CONTIG = "TYPE *dest, const TYPE *source, size_t nelems, int pe"
_CONTIG_ARGS = "{ctx}, dest, source, nelems, {size}, pe, {routine}"
_STRIDED = "TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe"
_STRIDED_ARGS = "{ctx}, dest, source, dst, sst, nelems, {size}, pe, {routine}"

ROUTINES = [
    # Blocking contiguous put / get
    _row(name="shmem_{TYPENAME}_put", over="rma", ret="void", params=_CONTIG,
         core="shoal_api_put", args=_CONTIG_ARGS, generic="shmem_put", select="dest",
         page="shmem_put"),
    _row(name="shmem_put{SIZE}", over="sized", mem=True, ret="void", params=_CONTIG,
         core="shoal_api_put", args=_CONTIG_ARGS, page="shmem_put"),
    _row(name="shmem_{TYPENAME}_get", over="rma", ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get", args=_CONTIG_ARGS, generic="shmem_get", select="dest",
         page="shmem_get"),
    _row(name="shmem_get{SIZE}", over="sized", mem=True, ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get", args=_CONTIG_ARGS, page="shmem_get"),
    # Single elements
    _row(name="shmem_{TYPENAME}_p", over="rma", ret="void",
         params="TYPE *dest, TYPE value, int pe",
         core="shoal_api_p", args="{ctx}, dest, &value, {size}, pe, {routine}",
         generic="shmem_p", select="dest", page="shmem_p"),
    _row(name="shmem_{TYPENAME}_g", over="rma", ret="TYPE",
         params="const TYPE *source, int pe",
         **_GET, core="shoal_api_g", args="{ctx}, &val, source, {size}, pe, {routine}",
         generic="shmem_g", select="source", const_ok=True, page="shmem_g"),
    # Strided
    _row(name="shmem_{TYPENAME}_iput", over="rma", ret="void", params=_STRIDED,
         core="shoal_api_iput", args=_STRIDED_ARGS, generic="shmem_iput", select="dest",
         page="shmem_iput"),
    _row(name="shmem_iput{SIZE}", over="sized", ret="void", params=_STRIDED,
         core="shoal_api_iput", args=_STRIDED_ARGS, page="shmem_iput"),
    _row(name="shmem_{TYPENAME}_iget", over="rma", ret="void", params=_STRIDED,
         **_GET, core="shoal_api_iget", args=_STRIDED_ARGS, generic="shmem_iget", select="dest",
         page="shmem_iget"),
    _row(name="shmem_iget{SIZE}", over="sized", ret="void", params=_STRIDED,
         **_GET, core="shoal_api_iget", args=_STRIDED_ARGS, page="shmem_iget"),
    # Non-blocking contiguous
    _row(name="shmem_{TYPENAME}_put_nbi", over="rma", ret="void", params=_CONTIG,
         core="shoal_api_put_nbi", args=_CONTIG_ARGS, generic="shmem_put_nbi",
         select="dest", page="shmem_put_nbi"),
    _row(name="shmem_put{SIZE}_nbi", over="sized", mem=True, ret="void", params=_CONTIG,
         core="shoal_api_put_nbi", args=_CONTIG_ARGS, page="shmem_put_nbi"),
    _row(name="shmem_{TYPENAME}_get_nbi", over="rma", ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get_nbi", args=_CONTIG_ARGS, generic="shmem_get_nbi",
         select="dest", page="shmem_get_nbi"),
    _row(name="shmem_get{SIZE}_nbi", over="sized", mem=True, ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get_nbi", args=_CONTIG_ARGS, page="shmem_get_nbi"),
]

# ---------------------------------------------------------------------------
# UNTYPED: routines declared by hand in shmem/include/shmem.h. Listed here only
# so their man page synopses come from the same place; the generator checks
# that each prototype appears in that header, word for word.
#   (ret, name, params, page, deprecated)
# ---------------------------------------------------------------------------
UNTYPED_HEADER = "shmem/include/shmem.h"
UNTYPED = [
    ("void", "shmem_init", "void", "shmem_init", False),
    ("int", "shmem_init_thread", "int requested, int *provided", "shmem_init_thread", False),
    ("void", "shmem_query_thread", "int *provided", "shmem_query_thread", False),
    ("void", "shmem_finalize", "void", "shmem_finalize", False),
    ("void", "shmem_global_exit", "int status", "shmem_global_exit", False),
    ("int", "shmem_my_pe", "void", "shmem_my_pe", False),
    ("int", "_my_pe", "void", "shmem_my_pe", True),
    ("int", "shmem_n_pes", "void", "shmem_n_pes", False),
    ("int", "_num_pes", "void", "shmem_n_pes", True),
    ("int", "shmem_pe_accessible", "int pe", "shmem_pe_accessible", False),
    ("int", "shmem_addr_accessible", "const void *addr, int pe", "shmem_addr_accessible",
     False),
    ("void *", "shmem_ptr", "const void *dest, int pe", "shmem_ptr", False),
    ("void", "shmem_info_get_version", "int *major, int *minor", "shmem_info_get_version",
     False),
    ("void", "shmem_info_get_name", "char *name", "shmem_info_get_name", False),
    ("void", "start_pes", "int npes", "start_pes", True),
    ("void *", "shmem_malloc", "size_t size", "shmem_malloc", False),
    ("void", "shmem_free", "void *ptr", "shmem_malloc", False),
    ("void *", "shmem_realloc", "void *ptr, size_t size", "shmem_malloc", False),
    ("void *", "shmem_align", "size_t alignment, size_t size", "shmem_malloc", False),
    ("void *", "shmem_calloc", "size_t count, size_t size", "shmem_calloc", False),
    ("void *", "shmem_malloc_with_hints", "size_t size, long hints",
     "shmem_malloc_with_hints", False),
    ("void", "shmem_fence", "void", "shmem_fence", False),
    ("void", "shmem_quiet", "void", "shmem_quiet", False),
    ("void", "shmem_barrier_all", "void", "shmem_barrier_all", False),
    ("void", "shmem_sync_all", "void", "shmem_sync_all", False),
]

# ---------------------------------------------------------------------------
# Man pages written by hand in man/src/<page>.3.in. Every page named by a
# ROUTINES or UNTYPED row must exist; pages with no routine (the overview)
# are listed here.
# ---------------------------------------------------------------------------
EXTRA_PAGES = ["shmem_intro"]

# The line in a man/src/*.3.in file that the generated SYNOPSIS replaces.
SYNOPSIS_MARKER = '.\\" @SHOAL_SYNOPSIS@'

# Test lists emitted as X-macros in tests/gen/shoal_types.h: (macro, family).
TEST_LISTS = [
    ("SHOAL_RMA_TYPES", "rma"),
    ("SHOAL_AMO_STD_TYPES", "amo_std"),
    ("SHOAL_AMO_EXT_TYPES", "amo_ext"),
    ("SHOAL_AMO_BIT_TYPES", "amo_bit"),
    ("SHOAL_SIGNAL_TYPES", "signal"),
    ("SHOAL_REDUCE_BIT_TYPES", "red_bit"),
    ("SHOAL_REDUCE_MINMAX_TYPES", "red_minmax"),
    ("SHOAL_REDUCE_ARITH_TYPES", "red_arith"),
    ("SHOAL_TOALL_BIT_TYPES", "toall_bit"),
    ("SHOAL_TOALL_MINMAX_TYPES", "toall_minmax"),
    ("SHOAL_TOALL_ARITH_TYPES", "toall_arith"),
    ("SHOAL_P2P_TYPES", "p2p"),
]
