#!/usr/bin/env python3
"""Holds the code to the layer rules of docs/design.md (section 1, the block
fenced as ```layers).

Each rule line is either
    PART: PART PART ...        what files of PART may include (besides PART itself)
    <header>: PART PART ...    the only parts that may include a system header
where a PART is a folder of the source tree; a file belongs to the longest PART
that holds it, and a folder under no PART is not checked. A quoted include
("x.h") is found by its file name among the tree's headers; one that names no
header of the tree (a generated or system one) is not checked. Prints one line
per broken rule (file, the include, what the rule allows) and exits 1; exits 0
when every include keeps to the rules.

Usage: tools/check-layers.py [SRCDIR]
"""
import os
import re
import sys

SOURCE_ENDINGS = (".c", ".h", ".cc", ".cu", ".cuh")
SKIP_TOP = {".git", "build", "_build", "_inst", "autom4te.cache"}
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')


def read_rules(design):
    """The ```layers block of design.md: (part rules, system header rules)."""
    parts, system = {}, {}
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
            if left.startswith("<"):
                system[left.strip("<> ")] = allowed
            else:
                parts[left.strip()] = allowed
    if not parts:
        sys.exit(f"check-layers: {design} has no ```layers block")
    return parts, system


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
    parts, system = read_rules(os.path.join(top, "docs", "design.md"))
    files = list(sources(top))
    headers = {}
    for path in files:
        headers.setdefault(os.path.basename(path), []).append(path)
    broken = 0
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
        print(f"check-layers: {broken} include(s) break the layer rules of docs/design.md; "
              "move the code, or change the rules and the design with it")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
