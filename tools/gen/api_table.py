"""The Shoal API table: the one place where C types and typed routines are listed.

tools/gen/shoal_gen.py turns it into prototypes, wrappers, _Generic selections,
man page synopses and the typed lists the tests loop over. Edit this file, then
run `python3 tools/gen/shoal_gen.py` (or `make regen`) and commit the outputs.
Data only: rows are made by the constructors of api_rows.py (_row, _amo,
_dev below), and this file holds no logic beyond building the lists.

Adding a family later means adding rows to ROUTINES, plus a SOURCES entry
when the rows go to a new file. The GPU routines (nvshmem_* on the device,
nvshmemx_*_on_stream on the host) are twins of host rows: a row's dev, group
and stream keys say how its twins call the GPU engine (GPU_ROUTINES, at the end).
"""

import functools

import api_rows

# ---------------------------------------------------------------------------
# Type families: the columns of TYPES. Each names a set of types the spec
# lists in one of its tables (OpenSHMEM 1.5).
# ---------------------------------------------------------------------------
FAMILIES = {
    "rma": "standard RMA types (put, get, p, g, iput, iget, nbi, collectives)",
    "amo_std": "standard AMO types (compare_swap, fetch_inc, inc, fetch_add, add)",
    "amo_ext": "extended AMO types (fetch, set, swap): the standard ones plus float, double",
    "amo_bit": "bitwise AMO types (fetch_and, and, fetch_or, or, fetch_xor, xor)",
    "signal": "standard RMA types (as put_signal and put_signal_nbi take them)",
    "red_bit": "bitwise reduction types (team and_reduce, or_reduce, xor_reduce)",
    "red_minmax": "min/max reduction types (team max_reduce, min_reduce)",
    "red_arith": "arithmetic reduction types (team sum_reduce, prod_reduce)",
    "toall_bit": "active-set bitwise reduction types (deprecated and, or, xor _to_all)",
    "toall_minmax": "active-set min/max reduction types (deprecated max, min _to_all)",
    "toall_arith": "active-set arithmetic reduction types (deprecated sum, prod _to_all)",
    "p2p": "point-to-point synchronization types (wait_until, test and friends)",
    # The deprecated names exist for fewer types than their replacements.
    "depr_amo": "types the deprecated cswap, fadd, finc, add and inc names take",
    "depr_amo_ext": "types the deprecated swap, fetch and set names take",
    "depr_wait": "types the deprecated shmem_TYPENAME_wait takes",
    # NVSHMEM's list for its device RMA routines: device code has no long double.
    "dev_rma": "standard RMA types less long double (NVSHMEM's device RMA types)",
}

# Family shorthands, to keep the rows below on one line each.
_RMA = "rma signal dev_rma"
_TEAM_ALL = "red_minmax red_arith"
_TEAM_INT = "red_bit red_minmax red_arith"
_TOALL_INT = "toall_bit toall_minmax toall_arith"
_TOALL_REAL = "toall_minmax toall_arith"
_DEPR_INT = " depr_amo depr_amo_ext depr_wait"

# ---------------------------------------------------------------------------
# TYPES: (TYPE, TYPENAME, bits, signed, c11, families)
#   bits     exact width for the <stdint.h> types, None where C leaves it open;
#            the unit test checks it against sizeof.
#   signed   1 for signed integer types, 0 for unsigned ones, None where the
#            question does not arise (floating types, plain char). The wait and
#            test wrappers pass it to the core, which compares accordingly; the
#            reductions' {dt} comes from it (and from the C type's name for the
#            floating, complex and plain char types).
#   c11      True for the distinct C types a _Generic list may name. Typedefs
#            (int64_t, size_t, ...) are False: they alias one of these, and the
#            selection reaches them through their base type. Where a family
#            holds no base type of the same signedness (int32_t among the
#            bitwise AMO types), the selection names the typedef itself.
#   families space-separated keys of FAMILIES.
# Order is the spec's order for the standard RMA table, then the extra types.
# ---------------------------------------------------------------------------
TYPES = [
    ("float", "float", None, None, True,
     _RMA + " amo_ext depr_amo_ext " + _TEAM_ALL + " " + _TOALL_REAL),
    ("double", "double", None, None, True,
     _RMA + " amo_ext depr_amo_ext " + _TEAM_ALL + " " + _TOALL_REAL),
    ("long double", "longdouble", None, None, True,
     "rma signal " + _TEAM_ALL + " " + _TOALL_REAL),
    ("char", "char", None, None, True, _RMA + " " + _TEAM_ALL),
    ("signed char", "schar", None, 1, True, _RMA + " " + _TEAM_ALL),
    ("short", "short", None, 1, True, _RMA + " " + _TEAM_ALL + " " + _TOALL_INT + " p2p depr_wait"),
    ("int", "int", None, 1, True,
     _RMA + " amo_std amo_ext " + _TEAM_ALL + " " + _TOALL_INT + " p2p" + _DEPR_INT),
    ("long", "long", None, 1, True,
     _RMA + " amo_std amo_ext " + _TEAM_ALL + " " + _TOALL_INT + " p2p" + _DEPR_INT),
    ("long long", "longlong", None, 1, True,
     _RMA + " amo_std amo_ext " + _TEAM_ALL + " " + _TOALL_INT + " p2p" + _DEPR_INT),
    ("unsigned char", "uchar", None, 0, True, _RMA + " " + _TEAM_INT),
    ("unsigned short", "ushort", None, 0, True, _RMA + " " + _TEAM_INT + " p2p"),
    ("unsigned int", "uint", None, 0, True,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("unsigned long", "ulong", None, 0, True,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("unsigned long long", "ulonglong", None, 0, True,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("int8_t", "int8", 8, 1, False, _RMA + " " + _TEAM_INT),
    ("int16_t", "int16", 16, 1, False, _RMA + " " + _TEAM_INT),
    ("int32_t", "int32", 32, 1, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("int64_t", "int64", 64, 1, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("uint8_t", "uint8", 8, 0, False, _RMA + " " + _TEAM_INT),
    ("uint16_t", "uint16", 16, 0, False, _RMA + " " + _TEAM_INT),
    ("uint32_t", "uint32", 32, 0, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("uint64_t", "uint64", 64, 0, False,
     _RMA + " amo_std amo_ext amo_bit " + _TEAM_INT + " p2p"),
    ("size_t", "size", None, 0, False, _RMA + " amo_std amo_ext " + _TEAM_INT + " p2p"),
    ("ptrdiff_t", "ptrdiff", None, 1, False, _RMA + " amo_std amo_ext " + _TEAM_ALL + " p2p"),
    # Reduction-only types (never RMA). ISO C++ has no _Complex: the generated
    # header declares their routines for C, and for C++ compilers that take
    # _Complex as an extension (those defining __GNUC__: g++, clang++, nvcc).
    ("double _Complex", "complexd", None, None, True, "red_arith toall_arith"),
    ("float _Complex", "complexf", None, None, True, "red_arith toall_arith"),
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
    # The shmemx_ names Shoal gave the routines OpenSHMEM 1.6 added, before 1.6
    # was its contract: aliases of the shmem_ routines (rows with x_alias).
    "shmem/include/shmemx_typed.h": {
        "guard": "SHMEMX_TYPED_H",
        "base": "shmemx.h",
        "what": "The shmemx_ aliases of the typed and sized OpenSHMEM 1.6 routines, and their C11 "
                "names.",
        "aliases": True,
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
    "shmem/api/gen/amo_std.c": {
        "includes": ["shoal_api.h"],
        "what": "Standard AMO wrappers (compare_swap, fetch_inc, inc, fetch_add, add, _nbi).",
    },
    "shmem/api/gen/amo_ext.c": {
        "includes": ["shoal_api.h"],
        "what": "Extended AMO wrappers (fetch, set, swap and their _nbi forms).",
    },
    "shmem/api/gen/amo_bit.c": {
        "includes": ["shoal_api.h"],
        "what": "Bitwise AMO wrappers (and, or, xor, their fetching and _nbi forms).",
    },
    "shmem/api/gen/amo_depr.c": {
        "includes": ["shoal_api.h"],
        "what": "The AMO names deprecated in OpenSHMEM 1.4 (cswap, fadd, finc, add, inc, swap, "
                "fetch, set).",
    },
    "shmem/api/gen/p2p_wait.c": {
        "includes": ["shoal_api.h"],
        "what": "Blocking point-to-point synchronization wrappers (wait_until and its forms).",
    },
    "shmem/api/gen/p2p_test.c": {
        "includes": ["shoal_api.h"],
        "what": "Non-blocking point-to-point synchronization wrappers (test and its forms).",
    },
    "shmem/api/gen/signal.c": {
        "includes": ["shoal_api.h"],
        "what": "Put-with-signal wrappers, typed and sized, blocking and _nbi.",
    },
    "shmem/api/gen/ctx_rma_put.c": {
        "includes": ["shoal_api.h"],
        "what": "The shmem_ctx_ forms of the put-side RMA wrappers.",
    },
    "shmem/api/gen/ctx_rma_get.c": {
        "includes": ["shoal_api.h"],
        "what": "The shmem_ctx_ forms of the get-side RMA wrappers.",
    },
    "shmem/api/gen/ctx_amo_std.c": {
        "includes": ["shoal_api.h"],
        "what": "The shmem_ctx_ forms of the standard AMO wrappers.",
    },
    "shmem/api/gen/ctx_amo_ext.c": {
        "includes": ["shoal_api.h"],
        "what": "The shmem_ctx_ forms of the extended AMO wrappers.",
    },
    "shmem/api/gen/ctx_amo_bit.c": {
        "includes": ["shoal_api.h"],
        "what": "The shmem_ctx_ forms of the bitwise AMO wrappers.",
    },
    "shmem/api/gen/ctx_signal.c": {
        "includes": ["shoal_api.h"],
        "what": "The shmem_ctx_ forms of the put-with-signal wrappers.",
    },
    "shmem/api/gen/coll.c": {
        "includes": ["shoal_api.h"],
        "what": "Typed team collectives: broadcast, collect, fcollect, alltoall, alltoalls.",
    },
    "shmem/api/gen/coll_aset.c": {
        "includes": ["shoal_api.h"],
        "what": "The deprecated active-set broadcast, collect, fcollect, alltoall and alltoalls, "
                "32 and 64 bits.",
    },
    "shmem/api/gen/reduce.c": {
        "includes": ["shoal_api.h"],
        "what": "Typed team reductions (and, or, xor, max, min, sum, prod _reduce).",
    },
    "shmem/api/gen/rma_block.c": {
        "includes": ["shoal_api.h"],
        "what": "Blocked strided RMA (shmem_ibput, shmem_ibget), typed and sized.",
    },
    "shmem/api/gen/ctx_rma_block.c": {
        "includes": ["shoal_api.h"],
        "what": "The shmem_ctx_ forms of the blocked strided RMA wrappers.",
    },
    "shmem/api/gen/scan.c": {
        "includes": ["shoal_api.h"],
        "what": "Typed team scans (shmem_sum_inscan, shmem_sum_exscan).",
    },
    "shmem/api/gen/reduce_to_all.c": {
        "includes": ["shoal_api.h"],
        "what": "The deprecated active-set reductions (_to_all) over PE_start, logPE_stride, "
                "PE_size.",
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
#            {dt}: how reductions combine TYPE (SHOAL_DT_INT, _UINT, _FLOAT,
#            _COMPLEX, or SHOAL_DT_CHAR for plain char);
#            {routine}: the routine's name as a string literal. When ret is
#            not void the wrapper declares `TYPE val`, passes &val in args,
#            and returns it.
#   ctx      name of the shmem_ctx_t parameter, or None for default-ctx forms.
#            The ctx rows are made from the default-ctx ones below (with_ctx_forms).
#   generic  name of the C11 type-generic macro (typed rows only), or None.
#            At most two rows per name: one without ctx and its ctx twin, in
#            which case the macro takes both arities and picks by whether its
#            first argument is a shmem_ctx_t.
#   select   parameter the _Generic selects on (the first one, or the one
#            after a team); const_ok: also accept a pointer to const of each
#            type (shmem_g reads through source).
#   page     the man page (man/src/<page>.3.in) that documents the row.
#   header, source: keys of HEADERS and SOURCES.
#   ret_call True: the wrapper returns what core returns (cast to ret unless
#            core_ret, the core's return type, is the same), instead of
#            declaring `TYPE val`.
#   only     a TYPENAME: restrict the row to that one type of its family (the
#            deprecated untyped shmem_wait works on long only).
#   deprecated  True for names the spec lists as deprecated: the man page
#            synopsis lists them apart.
#   x_alias  True: each routine also has the shmemx_ name Shoal gave it before
#            OpenSHMEM 1.6 (shmem_int_ibput: shmemx_int_ibput; ctx rows:
#            shmemx_ctx_), the same code (weak alias, and a pshmemx_ name),
#            declared in shmemx_typed.h with a C11 shmemx_ name for the generic.
#   op       the routine's operation as the unit tests name it; default: the
#            generic name without "shmem_", else the core without "shoal_api_".
#            ctx rows get "ctx_" in front (ctx_put, ctx_atomic_fetch_add).
#   dev      the row's nvshmem_ device twin, made by _dev (api_rows.dev), or None;
#            group: likewise its nvshmemx_ _block and _warp twins, whose args
#            hold {warp} (0 for the block, 1 for the warp), or None;
#            stream: the args of its nvshmemx_..._on_stream host twin, or None.
#            See GPU_ROUTINES at the end.
# In args, TYPE is replaced as in params, {signed} is the type's signed
# column, and literal braces are doubled (`&(TYPE){{1}}`).
# ---------------------------------------------------------------------------
# A host row goes to shoal_typed.h, and to rma_put.c unless it names its source.
_RMA_OUT = {"header": "shmem/include/shoal_typed.h", "source": "shmem/api/gen/rma_put.c"}
_GET = {"source": "shmem/api/gen/rma_get.c"}
_row = functools.partial(api_rows.row, **_RMA_OUT)
_amo = functools.partial(api_rows.amo, **_RMA_OUT)
_dev = api_rows.dev

_CONTIG = "TYPE *dest, const TYPE *source, size_t nelems, int pe"
_CONTIG_ARGS = "{ctx}, dest, source, nelems, {size}, pe, {routine}"
_STRIDED = "TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe"
_STRIDED_ARGS = "{ctx}, dest, source, dst, sst, nelems, {size}, pe, {routine}"

# A blocking copy completes an _nbi one too: the device twins of the _nbi rows
# make the same call as the blocking ones, and so do their group twins.
_DEV_PUT = _dev("shoal_dev_put", "dest, source, nelems * {size}, pe, {routine}")
_DEV_GET = _dev("shoal_dev_get", "dest, source, nelems * {size}, pe, {routine}")
_GROUP_PUT = _dev("shoal_dev_put_group", "dest, source, nelems * {size}, pe, {warp}, {routine}")
_GROUP_GET = _dev("shoal_dev_get_group", "dest, source, nelems * {size}, pe, {warp}, {routine}")

ROUTINES = [
    # Blocking contiguous put / get
    _row(name="shmem_{TYPENAME}_put", over="rma", ret="void", params=_CONTIG,
         core="shoal_api_put", args=_CONTIG_ARGS, generic="shmem_put", select="dest",
         page="shmem_put", dev=_DEV_PUT, group=_GROUP_PUT),
    _row(name="shmem_put{SIZE}", over="sized", mem=True, ret="void", params=_CONTIG,
         core="shoal_api_put", args=_CONTIG_ARGS, page="shmem_put", dev=_DEV_PUT,
         group=_GROUP_PUT),
    _row(name="shmem_{TYPENAME}_get", over="rma", ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get", args=_CONTIG_ARGS, generic="shmem_get", select="dest",
         page="shmem_get", dev=_DEV_GET, group=_GROUP_GET),
    _row(name="shmem_get{SIZE}", over="sized", mem=True, ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get", args=_CONTIG_ARGS, page="shmem_get", dev=_DEV_GET,
         group=_GROUP_GET),
    # Single elements
    _row(name="shmem_{TYPENAME}_p", over="rma", ret="void",
         params="TYPE *dest, TYPE value, int pe",
         core="shoal_api_p", args="{ctx}, dest, &value, {size}, pe, {routine}",
         generic="shmem_p", select="dest", page="shmem_p",
         dev=_dev("shoal_dev_put", "dest, &value, {size}, pe, {routine}")),
    _row(name="shmem_{TYPENAME}_g", over="rma", ret="TYPE",
         params="const TYPE *source, int pe",
         **_GET, core="shoal_api_g", args="{ctx}, &val, source, {size}, pe, {routine}",
         generic="shmem_g", select="source", const_ok=True, page="shmem_g",
         dev=_dev("shoal_dev_get", "&val, source, {size}, pe, {routine}")),
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
         select="dest", page="shmem_put_nbi", dev=_DEV_PUT, group=_GROUP_PUT),
    _row(name="shmem_put{SIZE}_nbi", over="sized", mem=True, ret="void", params=_CONTIG,
         core="shoal_api_put_nbi", args=_CONTIG_ARGS, page="shmem_put_nbi", dev=_DEV_PUT,
         group=_GROUP_PUT),
    _row(name="shmem_{TYPENAME}_get_nbi", over="rma", ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get_nbi", args=_CONTIG_ARGS, generic="shmem_get_nbi",
         select="dest", page="shmem_get_nbi", dev=_DEV_GET, group=_GROUP_GET),
    _row(name="shmem_get{SIZE}_nbi", over="sized", mem=True, ret="void", params=_CONTIG,
         **_GET, core="shoal_api_get_nbi", args=_CONTIG_ARGS, page="shmem_get_nbi", dev=_DEV_GET,
         group=_GROUP_GET),
]


# ---------------------------------------------------------------------------
# Atomic memory operations. Every wrapper is one shoal_api_amo call:
#   (ctx, op, dest, operand, compare, fetch, size, pe, nbi, routine)
# inc and fetch_inc are ADD with an operand of 1; fetch_nbi forms pass the
# caller's fetch pointer and nbi=1 (fetch is written by the next quiet). _amo
# (api_rows.amo) makes a row from the arguments that differ, and its device
# twin where NVSHMEM has one (not for _nbi AMOs, nor for deprecated names).
# ---------------------------------------------------------------------------
_ONE = api_rows.ONE
_STD = {"source": "shmem/api/gen/amo_std.c"}
_EXT = {"source": "shmem/api/gen/amo_ext.c"}
_BIT = {"source": "shmem/api/gen/amo_bit.c"}
_DEPR = {"source": "shmem/api/gen/amo_depr.c", "deprecated": True}

ROUTINES += [
    # Standard AMOs
    _amo("shmem_{TYPENAME}_atomic_compare_swap", "amo_std", "SHOAL_AMO_CSWAP", "TYPE",
         "TYPE *dest, TYPE cond, TYPE value, int pe", operand="&value", compare="&cond",
         generic="shmem_atomic_compare_swap", page="shmem_atomic_compare_swap", **_STD),
    _amo("shmem_{TYPENAME}_atomic_fetch_inc", "amo_std", "SHOAL_AMO_ADD", "TYPE",
         "TYPE *dest, int pe", operand=_ONE,
         generic="shmem_atomic_fetch_inc", page="shmem_atomic_fetch_inc", **_STD),
    _amo("shmem_{TYPENAME}_atomic_inc", "amo_std", "SHOAL_AMO_ADD", "void",
         "TYPE *dest, int pe", operand=_ONE,
         generic="shmem_atomic_inc", page="shmem_atomic_inc", **_STD),
    _amo("shmem_{TYPENAME}_atomic_fetch_add", "amo_std", "SHOAL_AMO_ADD", "TYPE",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_atomic_fetch_add", page="shmem_atomic_fetch_add", **_STD),
    _amo("shmem_{TYPENAME}_atomic_add", "amo_std", "SHOAL_AMO_ADD", "void",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_atomic_add", page="shmem_atomic_add", **_STD),
    _amo("shmem_{TYPENAME}_atomic_compare_swap_nbi", "amo_std", "SHOAL_AMO_CSWAP", "void",
         "TYPE *fetch, TYPE *dest, TYPE cond, TYPE value, int pe", operand="&value",
         compare="&cond", fetch="fetch", nbi=1,
         generic="shmem_atomic_compare_swap_nbi", page="shmem_atomic_compare_swap", **_STD),
    _amo("shmem_{TYPENAME}_atomic_fetch_inc_nbi", "amo_std", "SHOAL_AMO_ADD", "void",
         "TYPE *fetch, TYPE *dest, int pe", operand=_ONE, fetch="fetch", nbi=1,
         generic="shmem_atomic_fetch_inc_nbi", page="shmem_atomic_fetch_inc", **_STD),
    _amo("shmem_{TYPENAME}_atomic_fetch_add_nbi", "amo_std", "SHOAL_AMO_ADD", "void",
         "TYPE *fetch, TYPE *dest, TYPE value, int pe", operand="&value", fetch="fetch", nbi=1,
         generic="shmem_atomic_fetch_add_nbi", page="shmem_atomic_fetch_add", **_STD),
    # Extended AMOs: fetch reads through a const pointer, so the selection takes both.
    _amo("shmem_{TYPENAME}_atomic_fetch", "amo_ext", "SHOAL_AMO_FETCH", "TYPE",
         "const TYPE *source, int pe", dest="(void *)source",
         generic="shmem_atomic_fetch", const_ok=True, page="shmem_atomic_fetch", **_EXT),
    _amo("shmem_{TYPENAME}_atomic_set", "amo_ext", "SHOAL_AMO_SET", "void",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_atomic_set", page="shmem_atomic_set", **_EXT),
    _amo("shmem_{TYPENAME}_atomic_swap", "amo_ext", "SHOAL_AMO_SWAP", "TYPE",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_atomic_swap", page="shmem_atomic_swap", **_EXT),
    _amo("shmem_{TYPENAME}_atomic_fetch_nbi", "amo_ext", "SHOAL_AMO_FETCH", "void",
         "TYPE *fetch, const TYPE *source, int pe", dest="(void *)source", fetch="fetch", nbi=1,
         generic="shmem_atomic_fetch_nbi", page="shmem_atomic_fetch", **_EXT),
    _amo("shmem_{TYPENAME}_atomic_swap_nbi", "amo_ext", "SHOAL_AMO_SWAP", "void",
         "TYPE *fetch, TYPE *dest, TYPE value, int pe", operand="&value", fetch="fetch", nbi=1,
         generic="shmem_atomic_swap_nbi", page="shmem_atomic_swap", **_EXT),
]

# Bitwise AMOs: three operations, each fetching, non-fetching and fetching _nbi.
for _op in ("and", "or", "xor"):
    _OP = "SHOAL_AMO_" + _op.upper()
    ROUTINES += [
        _amo("shmem_{TYPENAME}_atomic_fetch_" + _op, "amo_bit", _OP, "TYPE",
             "TYPE *dest, TYPE value, int pe", operand="&value",
             generic="shmem_atomic_fetch_" + _op, page="shmem_atomic_fetch_" + _op, **_BIT),
        _amo("shmem_{TYPENAME}_atomic_" + _op, "amo_bit", _OP, "void",
             "TYPE *dest, TYPE value, int pe", operand="&value",
             generic="shmem_atomic_" + _op, page="shmem_atomic_" + _op, **_BIT),
        _amo("shmem_{TYPENAME}_atomic_fetch_%s_nbi" % _op, "amo_bit", _OP, "void",
             "TYPE *fetch, TYPE *dest, TYPE value, int pe", operand="&value", fetch="fetch",
             nbi=1, generic="shmem_atomic_fetch_%s_nbi" % _op, page="shmem_atomic_fetch_" + _op,
             **_BIT),
    ]

# Deprecated AMO names (OpenSHMEM 1.4): the same calls as their replacements,
# for the types the spec still lists them with, C11 selections included.
ROUTINES += [
    _amo("shmem_{TYPENAME}_cswap", "depr_amo", "SHOAL_AMO_CSWAP", "TYPE",
         "TYPE *dest, TYPE cond, TYPE value, int pe", operand="&value", compare="&cond",
         generic="shmem_cswap", page="shmem_atomic_compare_swap", **_DEPR),
    _amo("shmem_{TYPENAME}_finc", "depr_amo", "SHOAL_AMO_ADD", "TYPE", "TYPE *dest, int pe",
         operand=_ONE, generic="shmem_finc", page="shmem_atomic_fetch_inc", **_DEPR),
    _amo("shmem_{TYPENAME}_inc", "depr_amo", "SHOAL_AMO_ADD", "void", "TYPE *dest, int pe",
         operand=_ONE, generic="shmem_inc", page="shmem_atomic_inc", **_DEPR),
    _amo("shmem_{TYPENAME}_fadd", "depr_amo", "SHOAL_AMO_ADD", "TYPE",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_fadd", page="shmem_atomic_fetch_add", **_DEPR),
    _amo("shmem_{TYPENAME}_add", "depr_amo", "SHOAL_AMO_ADD", "void",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_add", page="shmem_atomic_add", **_DEPR),
    _amo("shmem_{TYPENAME}_fetch", "depr_amo_ext", "SHOAL_AMO_FETCH", "TYPE",
         "const TYPE *source, int pe", dest="(void *)source",
         generic="shmem_fetch", const_ok=True, page="shmem_atomic_fetch", **_DEPR),
    _amo("shmem_{TYPENAME}_set", "depr_amo_ext", "SHOAL_AMO_SET", "void",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_set", page="shmem_atomic_set", **_DEPR),
    _amo("shmem_{TYPENAME}_swap", "depr_amo_ext", "SHOAL_AMO_SWAP", "TYPE",
         "TYPE *dest, TYPE value, int pe", operand="&value",
         generic="shmem_swap", page="shmem_atomic_swap", **_DEPR),
]

# ---------------------------------------------------------------------------
# Point-to-point synchronization. Every wrapper is one shoal_api_sync call:
#   (ivars, nelems, status, indices, cmp, values, vector, size, signed, sel,
#    block, routine)
# The single-variable forms are nelems 1 with no status. The core returns
# what the _any, _some and test forms return.
# ---------------------------------------------------------------------------
_ONE_P = "TYPE *ivar, int cmp, TYPE cmp_value"
_SET_P = "TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value"
_SOME_P = "TYPE *ivars, size_t nelems, size_t *indices, const int *status, int cmp, TYPE cmp_value"
_VSET_P = "TYPE *ivars, size_t nelems, const int *status, int cmp, const TYPE *cmp_values"
_VSOME_P = ("TYPE *ivars, size_t nelems, size_t *indices, const int *status, int cmp, "
            "const TYPE *cmp_values")
# (suffix, ret of wait_until, ret of test, params, nelems, status, indices, values, vector, sel)
_P2P_FORMS = [
    ("", "void", "int", _ONE_P, "1", "NULL", "NULL", "&cmp_value", 0, "ONE"),
    ("_all", "void", "int", _SET_P, "nelems", "status", "NULL", "&cmp_value", 0, "ALL"),
    ("_any", "size_t", "size_t", _SET_P, "nelems", "status", "NULL", "&cmp_value", 0, "ANY"),
    ("_some", "size_t", "size_t", _SOME_P, "nelems", "status", "indices", "&cmp_value", 0, "SOME"),
    ("_all_vector", "void", "int", _VSET_P, "nelems", "status", "NULL", "cmp_values", 1, "ALL"),
    ("_any_vector", "size_t", "size_t", _VSET_P, "nelems", "status", "NULL", "cmp_values", 1,
     "ANY"),
    ("_some_vector", "size_t", "size_t", _VSOME_P, "nelems", "status", "indices", "cmp_values", 1,
     "SOME"),
]
# The device twins pass the same set to shoal_dev_sync as a shoal_wait_set_t.
_WAIT_SET = "const shoal_wait_set_t set = {{%s, %s, {size}, {signed}, %s, %s, %s, %d}};"
_DEV_SYNC = "&set, SHOAL_SEL_%s, %d, %s, {routine}"
# The stream twin of a single-variable wait.
_STREAM_ARGS = "ivar, %s, &cmp_value, {size}, {signed}, stream, {routine}"
for _kind, _block, _file in (("wait_until", 1, "p2p_wait.c"), ("test", 0, "p2p_test.c")):
    for _sfx, _wret, _tret, _params, _n, _st, _ix, _vals, _vec, _sel in _P2P_FORMS:
        _ret = _wret if _block else _tret
        _ivars = "ivar" if _n == "1" else "ivars"
        ROUTINES.append(_row(
            name="shmem_{TYPENAME}_%s%s" % (_kind, _sfx), over="p2p", ret=_ret, params=_params,
            core="shoal_api_sync", ret_call=_ret != "void", core_ret="size_t",
            args="%s, %s, %s, %s, cmp, %s, %d, {size}, {signed}, SHOAL_SEL_%s, %d, {routine}"
                 % (_ivars, _n, _st, _ix, _vals, _vec, _sel, _block),
            generic="shmem_%s%s" % (_kind, _sfx), select=_ivars,
            page="shmem_%s%s" % (_kind, _sfx), source="shmem/api/gen/" + _file,
            dev=_dev("shoal_dev_sync", _DEV_SYNC % (_sel, _block, _ix),
                     [_WAIT_SET % (_ivars, _n, _st, "cmp", _vals, _vec)]),
            stream=_STREAM_ARGS % "cmp" if _block and _sel == "ONE" else None))

# Deprecated waits: shmem_TYPENAME_wait(ivar, cmp_value) is wait_until with
# SHMEM_CMP_NE; the untyped shmem_wait and shmem_wait_until work on long.
_WAIT_ARGS = "ivar, 1, NULL, NULL, %s, &cmp_value, 0, {size}, {signed}, SHOAL_SEL_ONE, 1, {routine}"
_P2P_DEPR = {"source": "shmem/api/gen/p2p_wait.c", "deprecated": True, "core": "shoal_api_sync"}
ROUTINES += [
    _row(name="shmem_{TYPENAME}_wait", over="depr_wait", ret="void",
         params="TYPE *ivar, TYPE cmp_value", args=_WAIT_ARGS % "SHMEM_CMP_NE", op="wait",
         page="shmem_wait", **_P2P_DEPR,
         dev=_dev("shoal_dev_sync", _DEV_SYNC % ("ONE", 1, "NULL"),
                  [_WAIT_SET % ("ivar", "1", "NULL", "SHOAL_CMP_NE", "&cmp_value", 0)]),
         stream=_STREAM_ARGS % "SHOAL_CMP_NE"),
    _row(name="shmem_wait", over="p2p", only="long", ret="void",
         params="TYPE *ivar, TYPE cmp_value", args=_WAIT_ARGS % "SHMEM_CMP_NE", op="wait",
         page="shmem_wait", **_P2P_DEPR),
    _row(name="shmem_wait_until", over="p2p", only="long", ret="void", params=_ONE_P,
         args=_WAIT_ARGS % "cmp", op="wait_until", page="shmem_wait_until", **_P2P_DEPR),
]

# ---------------------------------------------------------------------------
# Put with signal: typed over the standard RMA types, sized, and _nbi.
# ---------------------------------------------------------------------------
_SIG_P = ("TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
          "int sig_op, int pe")
_SIG_ARGS = "{ctx}, dest, source, nelems, {size}, sig_addr, signal, sig_op, pe, %d, {routine}"
# The device twins: the copy, a system fence, the signal's atomic (a blocking copy
# completes an _nbi one too).
_DEV_SIG = _dev("shoal_dev_put_signal",
                "dest, source, nelems * {size}, sig_addr, signal, sig_op, pe, {routine}")
_SIG = {"source": "shmem/api/gen/signal.c", "core": "shoal_api_put_signal", "ret": "void",
        "params": _SIG_P, "page": "shmem_put_signal", "dev": _DEV_SIG}
ROUTINES += [
    _row(name="shmem_{TYPENAME}_put_signal", over="signal", args=_SIG_ARGS % 0,
         generic="shmem_put_signal", select="dest", **_SIG),
    _row(name="shmem_put{SIZE}_signal", over="sized", mem=True, args=_SIG_ARGS % 0,
         op="put_signal", **_SIG),
    _row(name="shmem_{TYPENAME}_put_signal_nbi", over="signal", args=_SIG_ARGS % 1,
         generic="shmem_put_signal_nbi", select="dest", **_SIG),
    _row(name="shmem_put{SIZE}_signal_nbi", over="sized", mem=True, args=_SIG_ARGS % 1,
         op="put_signal_nbi", **_SIG),
]

# ---------------------------------------------------------------------------
# Blocked strided RMA (OpenSHMEM 1.6): nblocks blocks of bsize elements; block
# i starts at element i * sst of source and i * dst of dest, so a stride of
# bsize is contiguous. Typed over the standard RMA types, and sized (no mem
# form, as the spec has none). x_alias: Shoal's earlier shmemx_ names too.
# ---------------------------------------------------------------------------
_X = {"header": "shmem/include/shoal_typed.h", "source": "shmem/api/gen/rma_block.c",
      "x_alias": True}
_BLOCKED = ("TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, "
            "size_t nblocks, int pe")
_BLOCKED_ARGS = "{ctx}, dest, source, dst, sst, bsize, nblocks, {size}, pe, {routine}"
for _dir in ("put", "get"):
    _IB = dict(_X, ret="void", params=_BLOCKED, core="shoal_api_ib" + _dir, args=_BLOCKED_ARGS,
               page="shmem_ib" + _dir, op="ib" + _dir)
    ROUTINES += [
        _row(name="shmem_{TYPENAME}_ib" + _dir, over="rma", generic="shmem_ib" + _dir,
             select="dest", **_IB),
        _row(name="shmem_ib%s{SIZE}" % _dir, over="sized", **_IB),
    ]

# ---------------------------------------------------------------------------
# Context forms: every row so far that passes {ctx} gets a shmem_ctx_ twin
# that takes the context first: same page, same C11 name (the macro takes both
# arities), wrappers in the ctx_ sources. The deprecated names have none.
# ---------------------------------------------------------------------------
_CTX_SOURCE = {
    "shmem/api/gen/rma_put.c": "shmem/api/gen/ctx_rma_put.c",
    "shmem/api/gen/rma_get.c": "shmem/api/gen/ctx_rma_get.c",
    "shmem/api/gen/amo_std.c": "shmem/api/gen/ctx_amo_std.c",
    "shmem/api/gen/amo_ext.c": "shmem/api/gen/ctx_amo_ext.c",
    "shmem/api/gen/amo_bit.c": "shmem/api/gen/ctx_amo_bit.c",
    "shmem/api/gen/signal.c": "shmem/api/gen/ctx_signal.c",
    "shmem/api/gen/rma_block.c": "shmem/api/gen/ctx_rma_block.c",
}
ROUTINES = api_rows.with_ctx_forms(ROUTINES, _CTX_SOURCE)

# ---------------------------------------------------------------------------
# Team collectives (OpenSHMEM 1.5): each wrapper is one shoal_api_* call in
# elements of sizeof(TYPE), and returns what it returns. The untyped mem forms
# are hand-written (UNTYPED below); the 32 and 64 active-set forms follow.
# ---------------------------------------------------------------------------
_COLL = {"source": "shmem/api/gen/coll.c", "ret": "int", "ret_call": True, "core_ret": "int",
         "select": "dest"}


def _dev_coll(core, args, page, stream):
    """A collective's device twin and its _block and _warp forms: args hold %s
    for who calls (SHOAL_DEV_THREAD, or the group's {warp}: SHOAL_DEV_BLOCK 0,
    SHOAL_DEV_WARP 1); the group forms stay on the twin's page. stream: the
    args of its nvshmemx_..._on_stream form (shoal_gpu_coll_on_stream); the
    device twin's host half (NVSHMEM's host form of the same name) passes the
    same but the stream to shoal_gpu_coll_host."""
    return {"dev": _dev(core, args % "SHOAL_DEV_THREAD"),
            "group": {"core": core, "args": args % "{warp}", "page": page},
            "stream": {"core": "shoal_gpu_coll_on_stream", "args": stream,
                       "source": "gpu/host/gen/coll_stream.cu",
                       "host": {"core": "shoal_gpu_coll_host",
                                "args": stream.replace(", stream, {routine}", ", {routine}")}}}
_TEAM_CONTIG = "shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems"
ROUTINES += [
    _row(name="shmem_{TYPENAME}_broadcast", over="rma", params=_TEAM_CONTIG + ", int PE_root",
         core="shoal_api_broadcast",
         args="team, dest, source, nelems, {size}, PE_root, {routine}",
         generic="shmem_broadcast", page="shmem_broadcast",
         **_dev_coll("shoal_dev_broadcast", "team, dest, source, nelems, {size}, PE_root, %s, "
                     "{routine}", "shmem_broadcast",
                     "SHOAL_GPU_COLL_BROADCAST, team, dest, source, nelems, {size}, PE_root, 0, "
                     "0, stream, {routine}"), **_COLL),
    _row(name="shmem_{TYPENAME}_collect", over="rma", params=_TEAM_CONTIG,
         core="shoal_api_collect", args="team, dest, source, nelems, {size}, 0, {routine}",
         generic="shmem_collect", page="shmem_collect", **_COLL),
    _row(name="shmem_{TYPENAME}_fcollect", over="rma", params=_TEAM_CONTIG,
         core="shoal_api_collect", args="team, dest, source, nelems, {size}, 1, {routine}",
         generic="shmem_fcollect", page="shmem_fcollect",
         **_dev_coll("shoal_dev_fcollect", "team, dest, source, nelems, {size}, %s, {routine}",
                     "shmem_fcollect",
                     "SHOAL_GPU_COLL_FCOLLECT, team, dest, source, nelems, {size}, 0, 0, 0, "
                     "stream, {routine}"), **_COLL),
    _row(name="shmem_{TYPENAME}_alltoall", over="rma", params=_TEAM_CONTIG,
         core="shoal_api_alltoall", args="team, dest, source, nelems, {size}, {routine}",
         generic="shmem_alltoall", page="shmem_alltoall",
         **_dev_coll("shoal_dev_alltoall", "team, dest, source, nelems, {size}, %s, {routine}",
                     "shmem_alltoall",
                     "SHOAL_GPU_COLL_ALLTOALL, team, dest, source, nelems, {size}, 0, 0, 0, "
                     "stream, {routine}"), **_COLL),
    _row(name="shmem_{TYPENAME}_alltoalls", over="rma",
         params="shmem_team_t team, TYPE *dest, const TYPE *source, ptrdiff_t dst, "
                "ptrdiff_t sst, size_t nelems",
         core="shoal_api_alltoalls",
         args="team, dest, source, dst, sst, nelems, {size}, {routine}",
         generic="shmem_alltoalls", page="shmem_alltoalls", **_COLL),
]

# The deprecated active-set forms of the same collectives, 32 and 64 bits: one
# shoal_api_aset_* call each (the pSync is checked there).
_ASET_P = "int PE_start, int logPE_stride, int PE_size, long *pSync"
_ASET_A = "PE_start, logPE_stride, PE_size, pSync, {routine}"
_ASET_OUT = {"over": "sized", "sizes": ("32", "64"), "ret": "void", "deprecated": True,
             "source": "shmem/api/gen/coll_aset.c"}
ROUTINES += [
    _row(name="shmem_broadcast{SIZE}", op="as_broadcast",
         params="TYPE *dest, const TYPE *source, size_t nelems, int PE_root, " + _ASET_P,
         core="shoal_api_aset_broadcast",
         args="dest, source, nelems, {size}, PE_root, " + _ASET_A, page="shmem_broadcast",
         **_ASET_OUT),
    _row(name="shmem_collect{SIZE}", op="as_collect", params="TYPE *dest, const TYPE *source, size_t nelems, "
         + _ASET_P, core="shoal_api_aset_collect",
         args="dest, source, nelems, {size}, 0, " + _ASET_A, page="shmem_collect", **_ASET_OUT),
    _row(name="shmem_fcollect{SIZE}", op="as_fcollect", params="TYPE *dest, const TYPE *source, size_t nelems, "
         + _ASET_P, core="shoal_api_aset_collect",
         args="dest, source, nelems, {size}, 1, " + _ASET_A, page="shmem_fcollect", **_ASET_OUT),
    _row(name="shmem_alltoall{SIZE}", op="as_alltoall", params="TYPE *dest, const TYPE *source, size_t nelems, "
         + _ASET_P, core="shoal_api_aset_alltoalls",
         args="dest, source, 1, 1, nelems, {size}, " + _ASET_A, page="shmem_alltoall",
         **_ASET_OUT),
    _row(name="shmem_alltoalls{SIZE}", op="as_alltoalls",
         params="TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, "
         + _ASET_P, core="shoal_api_aset_alltoalls",
         args="dest, source, dst, sst, nelems, {size}, " + _ASET_A, page="shmem_alltoalls",
         **_ASET_OUT),
]

# Reductions: the team form (with a C11 name) and the deprecated active-set
# _to_all form of each operation, on one page. pWrk is the caller's; the core
# does not need it.
_RED_P = "shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce"
_TOALL_P = ("TYPE *dest, const TYPE *source, int nreduce, int PE_start, int logPE_stride, "
            "int PE_size, TYPE *pWrk, long *pSync")
for _op, _fam in (("and", "bit"), ("or", "bit"), ("xor", "bit"), ("max", "minmax"),
                  ("min", "minmax"), ("sum", "arith"), ("prod", "arith")):
    _OP = "SHOAL_RED_" + _op.upper()
    ROUTINES += [
        _row(name="shmem_{TYPENAME}_%s_reduce" % _op, over="red_" + _fam, ret="int",
             params=_RED_P, core="shoal_api_reduce", ret_call=True, core_ret="int",
             args="team, dest, source, nreduce, %s, {dt}, {size}, {routine}" % _OP,
             generic="shmem_%s_reduce" % _op, select="dest", page="shmem_%s_reduce" % _op,
             source="shmem/api/gen/reduce.c",
             **_dev_coll("shoal_dev_reduce", "team, dest, source, nreduce, {size}, " + _OP
                         + ", {dt}, %s, {routine}", "shmem_%s_reduce" % _op,
                         "SHOAL_GPU_COLL_REDUCE, team, dest, source, nreduce, {size}, 0, "
                         + _OP + ", {dt}, stream, {routine}")),
        _row(name="shmem_{TYPENAME}_%s_to_all" % _op, over="toall_" + _fam, ret="void",
             params=_TOALL_P, core="shoal_api_reduce_to_all",
             args="dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync, "
                  "%s, {dt}, {size}, {routine}" % _OP,
             op="%s_to_all" % _op, deprecated=True, page="shmem_%s_reduce" % _op,
             source="shmem/api/gen/reduce_to_all.c"),
    ]

# Scans (OpenSHMEM 1.6): prefix sums over a team, for the types the SUM
# reduction takes; inclusive counts the PE's own source, exclusive does not.
for _kind, _excl in (("inscan", 0), ("exscan", 1)):
    ROUTINES.append(_row(
        name="shmem_{TYPENAME}_sum_" + _kind, over="red_arith", ret="int", params=_TEAM_CONTIG,
        core="shoal_api_scan", ret_call=True, core_ret="int",
        args="team, dest, source, nelems, %d, {dt}, {size}, {routine}" % _excl,
        generic="shmem_sum_" + _kind, select="dest", page="shmem_sum_inscan",
        op="sum_" + _kind, header="shmem/include/shoal_typed.h",
        source="shmem/api/gen/scan.c", x_alias=True))

# ---------------------------------------------------------------------------
# UNTYPED: routines declared by hand in shmem/include/shmem.h. Listed here only
# so their man page synopses come from the same place; the generator checks
# that each prototype appears in that header, word for word.
#   (ret, name, params, page, deprecated)
# ---------------------------------------------------------------------------
UNTYPED_HEADER = "shmem/include/shmem.h"
# Parameter lists the untyped collectives share: the deprecated active-set
# barrier and sync take _ASET.
_ASET = "int PE_start, int logPE_stride, int PE_size, long *pSync"
_TEAM_MEM = "shmem_team_t team, void *dest, const void *source, size_t nelems"
UNTYPED = [
    ("void", "shmem_init", "void", "shmem_init", False),
    ("int", "shmem_init_thread", "int requested, int *provided", "shmem_init_thread", False),
    ("void", "shmem_query_thread", "int *provided", "shmem_query_thread", False),
    ("void", "shmem_query_initialized", "int *initialized", "shmem_query_initialized", False),
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
    # Profiling control (spec section "OpenSHMEM Profiling Interface")
    ("void", "shmem_pcontrol", "const int level, ...", "shmem_pcontrol", False),
    # Cache management, deprecated in 1.3 and still listed (spec: shmem_cache.tex)
    ("void", "shmem_clear_cache_inv", "void", "shmem_cache", True),
    ("void", "shmem_set_cache_inv", "void", "shmem_cache", True),
    ("void", "shmem_clear_cache_line_inv", "void *dest", "shmem_cache", True),
    ("void", "shmem_set_cache_line_inv", "void *dest", "shmem_cache", True),
    ("void", "shmem_udcflush", "void", "shmem_cache", True),
    ("void", "shmem_udcflush_line", "void *dest", "shmem_cache", True),
    ("void *", "shmem_malloc", "size_t size", "shmem_malloc", False),
    ("void", "shmem_free", "void *ptr", "shmem_malloc", False),
    ("void *", "shmem_realloc", "void *ptr, size_t size", "shmem_malloc", False),
    ("void *", "shmem_align", "size_t alignment, size_t size", "shmem_malloc", False),
    # The pre-1.2 names of the four above (spec annex, deprecation table)
    ("void *", "shmalloc", "size_t size", "shmem_malloc", True),
    ("void", "shfree", "void *ptr", "shmem_malloc", True),
    ("void *", "shrealloc", "void *ptr, size_t size", "shmem_malloc", True),
    ("void *", "shmemalign", "size_t alignment, size_t size", "shmem_malloc", True),
    ("void *", "shmem_calloc", "size_t count, size_t size", "shmem_calloc", False),
    ("void *", "shmem_malloc_with_hints", "size_t size, long hints",
     "shmem_malloc_with_hints", False),
    ("void", "shmem_fence", "void", "shmem_fence", False),
    ("void", "shmem_quiet", "void", "shmem_quiet", False),
    ("void", "shmem_barrier_all", "void", "shmem_barrier_all", False),
    ("void", "shmem_sync_all", "void", "shmem_sync_all", False),
    ("uint64_t", "shmem_signal_fetch", "const uint64_t *sig_addr", "shmem_signal_fetch", False),
    ("uint64_t", "shmem_signal_wait_until", "uint64_t *sig_addr, int cmp, uint64_t cmp_value",
     "shmem_signal_wait_until", False),
    ("void", "shmem_set_lock", "long *lock", "shmem_set_lock", False),
    ("void", "shmem_clear_lock", "long *lock", "shmem_set_lock", False),
    ("int", "shmem_test_lock", "long *lock", "shmem_set_lock", False),
    # Contexts
    ("int", "shmem_ctx_create", "long options, shmem_ctx_t *ctx", "shmem_ctx_create", False),
    ("void", "shmem_ctx_destroy", "shmem_ctx_t ctx", "shmem_ctx_destroy", False),
    ("int", "shmem_ctx_get_team", "shmem_ctx_t ctx, shmem_team_t *team", "shmem_ctx_get_team",
     False),
    ("void", "shmem_ctx_fence", "shmem_ctx_t ctx", "shmem_fence", False),
    ("void", "shmem_ctx_quiet", "shmem_ctx_t ctx", "shmem_quiet", False),
    # Teams
    ("int", "shmem_team_my_pe", "shmem_team_t team", "shmem_team_my_pe", False),
    ("int", "shmem_team_n_pes", "shmem_team_t team", "shmem_team_n_pes", False),
    ("int", "shmem_team_get_config",
     "shmem_team_t team, long config_mask, shmem_team_config_t *config",
     "shmem_team_get_config", False),
    ("int", "shmem_team_translate_pe", "shmem_team_t src_team, int src_pe, shmem_team_t dest_team",
     "shmem_team_translate_pe", False),
    ("int", "shmem_team_split_strided",
     "shmem_team_t parent_team, int start, int stride, int size, "
     "const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team",
     "shmem_team_split_strided", False),
    ("int", "shmem_team_split_2d",
     "shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config, "
     "long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config, "
     "long yaxis_mask, shmem_team_t *yaxis_team",
     "shmem_team_split_2d", False),
    ("void", "shmem_team_destroy", "shmem_team_t team", "shmem_team_destroy", False),
    ("int", "shmem_team_create_ctx", "shmem_team_t team, long options, shmem_ctx_t *ctx",
     "shmem_team_create_ctx", False),
    ("void *", "shmem_team_ptr", "shmem_team_t team, const void *dest, int pe", "shmem_team_ptr",
     False),
    ("int", "shmem_team_sync", "shmem_team_t team", "shmem_team_sync", False),
    # Collectives: the untyped team forms, and the deprecated active-set forms
    # (typed team forms and reductions are ROUTINES rows).
    ("void", "shmem_barrier", _ASET, "shmem_barrier", True),
    ("void", "shmem_sync", _ASET, "shmem_sync", True),
    ("int", "shmem_broadcastmem",
     "shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root",
     "shmem_broadcast", False),
    ("int", "shmem_collectmem", _TEAM_MEM, "shmem_collect", False),
    ("int", "shmem_fcollectmem", _TEAM_MEM, "shmem_fcollect", False),
    ("int", "shmem_alltoallmem", _TEAM_MEM, "shmem_alltoall", False),
    ("int", "shmem_alltoallsmem",
     "shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, "
     "size_t nelems", "shmem_alltoalls", False),
]

# The untyped routines OpenSHMEM 1.6 added.
_SIG_UPD = "uint64_t *sig_addr, uint64_t signal, int pe"
_SESSION = ("shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config, "
            "long config_mask")
UNTYPED += [
    ("void", "shmem_signal_add", _SIG_UPD, "shmem_signal_add", False),
    ("void", "shmem_ctx_signal_add", "shmem_ctx_t ctx, " + _SIG_UPD, "shmem_signal_add", False),
    ("void", "shmem_signal_set", _SIG_UPD, "shmem_signal_set", False),
    ("void", "shmem_ctx_signal_set", "shmem_ctx_t ctx, " + _SIG_UPD, "shmem_signal_set", False),
    ("void", "shmem_pe_quiet", "const int *target_pes, size_t npes", "shmem_pe_quiet", False),
    ("void", "shmem_ctx_pe_quiet", "shmem_ctx_t ctx, const int *target_pes, size_t npes",
     "shmem_pe_quiet", False),
    ("void", "shmem_ctx_session_start", _SESSION, "shmem_ctx_session_start", False),
    ("void", "shmem_ctx_session_stop", "shmem_ctx_t ctx", "shmem_ctx_session_start", False),
]

# UNTYPED_X: the same for shmem/include/shmemx.h: Shoal's own shmemx_wtime, and
# the shmemx_ names Shoal gave the routines above before 1.6 was its contract,
# aliases of them (listed as deprecated on their pages).
UNTYPED_X_HEADER = "shmem/include/shmemx.h"
UNTYPED_X = [("double", "shmemx_wtime", "void", "shmemx_wtime", False)] + [
    (u[0], u[1].replace("shmem_", "shmemx_", 1), u[2].replace("shmem_ctx_session_config_t",
                                                                "shmemx_ctx_session_config_t"),
     u[3], True) for u in UNTYPED[-8:]]

# ---------------------------------------------------------------------------
# Man pages written by hand in man/src/<page>.3.in. Every page named by a
# ROUTINES or UNTYPED row must exist; pages with no routine of their own (the
# overview, the profiling interface) are listed here.
# ---------------------------------------------------------------------------
EXTRA_PAGES = ["shmem_intro", "shmem_profiling"]

# The line in a man/src/*.3.in file that the generated SYNOPSIS replaces.
SYNOPSIS_MARKER = '.\\" @SHOAL_SYNOPSIS@'

# Test lists emitted as X-macros in tests/gen/shoal_types.h: (macro, families).
# "a -b" lists the types of family a that are not in family b.
TEST_LISTS = [
    ("SHOAL_RMA_TYPES", "rma"),
    ("SHOAL_AMO_STD_TYPES", "amo_std"),
    # Only what the extended routines add to the standard types: float, double.
    ("SHOAL_AMO_EXT_TYPES", "amo_ext -amo_std"),
    ("SHOAL_AMO_EXT_ALL_TYPES", "amo_ext"),
    ("SHOAL_AMO_BIT_TYPES", "amo_bit"),
    ("SHOAL_SIGNAL_TYPES", "signal"),
    ("SHOAL_REDUCE_BIT_TYPES", "red_bit"),
    ("SHOAL_REDUCE_MINMAX_TYPES", "red_minmax"),
    ("SHOAL_REDUCE_ARITH_TYPES", "red_arith"),
    ("SHOAL_TOALL_BIT_TYPES", "toall_bit"),
    ("SHOAL_TOALL_MINMAX_TYPES", "toall_minmax"),
    ("SHOAL_TOALL_ARITH_TYPES", "toall_arith"),
    ("SHOAL_P2P_TYPES", "p2p"),
    ("SHOAL_DEPR_AMO_TYPES", "depr_amo"),
    ("SHOAL_DEPR_AMO_EXT_TYPES", "depr_amo_ext"),
    ("SHOAL_DEPR_WAIT_TYPES", "depr_wait"),
]

# Lists emitted with the signed column as a third argument, X(TYPE, TYPENAME,
# IS_SIGNED), for the tests of routines that compare values.
TEST_LISTS_SIGNED = [
    ("SHOAL_P2P_TYPES_SIGNED", "p2p"),
]

# Lists emitted with the kind of arithmetic as a third argument, X(TYPE,
# TYPENAME, KIND), for the tests that check reductions against a serial
# computation. KIND is 'i' (signed integer), 'u' (unsigned), 'f' (real
# floating), 'c' (complex), or SHOAL_CHAR_KIND for plain char ('i' or 'u' as
# the compiler has it).
TEST_LISTS_KIND = [
    ("SHOAL_REDUCE_BIT_TYPES_KIND", "red_bit"),
    ("SHOAL_REDUCE_MINMAX_TYPES_KIND", "red_minmax"),
    ("SHOAL_REDUCE_ARITH_TYPES_KIND", "red_arith"),
    ("SHOAL_TOALL_BIT_TYPES_KIND", "toall_bit"),
    ("SHOAL_TOALL_MINMAX_TYPES_KIND", "toall_minmax"),
    ("SHOAL_TOALL_ARITH_TYPES_KIND", "toall_arith"),
]

# ---------------------------------------------------------------------------
# GPU (issue 5): the nvshmem_ device routines, their nvshmemx_ _block and _warp
# forms, and the nvshmemx_..._on_stream host routines. Each is the twin of a
# default-context ROUTINES row with a dev, group or stream key: same page (the
# group forms: GPU_GROUP_PAGE), same parameters (a stream form adds the stream)
# and return type, one call into the GPU engine with no logic. No C11 names.
#   twin     the host row it mirrors (None for a routine with no typed host
#            row); its op is the twin's op.
#   locals   declarations the wrapper makes before the call (see api_rows.dev).
#   group    "block" or "warp" for a group form, else None.
# NVSHMEM's type lists differ from the host's in two places (_DEV_OVER): its
# RMA and put-with-signal routines leave out long double, and its deprecated
# nvshmem_TYPENAME_wait takes every point-to-point type.
# ---------------------------------------------------------------------------
GPU_HEADER = {
    "path": "gpu/include/nvshmem_typed.h",
    "guard": "NVSHMEM_TYPED_H",
    "base": "nvshmem.h",
    "what": "The typed nvshmem_ device routines and the nvshmemx_ stream forms.",
}
GPU_SOURCES = {
    "gpu/device/gen/rma.cu": {
        "includes": ["shoal_device.cuh", "nvshmem.h"],
        "what": "Device RMA: typed, sized put, get, p, g, put_signal and their _nbi forms.",
    },
    "gpu/device/gen/rma_group.cu": {
        "includes": ["shoal_device.cuh", "nvshmem.h"],
        "what": "Device RMA shared by a block or a warp: typed, sized _block, _warp forms.",
    },
    "gpu/device/gen/amo.cu": {
        "includes": ["shoal_device.cuh", "nvshmem.h"],
        "what": "Device atomics: the standard, extended and bitwise AMOs.",
    },
    "gpu/device/gen/p2p.cu": {
        "includes": ["shoal_device.cuh", "nvshmem.h"],
        "what": "Device point-to-point synchronization: wait_until, test and their forms.",
    },
    "gpu/device/gen/coll.cu": {
        "includes": ["shoal_device.cuh", "shoal_dev_host.h", "shoal_red.h", "nvshmem.h"],
        "what": "Typed team collectives, in kernels and on the host.",
    },
    "gpu/device/gen/coll_group.cu": {
        "includes": ["shoal_device.cuh", "shoal_red.h", "nvshmem.h"],
        "what": "Device team collectives made by a block or a warp: their _block, _warp forms.",
    },
    "gpu/host/gen/coll_stream.cu": {
        "includes": ["shoal_gpu_host.h", "shoal_red.h", "nvshmem.h"],
        "what": "Host routines that make a team collective in a CUDA stream's order.",
    },
    "gpu/host/gen/stream.cu": {
        "includes": ["shoal_gpu_host.h", "shoal_wait.h", "nvshmem.h"],
        "what": "Host routines that make a CUDA stream wait on a symmetric variable.",
    },
}
# The compile and link check of every GPU routine, built by tests/gpu.
GPU_TEST = "tests/gpu/gen/all_routines.cu"
# The GPU rows as C tables for the host-only unit test (tests/unit/check_gpu_table.c).
GPU_TEST_TABLES = "tests/gen/shoal_gpu_tables.h"

_DEV_SOURCE = {
    "shmem/api/gen/rma_put.c": "gpu/device/gen/rma.cu",
    "shmem/api/gen/rma_get.c": "gpu/device/gen/rma.cu",
    "shmem/api/gen/amo_std.c": "gpu/device/gen/amo.cu",
    "shmem/api/gen/amo_ext.c": "gpu/device/gen/amo.cu",
    "shmem/api/gen/amo_bit.c": "gpu/device/gen/amo.cu",
    "shmem/api/gen/p2p_wait.c": "gpu/device/gen/p2p.cu",
    "shmem/api/gen/p2p_test.c": "gpu/device/gen/p2p.cu",
    "shmem/api/gen/signal.c": "gpu/device/gen/rma.cu",
    "shmem/api/gen/coll.c": "gpu/device/gen/coll.cu",
    "shmem/api/gen/reduce.c": "gpu/device/gen/coll.cu",
}
# The collectives' device files: the CPU engine's tests list their routines apart.
GPU_COLL_SOURCES = ("gpu/device/gen/coll.cu", "gpu/device/gen/coll_group.cu",
                    "gpu/host/gen/coll_stream.cu")
# NVSHMEM's reductions take no long double and no complex type: the RMA list less
# long double is exactly the min/max and sum/prod types left.
_DEV_OVER = {"rma": "dev_rma", "signal": "dev_rma", "depr_wait": "p2p", "red_minmax": "dev_rma",
             "red_arith": "dev_rma"}
_GPU = {"generic": None, "select": None, "const_ok": False, "ctx": None, "dev": None,
        "group": None, "stream": None, "header": GPU_HEADER["path"]}
_STREAM_SOURCE = "gpu/host/gen/stream.cu"
# The page of every _block and _warp form, typed, sized or untyped.
GPU_GROUP_PAGE = "nvshmemx_putmem_block"
GPU_ROUTINES = api_rows.gpu_twins(ROUTINES, _GPU, _DEV_SOURCE, _DEV_OVER, _STREAM_SOURCE,
                                  GPU_GROUP_PAGE) + [
    # The untyped shmem_signal_wait_until has no typed row to mirror.
    _row(**dict(_GPU, name="nvshmemx_signal_wait_until_on_stream", over="p2p", only="uint64",
                ret="void", params="TYPE *sig_addr, int cmp, TYPE cmp_value, cudaStream_t stream",
                core="shoal_gpu_wait_on_stream",
                args="sig_addr, cmp, &cmp_value, {size}, {signed}, stream, {routine}",
                op="signal_wait_until", page="shmem_signal_wait_until", twin=None,
                device=False, locals=[], source=_STREAM_SOURCE)),
]

# GPU_UNTYPED: the untyped GPU device routines declared by hand in
# gpu/include/nvshmem.h that a generated page documents, as UNTYPED (same
# columns). (The byte forms of the group copies, nvshmemx_putmem_block and its
# kin, are generated from the sized rows' group twins.)
GPU_UNTYPED_HEADER = "gpu/include/nvshmem.h"
GPU_UNTYPED = []
# The byte forms of the device collectives, on their host twins' pages.
_TEAM_MEM_DEV = "nvshmem_team_t team, void *dest, const void *source, size_t nelems"
GPU_UNTYPED += [("int", _pre + _coll + "mem" + _group, _TEAM_MEM_DEV + _extra,
                 "shmem_" + _coll, False)
                for _coll, _extra in (("broadcast", ", int PE_root"), ("fcollect", ""),
                                      ("alltoall", ""))
                for _pre, _group in (("nvshmem_", ""), ("nvshmemx_", "_block"),
                                     ("nvshmemx_", "_warp"))]
