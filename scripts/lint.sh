#!/usr/bin/env bash
# `make lint`: clang with extra warnings over every C file, then cppcheck.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
files=$(find cmodel tests -name '*.c' -not -path 'tests/fuzz/*')
status=0
for f in $files; do
  clang -std=c11 -D_POSIX_C_SOURCE=200809L -fsyntax-only -Wall -Wextra -Werror \
    -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-prototypes \
    -Icmodel/include -Icmodel/src -Itests "$f" || status=1
done
cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
  --std=c11 -Icmodel/include -Icmodel/src cmodel/src || status=1
exit $status
