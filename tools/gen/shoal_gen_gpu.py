"""The GPU outputs of tools/gen/shoal_gen.py, from the GPU_ROUTINES of the API table.

Part of the one generator, kept apart to keep each file small: shoal_gen.py
builds the table (Api) and calls generate() here. Writes the declarations
(gpu/include/nvshmem_typed.h), the device and stream wrappers (gpu/*/gen/*.cu),
the compile check that calls them all (tests/gpu/gen/all_routines.cu), the
lists the tests call and check them from (CPU_TEST: dev_routines on the CPU
engine, and gpu_group for the _block and _warp forms), the tables
the host-only unit test reads (tests/gen/shoal_gpu_tables.h) and the GPU parts
of the man page synopses. The text it shares with the host half
(banner, wrappers, line wrapping) comes from c_emit.py: it must never import
shoal_gen.py, which imports it.
"""

import copy
import re
import sys
import textwrap

from c_emit import BANNER, WIDTH, c_decl, subst_type, wrap, wrapper, xmacro

# The device routines as a list for the CPU engine's test (tests/gpu-cpu), which
# runs gpu/device as host code and needs no CUDA.
CPU_TEST = "tests/gpu-cpu/gen/dev_routines.h"


def device_proto(r, hd="__host__ __device__ "):
    """r's prototype with its execution space: hd for a routine that is host and
    device (the header spells it SHOAL_NVSHMEM_HD, which C compilers drop)."""
    if r.row.get("hd"):
        return hd + r.proto()
    return ("__device__ " if r.row["device"] else "") + r.proto()


def hd_wrapper(r):
    """The definition of a routine that is host and device: the device half is
    the row's call, the host half the call its hd key says, each one return.
    nvcc compiles each half in its own pass; the CPU engine has both and takes
    the device half in a kernel thread (shoal_device.cuh's SHOAL_HD_* macros)."""
    if r.row["locals"]:
        sys.exit("api_table: %s: a host-and-device row takes no locals" % r.name)
    dev = wrapper(r, "__host__ __device__ ")
    host_r = copy.copy(r)
    host_r.row = dict(r.row, core=r.row["hd"]["core"], args=r.row["hd"]["args"])
    host = wrapper(host_r)
    i, j = dev.index("{"), host.index("{")
    # the device call one level deeper, under its test (rewrapped)
    dev_call = " ".join(line.strip() for line in dev[i + 1:-1])
    return (dev[:i + 1] + ["#ifdef SHOAL_HD_DEVICE_HALF", "    if (SHOAL_HD_ON_DEVICE())"]
            + wrap("        " + dev_call) + ["#endif", "#ifdef SHOAL_HD_HOST_HALF"]
            + host[j + 1:-1] + ["#endif", "}"])


def gen_header(api):
    info = api.t.GPU_HEADER
    out = ["/* %s */" % BANNER,
           "/* %s - %s" % (info["path"].split("/")[-1], info["what"]),
           " * Included at the end of %s; including it alone pulls that in first." % info["base"],
           " * The device routines are declared for nvcc and the CPU engine",
           " * (SHOAL_NVSHMEM_DEVICE, from nvshmem.h), the stream forms for C and C++. */",
           "#ifndef %s" % info["guard"], "#define %s" % info["guard"], "",
           '#include "%s"' % info["base"], "#include <cuda_runtime_api.h> /* cudaStream_t */", "",
           "#ifdef __cplusplus", 'extern "C" {', "#endif", "", "#ifdef SHOAL_NVSHMEM_DEVICE"]
    for device in (True, False):
        if not device:
            out += ["", "#endif /* SHOAL_NVSHMEM_DEVICE */", "",
                    "/* Host and device: the collectives NVSHMEM also has on the host, where",
                    " * each runs its device form on a stream of its own and returns when it",
                    " * is done (nvshmem_collectives(3)). Then the stream forms. */"]
        for row, rs in api.gpu_by_row:
            # a host-and-device row is declared where C compilers see it too
            if (row["device"] and not row.get("hd")) != device:
                continue
            pattern = row["name"].replace("{", "").replace("}", "")
            out += ["", "/* %s (man page %s) */" % (pattern, row["page"])]
            for r in rs:
                out += wrap(device_proto(r, "SHOAL_NVSHMEM_HD ") + ";")
    out += ["", "#ifdef __cplusplus", "}", "#endif", "", "#endif /* %s */" % info["guard"], ""]
    return "\n".join(out)


def gen_source(api, path, info):
    rows = [(row, rs) for row, rs in api.gpu_by_row if row["source"] == path]
    cores = sorted({row["core"] for row, _ in rows})
    out = ["/* %s */" % BANNER, "/* %s - %s" % (path.split("/")[-1], info["what"])]
    out += textwrap.wrap("One call into %s each; nothing may be added here. */"
                         % ", ".join(cores), WIDTH, initial_indent=" * ",
                         subsequent_indent=" * ", break_on_hyphens=False) + [""]
    out += ['#include "%s"' % inc for inc in info["includes"]]
    out += ["", "/* C linkage, as nvshmem_typed.h declares them. */", 'extern "C" {']
    for row, rs in rows:
        for r in rs:
            out.append("")
            if row.get("hd"):
                out.extend(hd_wrapper(r))
            else:
                out.extend(wrapper(r, "__device__ " if row["device"] else ""))
    out += ["", '} /* extern "C" */', ""]
    return "\n".join(out)


def parse_param(p):
    """("const short *", "source") from "const short *source"."""
    m = re.match(r"(.*?)\s*(\**)(\w+)$", p.strip())
    base, stars, name = m.groups()
    return (base + " " + stars if stars else base), name


def test_arg(ptype, name):
    """What all_routines.cu passes for one parameter: the call is compiled and
    linked, never run, so any value of the right type will do."""
    if ptype.endswith("*"):
        return "(%s)buf" % ptype
    return {"pe": "pe", "cmp": "NVSHMEM_CMP_EQ", "nelems": "1", "stream": "stream"}.get(
        name, "(%s)0" % ptype)


def test_call(r):
    args = [test_arg(*parse_param(p)) for p in r.params.split(",")]
    return wrap("    %s(%s);" % (r.name, ", ".join(args)))


def gen_test(api):
    kernels = []
    for path in api.t.GPU_SOURCES:
        rs = [r for row, rs in api.gpu_by_row if row["source"] == path and row["device"]
              for r in rs]
        if rs:
            kernels.append(("shoal_test_" + path.split("/")[-1].split(".")[0], path, rs))
    streams = [r for row, rs in api.gpu_by_row if not row["device"] or row.get("hd")
               for r in rs]
    ndev = sum(len(rs) for _, _, rs in kernels)
    out = ["/* %s */" % BANNER,
           "/* all_routines.cu - every generated GPU routine for every type: the kernels call",
           " * each device routine (nvshmem_, and the nvshmemx_ _block and _warp forms),",
           " * shoal_test_streams each nvshmemx_ stream form and host collective, so building",
           " * it (nvcc -rdc=true,",
           " * linked with the GPU library) checks each declaration against its definition.",
           " * Nothing is launched: that needs a heap and nvshmem_init. With a GPU it checks",
           " * that each kernel loads there (the device link resolved every routine for it);",
           " * without one it exits 77. */",
           "#include <stdio.h>", "", "#include <cuda_runtime_api.h>", "",
           '#include "nvshmem.h"', '#include "nvshmemx.h"']
    for name, path, rs in kernels:
        out += ["", "/* %s: %d routines */" % (path, len(rs)),
                "__global__ void %s(void *buf, int pe)" % name, "{"]
        for r in rs:
            out += test_call(r)
        out.append("}")
    out += ["", "/* the stream forms and the host collectives: %d routines */" % len(streams),
            "void shoal_test_streams(void *buf, cudaStream_t stream);",
            "void shoal_test_streams(void *buf, cudaStream_t stream)", "{"]
    for r in streams:
        out += test_call(r)
    out += ["}", "", "int main(void)", "{",
            "    static const struct {", "        const char *name;",
            "        const void *kernel;", "    } kernels[] = {"]
    out += ['        {"%s", (const void *)%s},' % (k, k) for k, _, _ in kernels]
    out += ["    };",
            "    int ndev = 0, fail = 0;", "",
            "    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {",
            '        printf("all_routines: no GPU, skipping\\n");', "        return 77;", "    }",
            "    for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {",
            "        struct cudaFuncAttributes attr;",
            "        cudaError_t rc = cudaFuncGetAttributes(&attr, kernels[i].kernel);", "",
            "        if (rc != cudaSuccess) {",
            '            fprintf(stderr, "all_routines: kernel %s does not load on this GPU: '
            '%s\\n",',
            "                    kernels[i].name, cudaGetErrorString(rc));",
            "            fail = 1;", "        }", "    }",
            '    printf("all_routines: %d kernels calling %d device routines%s, %d stream '
            'forms and host collectives linked\\n",' % (len(kernels), ndev, "%s", len(streams)),
            '           fail ? " (some do not load)" : " load on this GPU");',
            "    return fail;", "}", ""]
    return "\n".join(out)


def is_coll(api, row):
    """Whether row is a device collective: its tests are apart (SHOAL_DEV_COLL_ROUTINES)."""
    return row["source"] in api.t.GPU_COLL_SOURCES


def gen_cpu_test(api):
    rs = [r for row, rs in api.gpu_by_row
          if row["device"] and not row["group"] and not is_coll(api, row) for r in rs]
    groups = [r for row, rs in api.gpu_by_row if row["group"] and not is_coll(api, row)
              for r in rs]
    colls = [r for row, rs in api.gpu_by_row if is_coll(api, row) and row["device"]
             for r in rs]
    streams = [r for row, rs in api.gpu_by_row if is_coll(api, row) and not row["device"]
               for r in rs]
    ops = []
    for r in rs:
        if r.op() not in ops:
            ops.append(r.op())
    counts = ["%s %d" % (op, sum(1 for r in rs if r.op() == op)) for op in ops]
    out = ["/* %s */" % BANNER,
           "/* dev_routines.h - every generated device routine, for the tests that call each",
           " * one and check what it did: the nvshmem_ ones for the CPU engine's dev_routines",
           " * (tests/gpu-cpu/dev_routines.cc), one thread at a time, and the nvshmemx_ _block",
           " * and _warp forms for gpu_group (tests/gpu/gpu_group.cu, on a GPU and on the CPU",
           " * engine), each called by every thread of a block or of a warp; the collectives",
           " * apart, for gpu_coll (tests/gpu/gpu_coll.cu). Per op, the count of nvshmem_",
           " * routines (types and sizes) other than the collectives:"]
    line = " *"
    for c in counts:
        item = " %s," % c if c != counts[-1] else " %s. */" % c
        if len(line) + len(item) > 88:
            out.append(line)
            line = " *"
        line += item
    out += [line, "#ifndef SHOAL_TEST_DEV_ROUTINES_H", "#define SHOAL_TEST_DEV_ROUTINES_H", ""]
    out += xmacro("SHOAL_DEV_ROUTINES",
                  ["%s, %s, %s, %s" % (r.op(), r.ctype, r.size_expr, r.name) for r in rs],
                  "X(OP, TYPE, SIZE, ROUTINE): TYPE void, SIZE in bytes for a sized form")
    out += ["#define SHOAL_DEV_ROUTINES_COUNT %d" % len(rs), ""]
    out += xmacro("SHOAL_DEV_GROUP_ROUTINES",
                  ["%s, %s, %d, %d, %s" % (r.ctype, r.size_expr, r.op().startswith("get"),
                                           r.row["group"] == "warp", r.name) for r in groups],
                  "X(TYPE, SIZE, GET, WARP, ROUTINE): as above; GET 1 for a get, WARP 1 for _warp")
    out += ["#define SHOAL_DEV_GROUP_ROUTINES_COUNT %d" % len(groups), ""]
    out += xmacro("SHOAL_DEV_COLL_ROUTINES",
                  ["%s, %s, %s, %s, %s" % (r.op(), r.ctype, ["THREAD", "BLOCK", "WARP"][
                      ["", "block", "warp"].index(r.row["group"] or "")], r.name, r.twin)
                   for r in colls],
                  "X(OP, TYPE, WHO, ROUTINE, HOST): the device collectives, each with the "
                  "host routine it mirrors; WHO THREAD, BLOCK or WARP")
    out += ["#define SHOAL_DEV_COLL_ROUTINES_COUNT %d" % len(colls), ""]
    out += xmacro("SHOAL_STREAM_COLL_ROUTINES",
                  ["%s, %s, %s, %s" % (r.op(), r.ctype, r.name, r.twin) for r in streams],
                  "X(OP, TYPE, ROUTINE, HOST): the collectives' nvshmemx_ stream forms")
    out += ["#define SHOAL_STREAM_COLL_ROUTINES_COUNT %d" % len(streams), ""]
    hosts = [r for r in colls if r.row.get("hd")]
    out += xmacro("SHOAL_HOST_COLL_ROUTINES",
                  ["%s, %s, %s, %s" % (r.op(), r.ctype, r.name, r.twin) for r in hosts],
                  "X(OP, TYPE, ROUTINE, HOST): the collectives' nvshmem_ host forms (the "
                  "device routines' host halves)")
    out += ["#define SHOAL_HOST_COLL_ROUTINES_COUNT %d" % len(hosts), "",
            "#endif /* SHOAL_TEST_DEV_ROUTINES_H */", ""]
    return "\n".join(out)


def gen_tables(api):
    out = ["/* %s */" % BANNER,
           "/* shoal_gpu_tables.h - the API table's GPU rows as C tables, for host-only unit",
           " * tests (no CUDA): every nvshmem_ device routine and nvshmemx_ stream form with",
           " * the host routine it mirrors, and each device routine's prototype as an",
           " * X-macro the C compiler can compare with its host twin's. The _block and",
           " * _warp forms and the collectives (whose team is an nvshmem_team_t) are not",
           " * here: tests/gpu-cpu/gen/dev_routines.h lists them. */",
           "#ifndef SHOAL_TEST_GPU_TABLES_H", "#define SHOAL_TEST_GPU_TABLES_H", "",
           "#include <stddef.h>", "#include <stdint.h>", "",
           "/* twin: the host routine mirrored, \"\" where the host has none for the type;",
           " * op: the twin row's op; key: TYPENAME or SIZE (8..128, mem); elem_size: the",
           " * element size passed to the engine; is_signed: the signed column passed,",
           " * -1 where none is; stream: 1 for an nvshmemx_ host stream form, 0 for a",
           " * device routine; ret and params: its prototype; twin_params: the parameters",
           " * of the host row it mirrors, for the same type. */",
           "typedef struct {", "    const char *name;", "    const char *twin;",
           "    const char *op;", "    const char *key;", "    size_t elem_size;",
           "    int is_signed;", "    int stream;", "    const char *ret;",
           "    const char *params;", "    const char *twin_params;",
           "} shoal_gpu_routine_info_t;", "",
           "static const shoal_gpu_routine_info_t shoal_gpu_routine_info[] = {"]
    rows = [(row, rs) for row, rs in api.gpu_by_row
            if not row["group"] and not is_coll(api, row)]
    for row, rs in rows:
        twin_params = row["twin"]["params"] if row["twin"] else ""
        for r in rs:
            out.append('    {"%s", "%s", "%s", "%s",' % (r.name, r.twin or "", r.op(), r.key))
            out.append('     %s, %d, %d, "%s",' % (r.size_expr, r.signed if r.uses_signed() else -1,
                                                  int(not row["device"]), r.ret))
            out.append('     "%s",' % r.params)
            out.append('     "%s"},' % subst_type(twin_params, r.ctype))
    out += ["};", "#define SHOAL_GPU_ROUTINE_INFO_COUNT %d" % sum(len(rs) for _, rs in rows), ""]
    twins = [r for row, rs in rows if row["device"] for r in rs if r.twin]
    out += xmacro("SHOAL_GPU_DEVICE_TWINS",
                  ["%s, %s, %s, (%s)" % (r.name, r.twin, r.ret, r.params) for r in twins],
                  "X(ROUTINE, TWIN, RET, (PARAMS)): each device routine with a host twin")
    out += ["#define SHOAL_GPU_DEVICE_TWINS_COUNT %d" % len(twins), "",
            "#endif /* SHOAL_TEST_GPU_TABLES_H */", ""]
    return "\n".join(out)


def synopsis(api, page, deprecated):
    """The GPU parts of a page's SYNOPSIS: its current or its deprecated names,
    the hand-written device ones (GPU_UNTYPED) first."""
    out = []
    for device, what, header in ((True, "NVSHMEM device", "nvshmem.h"),
                                 (False, "NVSHMEM host, on a CUDA stream", "nvshmemx.h")):
        untyped = [u for u in api.gpu_untyped
                   if device and u[3] == page and u[4] == deprecated]
        rows = [(row, rs) for row, rs in api.gpu_by_row
                if row["page"] == page and row["device"] == device
                and row["deprecated"] == deprecated]
        if not rows and not untyped:
            continue
        if any(row.get("hd") for row, _ in rows):
            what = "NVSHMEM host and device"
        out += [".PP", "Deprecated %s:" % what] if deprecated else [".SS " + what]
        out += [".nf", "#include <%s>" % header, ""]
        out += ["__device__ " + c_decl(u[0], u[1], u[2]) + ";" for u in untyped]
        out += [device_proto(r) + ";" for row, rs in rows for r in rs]
        out += [".fi"]
    return out


def page_routines(api, page):
    return ([u[1] for u in api.gpu_untyped if u[3] == page]
            + [r.name for row, rs in api.gpu_by_row if row["page"] == page for r in rs])


def generate(api):
    t = api.t
    files = {t.GPU_HEADER["path"]: gen_header(api)}
    for path, info in sorted(t.GPU_SOURCES.items()):
        files[path] = gen_source(api, path, info)
    files[t.GPU_TEST] = gen_test(api)
    files[CPU_TEST] = gen_cpu_test(api)
    files[t.GPU_TEST_TABLES] = gen_tables(api)
    return files
