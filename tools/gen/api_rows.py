"""How a row of tools/gen/api_table.py is made: the constructors its tables call,
and the rules that derive the ctx and GPU twins of rows.

Kept out of the table so the table stays data. Output paths and families stay
the table's, passed in: nothing here names a file. It must never import the
generator: what a row means for the outputs is shoal_gen.py's to say.
"""

# A row's keys and what they are when the table leaves them out (api_table.py
# documents each key above ROUTINES).
ROW_DEFAULTS = {"ctx": None, "generic": None, "select": None, "const_ok": False, "mem": False,
                "ret_call": False, "core_ret": None, "only": None, "deprecated": False,
                "op": None, "dev": None, "group": None, "stream": None,
                "x_alias": False, "sizes": None}

# The operand of inc and fetch_inc: a compound literal 1, which device code
# (C++) cannot take; amo() gives their device twins a local `one` instead.
ONE = "&(TYPE){{1}}"


def row(**kw):
    """One ROUTINES row: the defaults, overridden by what the table gives."""
    return dict(ROW_DEFAULTS, **kw)


def dev(core, args, locals=()):
    """A row's device twin: one call to core (gpu/device/shoal_device.cuh) with
    args, as a row's args but with no {ctx}. locals: declarations before the
    call, formatted like args (C++ has no compound literals to pass instead)."""
    return {"core": core, "args": args, "locals": list(locals)}


def amo(name, over, op, ret, params, operand="NULL", compare="NULL", fetch=None, nbi=0,
        dest="dest", **kw):
    """One AMO row: every AMO is one shoal_api_amo call, so a row differs only
    in which of its arguments are given. The device twin is made here too,
    since NVSHMEM has one for every blocking, current AMO and no other."""
    if fetch is None:
        fetch = "&val" if ret != "void" else "NULL"
    args = "{ctx}, %s, %s, %s, %s, %s, {size}, pe, %d, {routine}" % (
        op, dest, operand, compare, fetch, nbi)
    if not nbi and not kw.get("deprecated"):
        one = operand == ONE
        kw["dev"] = dev("shoal_dev_amo", "%s, %s, %s, %s, %s, {size}, pe, {routine}" % (
            op, dest, "&one" if one else operand, compare, fetch),
            ["const TYPE one = 1;"] if one else [])
    if "generic" in kw and "select" not in kw:
        kw["select"] = params.split(",")[0].split("*")[-1]
    return row(name=name, over=over, ret=ret, params=params, core="shoal_api_amo", args=args,
               **kw)


def with_ctx_forms(rows, ctx_source):
    """rows, each followed by its shmem_ctx_ twin where it has one: it passes
    {ctx} and is not deprecated. ctx_source maps a row's source to its twin's."""
    out = []
    for r in rows:
        out.append(r)
        if "{ctx}" in r["args"] and not r["deprecated"]:
            prefix = r["name"].split("_", 1)[0] + "_"
            out.append(dict(r, name=r["name"].replace(prefix, prefix + "ctx_", 1),
                            params="shmem_ctx_t ctx, " + r["params"], ctx="ctx",
                            source=ctx_source[r["source"]]))
    return out


def gpu_twins(rows, gpu, dev_source, dev_over, stream_source, group_page):
    """The GPU twins of the default-context rows: every nvshmem_ device form
    (rows with a dev key), the nvshmemx_ _block and _warp forms (a group key),
    then every nvshmemx_..._on_stream form (a stream key). gpu: the keys every
    GPU row shares; dev_source maps a row's source to its device twin's;
    dev_over maps the families NVSHMEM lists differently; group_page is the
    man page of the group forms."""
    plain = [r for r in rows if not r["ctx"]]
    return ([device_form(r, gpu, dev_source, dev_over) for r in plain if r["dev"]]
            + [group_form(r, gpu, dev_source, dev_over, group_page, group)
               for r in plain if r["group"] for group in ("block", "warp")]
            + [stream_form(r, gpu, dev_over, stream_source) for r in plain if r["stream"]])


def device_form(r, gpu, dev_source, dev_over):
    """The nvshmem_ device twin of r: same parameters (a team is an
    nvshmem_team_t), the call its dev key says. Where r's stream key has a host
    key, the twin is host and device (hd: the host half's core and args)."""
    st = r["stream"] if isinstance(r["stream"], dict) else {}
    return dict(r, **gpu, name=r["name"].replace("shmem_", "nvshmem_", 1), twin=r,
                params=r["params"].replace("shmem_team_t", "nvshmem_team_t"),
                device=True, over=dev_over.get(r["over"], r["over"]),
                core=r["dev"]["core"], args=r["dev"]["args"], locals=r["dev"]["locals"],
                source=dev_source[r["source"]], hd=st.get("host"))


def group_form(r, gpu, dev_source, dev_over, page, group):
    """The nvshmemx_ twin of r that the threads of a block (group "block") or of
    a warp ("warp") make together: r's device twin renamed, calling what r's
    group key says with {warp} 0 or 1, in the _group file beside its twin's, on
    page (or the page the group key names). A sized row's byte form comes too
    (nvshmemx_putmem_block from nvshmemx_put{SIZE}_block)."""
    twin = device_form(r, gpu, dev_source, dev_over)
    return dict(twin, name=twin["name"].replace("nvshmem_", "nvshmemx_", 1) + "_" + group,
                group=group, page=r["group"].get("page", page), hd=None,
                core=r["group"]["core"],
                source=twin["source"].replace(".cu", "_group.cu"),
                args=r["group"]["args"].replace("{warp}", str(int(group == "warp"))))


def stream_form(r, gpu, dev_over, stream_source):
    """The nvshmemx_..._on_stream host twin of r: r's parameters (a team is an
    nvshmem_team_t) and a stream. A wait's stream key is its args: the stream
    waits, so nothing is returned. A collective's is a dict of core, args and
    source: it returns what core returns, as NVSHMEM's do."""
    st = r["stream"] if isinstance(r["stream"], dict) else {
        "core": "shoal_gpu_wait_on_stream", "args": r["stream"], "source": stream_source,
        "ret": "void"}
    ret = st.get("ret", r["ret"])
    return dict(r, **gpu, name=r["name"].replace("shmem_", "nvshmemx_", 1) + "_on_stream",
                twin=r, device=False, over=dev_over.get(r["over"], r["over"]),
                params=r["params"].replace("shmem_team_t", "nvshmem_team_t")
                + ", cudaStream_t stream", ret=ret, ret_call=ret != "void",
                core=st["core"], args=st["args"], locals=[], source=st["source"])
