#!/bin/bash
# The series tree KVER has, one a line, each named by the variant it makes
# (lib-series.sh: series_variants): "patched", "fixes" when the tree has a
# fixes series, "next" when it has a next series.  For the Makefile, which
# asks it whether to prepare or build the fixes and next trees.
#
# usage: series-variants.sh KVER
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

KVER=${1:?usage: series-variants.sh KVER}
check_kver "$KVER"
series_variants "$KVER"
