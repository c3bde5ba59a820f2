#!/usr/bin/env python3
"""List the C routine names an OpenSHMEM specification defines, one a line, sorted.

Usage: tools/spec-routines.py SPEC_DIR > tests/spec-1.6-routines.txt

SPEC_DIR is a checkout of the specification's sources (openshmem-org/specification
at tag v1.6), or its content/ folder. Nothing of the specification is kept in
Shoal: this script is run by hand, once per version, and only its output (names)
is committed. Python 3, standard library only.

What counts as a routine:
  * every name declared in a C/C++ synopsis (Csynopsis and CsynopsisCol blocks),
    deprecated blocks included, since a deprecated routine must still be provided;
  * TYPENAME expanded over the table the sentence after the block names
    (Table \\ref{label}), narrowed to the types it lists where it says
    "one of {int, long, ...}"; for the reductions, to the types whose row
    allows the routine's operation;
  * SIZE expanded over the sizes the sentence after the block lists.
What does not: the C11 synopses (C11synopsis blocks). Their names are type-generic
macros (C11 _Generic selections), not symbols a library exports, so they are left
out unless a C synopsis declares the same name too (shmem_signal_add, for one).
Fortran synopses are skipped: the Fortran API was removed in 1.5.

The deprecation table of content/backmatter.tex also names routines that no
synopsis shows any more (start_pes, _my_pe, shmalloc, ...). Its rows whose last
supported version is "Current" and whose routine is a C one are added too.
"""
import os
import re
import sys

# TeX markup that wraps a name in the synopses: @\FuncDecl{shmem\_\FuncParam{TYPENAME}\_put}@
# in 1.5 and later, shmem_<TYPENAME>_put in the older files.
_PARAM = re.compile(r"\\FuncParam\{([A-Z]+)\}")
_DECL = re.compile(r"\\FuncDecl\{")
_BLOCK = re.compile(r"\\begin\{(Csynopsis|CsynopsisCol|C11synopsis|Fsynopsis|DeprecateBlock)\}"
                    r"|\\end\{(Csynopsis|CsynopsisCol|C11synopsis|Fsynopsis|DeprecateBlock)\}")
_NAME = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*(?:<[A-Z]+>[A-Za-z0-9_]*)*)\s*\(")
_REF = re.compile(r"Table~?\s*\\ref\{([^}]+)\}")
_OPS = ("and", "or", "xor", "max", "min", "sum", "prod")
_C_TYPES = re.compile(r"\\CTYPE\{([^}]+)\}")


def untex(text):
    """The synopsis text with its name markup taken off."""
    # Change markup of drafts: \newtext{x} is x, \oldtext{x} is gone.
    text = re.sub(r"\\oldtext\{[^{}]*\}", "", text)
    text = re.sub(r"\\newtext\{([^{}]*)\}", r"\1", text)
    text = _PARAM.sub(lambda m: "<%s>" % m.group(1), text)
    text = text.replace("@", "")
    text = _DECL.sub("", text)
    text = text.replace("\\_", "_")
    # \FuncDecl{...} leaves a closing brace after the name: drop braces that close
    # a name (name}( -> name().
    text = re.sub(r"([A-Za-z0-9_>])\}\s*\(", r"\1(", text)
    return text


def read_tables(files):
    """{label: [(TYPE, TYPENAME, {ops} or None)]} from every tabular with a \\label."""
    tables = {}
    for text in files.values():
        for m in re.finditer(r"\\begin\{tabular\}(.*?)\\end\{tabular\}(.*?)\\label\{([^}]+)\}",
                             text, re.S):
            body, between, label = m.group(1), m.group(2), m.group(3)
            if "\\begin{tabular}" in between:
                continue
            rows = []
            for line in body.split("\\\\"):
                cells = [c.strip() for c in re.sub(r"\\hline", "", line).split("&")]
                if len(cells) < 2 or "\\TYPE" in cells[0] or not cells[1]:
                    continue
                typ = cells[0].replace("\\_", "_").strip()
                name = cells[1].strip()
                if not re.fullmatch(r"[a-z0-9]+", name):
                    continue
                ops = None
                if len(cells) > 2:
                    ops = {w.lower() for c in cells[2:] for w in re.findall(r"[A-Z]+", c)}
                rows.append((re.sub(r"\s+", " ", typ), name, ops))
            if rows:
                tables[label] = rows
    return tables


def blocks(text):
    """(kind, body, text after the block up to the next block, deprecated?)."""
    out = []
    depth_dep = 0
    pos = 0
    open_kind, open_at = None, 0
    for m in _BLOCK.finditer(text):
        begin, end = m.group(1), m.group(2)
        if begin == "DeprecateBlock":
            depth_dep += 1
        elif end == "DeprecateBlock":
            depth_dep -= 1
        elif begin:
            open_kind, open_at = begin, m.end()
        elif end and open_kind == end:
            out.append([end, text[open_at:m.start()], m.end(), depth_dep > 0])
            open_kind = None
        pos = m.end()
    # the sentence after each block: up to the next \begin{...} or blank paragraph
    for b in out:
        # a deprecated block's sentence may follow the block's own end
        rest = re.sub(r"^\s*\\end\{DeprecateBlock\}", "", text[b[2]:])
        stop = re.search(r"\\begin\{|\\end\{DeprecateBlock\}|\n\s*\n\s*\n", rest)
        b[2] = rest[:stop.start()] if stop else rest
    return out


def expand(name, where, tables, problems, origin):
    """The names one synopsis name stands for."""
    names = [name]
    if "<SIZE>" in name:
        m = re.search(r"\\SIZE\{\}\s*is one of\s*\\CONST\{([^}]+)\}", where)
        if not m:
            problems.append("%s: %s: no SIZE list after its synopsis" % (origin, name))
            return []
        sizes = [s.strip() for s in m.group(1).split(",")]
        names = [n.replace("<SIZE>", s) for n in names for s in sizes]
    if "<TYPENAME>" in name:
        m = _REF.search(where)
        if not m or m.group(1) not in tables:
            problems.append("%s: %s: no type table named after its synopsis (%s)" %
                            (origin, name, m.group(1) if m else "none"))
            return []
        rows = tables[m.group(1)]
        only = re.search(r"one of\s*\\\{(.*?)\\\}", where, re.S)
        if only:
            wanted = {re.sub(r"\s+", " ", t.strip()) for t in _C_TYPES.findall(only.group(1))}
            rows = [r for r in rows if r[0] in wanted]
        op = next((o for o in _OPS if re.search(r"_%s_(reduce|to_all|inscan|exscan)$" % o,
                                                name)), None)
        if op is not None:
            rows = [r for r in rows if r[2] is None or op in r[2]]
        names = [n.replace("<TYPENAME>", r[1]) for n in names for r in rows]
    return names


def deprecated_current(text):
    """C routines the deprecation table keeps to the current version."""
    names = set()
    # The chapter's heading: "Deprecated API" in 1.5, "Deprecated \\acs{API}" later.
    head = re.search(r"Deprecated\s*(?:\\acs?\{API\}|API)", text)
    m = head and re.search(r"\\begin\{longtable\}(.*?)\\end\{longtable\}",
                           text[head.start():], re.S)
    if not m:
        return names
    for row in m.group(1).split("\\hline"):
        cells = row.split("&")
        if len(cells) < 3 or "Current" not in cells[2]:
            continue
        first = cells[0]
        for part in re.split(r"\\\\", first):
            if "\\CorCpp" not in part:
                continue
            for ref in re.findall(r"\\FuncRef\{((?:[^{}]|\{[^{}]*\})*)\}", part):
                name = untex(ref).strip()
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                    names.add(name)
    return names


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    root = argv[1]
    content = os.path.join(root, "content") if os.path.isdir(os.path.join(root, "content")) \
        else root
    files = {}
    for f in sorted(os.listdir(content)):
        if f.endswith(".tex"):
            with open(os.path.join(content, f), encoding="utf-8", errors="replace") as fh:
                files[f] = fh.read()
    if not files:
        sys.stderr.write("spec-routines: no .tex files in %s\n" % content)
        return 1
    tables = read_tables(files)
    names, c11, problems = set(), set(), []
    for f, text in files.items():
        for kind, body, where, _dep in blocks(text):
            if kind == "Fsynopsis":
                continue
            found = [m.group(1) for m in _NAME.finditer(untex(body))]
            if kind == "C11synopsis":
                c11.update(found)
                continue
            for n in found:
                names.update(expand(n, where, tables, problems, f))
    if "backmatter.tex" in files:
        names.update(deprecated_current(files["backmatter.tex"]))
    for p in problems:
        sys.stderr.write("spec-routines: %s\n" % p)
    left_out = sorted(c11 - names)
    sys.stderr.write("spec-routines: %d routines from %d files; %d C11 generic names left out"
                     " (not symbols): %s\n" % (len(names), len(files), len(left_out),
                                               " ".join(left_out)))
    print("# OpenSHMEM C routines (C11 generic names left out), one a line: made by")
    print("# tools/spec-routines.py from %d files of the specification's content/;" % len(files))
    print("# tests/check-spec-routines.sh checks libshoal against it.")
    for n in sorted(names):
        print(n)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
