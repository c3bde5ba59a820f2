#!/usr/bin/env python3
"""The tarball holds every file of the source tree that a build read.

Usage: check-dist-deps.py SRCDIR BUILDDIR DISTDIR

Reads the compilers' dependency files in BUILDDIR (.deps/*.Po and *.Plo: each
object's source and every header it included) and checks that each file they
name inside SRCDIR, but outside BUILDDIR, is in DISTDIR (the unpacked tarball).
make distcheck runs it as its distcheck-hook: under configure
--enable-quick-check the tarball's own build compiles only the programs of the
quick tests, and this check covers the others, as far as BUILDDIR has built
them (CI builds all of them first: tools/run-tests.sh). Exit 0 when nothing is
missing, 1 with one line per missing file otherwise.
"""
import os
import sys


def dep_files(builddir):
    """The dependency files under builddir."""
    for root, dirs, files in os.walk(builddir):
        # the tarball's own trees (distcheck's, under BUILDDIR) are not this build
        dirs[:] = [d for d in dirs if not d.startswith("_") and not d.startswith("shoal-")]
        if os.path.basename(root) != ".deps":
            continue
        for name in files:
            if name.endswith((".Po", ".Plo")):
                yield os.path.join(root, name)


def named_paths(dep):
    """The paths a dependency file names, each made absolute: relative ones are
    relative to the directory the compiler ran in, the nearest one above .deps
    with a Makefile (gen/.deps/x.Plo belongs to an object of gen/, built from the
    directory above)."""
    base = os.path.dirname(os.path.dirname(dep))
    while not os.path.isfile(os.path.join(base, "Makefile")) and os.path.dirname(base) != base:
        base = os.path.dirname(base)
    with open(dep, encoding="utf-8", errors="replace") as f:
        text = f.read().replace("\\\n", " ")
    for word in text.split():
        if word.endswith(":") or word.startswith("#"):
            continue
        yield os.path.normpath(os.path.join(base, word))


def main(argv):
    if len(argv) != 4:
        print("usage: check-dist-deps.py SRCDIR BUILDDIR DISTDIR", file=sys.stderr)
        return 2
    srcdir, builddir, distdir = (os.path.realpath(a) for a in argv[1:])
    wanted = set()
    ndeps = 0
    for dep in dep_files(builddir):
        ndeps += 1
        for path in named_paths(dep):
            path = os.path.realpath(path)
            if path.startswith(builddir + os.sep) or not path.startswith(srcdir + os.sep):
                continue
            wanted.add(os.path.relpath(path, srcdir))
    missing = sorted(p for p in wanted if not os.path.isfile(os.path.join(distdir, p)))
    for p in missing:
        print(f"check-dist-deps: {p} is read by the build in {builddir} but not in the tarball")
    if missing:
        return 1
    print(f"check-dist-deps: the tarball holds all {len(wanted)} source files that "
          f"{ndeps} objects of {builddir} read")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
