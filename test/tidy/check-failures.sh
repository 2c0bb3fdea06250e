#!/usr/bin/env bash
# Every way sonde-tidy and scripts/tidy-check refuse or fail says so once,
# with a status that is not a pass.
#   test/tidy/check-failures.sh SONDE_TIDY
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sonde_tidy=$(realpath "${1:?usage: check-failures.sh SONDE_TIDY}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
# expect STATUS TEXT COMMAND...: COMMAND exits STATUS and prints TEXT.
expect() {
  local want=$1 text=$2 got
  shift 2
  "$@" >"$work/out" 2>&1
  got=$?
  if ((got != want)) || ! grep -qF -- "$text" "$work/out"; then
    echo "FAIL: $* exited $got (want $want) and printed:"
    cat "$work/out"
    echo "      (wanted: $text)"
    fail=1
  fi
}

# sonde-tidy's own usage errors.
expect 2 "a build directory and at least one file are needed" "$sonde_tidy"
expect 2 "unknown option --bogus" "$sonde_tidy" --bogus x.cpp
expect 2 "-p needs a build directory" "$sonde_tidy" -p
expect 2 "no compile commands in $work/none" "$sonde_tidy" -p "$work/none" x.cpp

# scripts/tidy-check against a build directory whose sonde-tidy is a stand-in.
build=$work/build
mkdir -p "$build/test/tidy"
echo '[]' >"$build/compile_commands.json"
stand_in=$build/test/tidy/sonde-tidy
file=rewriter/spec/Diag.cpp

# 1. Another list of checks than clang-tidy-19's: refused before any run.
printf '#!/bin/sh\necho "    llvm-only-this"\n' >"$stand_in"
chmod +x "$stand_in"
expect 2 "enables other checks than clang-tidy-19" "$root/scripts/tidy-check" "$build" "$file"

# 2. The same checks, but the run dies without a finding (a signal).
cat >"$stand_in" <<SH
#!/bin/sh
[ "\$1" = --list-checks ] && exec "$sonde_tidy" "\$@"
kill -SEGV \$\$
SH
expect 2 "failed (xargs status" "$root/scripts/tidy-check" "$build" "$file"

# 3. The same checks, a finding: reported, status 1.
cat >"$stand_in" <<SH
#!/bin/sh
[ "\$1" = --list-checks ] && exec "$sonde_tidy" "\$@"
echo "$file:1:1: error: seeded [misc-seeded,-warnings-as-errors]"
exit 1
SH
expect 1 "error: seeded" "$root/scripts/tidy-check" "$build" "$file"

# 4. No sonde-tidy built: said, and clang-tidy-19 runs instead.
rm "$stand_in"
printf '#!/bin/sh\nexit 0\n' >"$work/fake-clang-tidy"
chmod +x "$work/fake-clang-tidy"
expect 0 "is not built; running" env CLANG_TIDY="$work/fake-clang-tidy" \
  "$root/scripts/tidy-check" "$build" "$file"

((fail)) && exit 1
echo "check-failures: every failure said, none passed"
