#!/usr/bin/env python3
"""Holds the code to the layer rules of docs/design.md (section 1, the block
fenced as ```layers).

Each rule line is either
    PART: PART PART ...        what files of PART may include (besides PART itself)
    <header>: PART PART ...    the only parts that may include a system header
    one-way: FOLDER ...        among the parts in these folders, the rules lead
                               nowhere back: no part reaches itself through them
where a PART is a folder of the source tree; a file belongs to the longest PART
that holds it, and a folder under no PART is not checked. A quoted include
("x.h") is found by its file name among the tree's headers; one that names no
header of the tree (a generated or system one) is not checked. Prints one line
per broken rule (file, the include, what the rule allows; or the circle of
rules that a one-way folder may not hold) and exits 1; exits 0 when every
include keeps to the rules and the rules keep one way.

Usage: tools/check-layers.py [SRCDIR]
"""
import os
import re
import sys

SOURCE_ENDINGS = (".c", ".h", ".cc", ".cu", ".cuh")
SKIP_TOP = {".git", "build", "_build", "_inst", "autom4te.cache"}
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')


def read_rules(design):
    """The ```layers block of design.md: (part rules, system header rules,
    one-way folders)."""
    parts, system, one_way = {}, {}, []
    inside = False
    with open(design, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            text = line.strip()
            if text == "```layers":
                inside = True
                continue
            if inside and text == "```":
                break
            if not inside or not text or text.startswith("#"):
                continue
            left, sep, right = text.partition(":")
            if not sep:
                sys.exit(f"check-layers: {design}:{n}: expected 'PART: PARTS', got '{text}'")
            allowed = right.split()
            if left.strip() == "one-way":
                one_way += allowed
            elif left.startswith("<"):
                system[left.strip("<> ")] = allowed
            else:
                parts[left.strip()] = allowed
    if not parts:
        sys.exit(f"check-layers: {design} has no ```layers block")
    return parts, system, one_way


def under(part, folders):
    return any(part == f or part.startswith(f + "/") for f in folders)


def circles(parts, folders):
    """Each circle of rules among the parts in folders, as a list of parts: a
    part that may include one that may include ... the first."""
    inside = sorted(p for p in parts if under(p, folders))
    found, state = [], {}

    def visit(p, path):
        state[p] = "open"
        path.append(p)
        for q in sorted(parts[p]):
            if q not in parts or not under(q, folders):
                continue
            if state.get(q) == "open":
                found.append(path[path.index(q):] + [q])
            elif q not in state:
                visit(q, path)
        path.pop()
        state[p] = "done"

    for p in inside:
        if p not in state:
            visit(p, [])
    return found


def sources(top):
    for folder, dirs, files in os.walk(top):
        rel = os.path.relpath(folder, top)
        if rel == ".":
            dirs[:] = [d for d in dirs if d not in SKIP_TOP]
        for name in files:
            if name.endswith(SOURCE_ENDINGS):
                yield os.path.normpath(os.path.join(rel, name))


def part_of(path, parts):
    best = None
    for p in parts:
        if (path == p or path.startswith(p + "/")) and (best is None or len(p) > len(best)):
            best = p
    return best


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    parts, system, one_way = read_rules(os.path.join(top, "docs", "design.md"))
    broken = 0
    for circle in circles(parts, one_way):
        print(f"docs/design.md: the layer rules lead back: {' -> '.join(circle)}; "
              f"parts under {', '.join(one_way)} must keep one way")
        broken += 1
    files = list(sources(top))
    headers = {}
    for path in files:
        headers.setdefault(os.path.basename(path), []).append(path)
    for path in files:
        mine = part_of(path, parts)
        with open(os.path.join(top, path), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m is None:
                    continue
                quote, name = m.groups()
                if quote == "<" and name in system:
                    if mine not in system[name] and part_of(path, system[name]) is None:
                        print(f"{path}:{n}: includes <{name}>, which only "
                              f"{', '.join(system[name])} may include")
                        broken += 1
                    continue
                if quote != '"' or mine is None:
                    continue
                found = headers.get(os.path.basename(name))
                if not found:
                    continue
                # The header in the includer's own folder wins, as the compiler finds it.
                here = [h for h in found if os.path.dirname(h) == os.path.dirname(path)]
                target = part_of((here or found)[0], parts)
                if target is None or target == mine or target in parts[mine]:
                    continue
                print(f"{path}:{n}: {mine} includes \"{name}\" of {target}; "
                      f"docs/design.md lets {mine} include only "
                      f"{', '.join(parts[mine]) or 'itself'}")
                broken += 1
    if broken:
        print(f"check-layers: {broken} breach(es) of the layer rules of docs/design.md; "
              "move the code, or change the rules and the design with it")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
