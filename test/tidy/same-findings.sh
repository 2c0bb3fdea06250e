#!/usr/bin/env bash
# sonde-tidy reports what clang-tidy-19 reports, with the project's
# .clang-tidy, on a file seeded with one finding per check family and a
# header seeded with findings that neither may report (no header filter).
#   test/tidy/same-findings.sh SONDE_TIDY
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sonde_tidy=$(realpath "${1:?usage: same-findings.sh SONDE_TIDY}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/.clang-tidy" "$work/"
cat >"$work/seeded.h" <<'H'
#include <string>
inline int header_function(int x) { return x; } // naming: not reported
inline void headerCopies(const std::string S) { (void)S; }
H
cat >"$work/seeded.cpp" <<'C'
#include "seeded.h"
#include <string>
#include <utility>
#include <vector>
int bad_function_name(int x) { return x; }
void copies(const std::vector<std::string> Big) { (void)Big; }
int moved() {
  std::string S = "a";
  std::string T = std::move(S);
  return static_cast<int>(S.size() + T.size());
}
int assignInIf(int A) {
  if (A = 3)
    return 1;
  for (std::string S : std::vector<std::string>{"x"})
    A += static_cast<int>(S.size());
  return A + header_function(1);
}
C
cat >"$work/compile_commands.json" <<J
[{"directory": "$work", "file": "$work/seeded.cpp",
  "arguments": ["clang++", "-std=c++17", "-Wall", "-c", "seeded.cpp"]}]
J
cd "$work"
findings() { { grep -E '(warning|error):' || true; } | sed 's/,-warnings-as-errors//' | sort -u; }
set +e
"$sonde_tidy" -p "$work" seeded.cpp >new.log 2>&1
new_status=$?
clang-tidy-19 --quiet -p "$work" --warnings-as-errors='*' seeded.cpp >old.log 2>&1
set -e
findings <new.log >new.txt
findings <old.log >old.txt
fail=0
if ! diff -u old.txt new.txt; then
  echo "FAIL: sonde-tidy's findings differ from clang-tidy-19's (- clang-tidy, + sonde-tidy)"
  fail=1
fi
for check in readability-identifier-naming performance-unnecessary-value-param \
  bugprone-use-after-move bugprone-assignment-in-if-condition \
  clang-diagnostic-parentheses performance-for-range-copy misc-use-internal-linkage; do
  grep -q "\[$check\]" new.txt || { echo "FAIL: no $check finding"; fail=1; }
done
if grep -q 'seeded.h' new.txt; then
  echo "FAIL: a finding in the header was reported"
  fail=1
fi
if ((new_status != 1)); then
  echo "FAIL: sonde-tidy exited $new_status with findings (want 1)"
  fail=1
fi
((fail)) && { cat new.log; exit 1; }
echo "same-findings: $(wc -l <new.txt) findings, the same as clang-tidy-19's"
