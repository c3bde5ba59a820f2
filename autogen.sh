#!/bin/sh
# Regenerate the build system. Needs autoconf, automake, libtool and pkg-config.
set -e
cd "$(dirname "$0")"
exec autoreconf -fi
