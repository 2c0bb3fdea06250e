// Calls of [[noreturn]] functions (exit, abort, longjmp, a user's die())
// are not call sites: the region would never close, and wrapping the call
// hid [[noreturn]] from g++'s flow analysis (-Winfinite-recursion,
// -Wreturn-type: errors under -Werror). The noreturn function's own body
// is instrumented like any other.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %syntax-gcc -Wall -Wextra -Werror %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "*"
// SPEC:     category: compute
// SPEC:   - at: "* > *()"
// SPEC:     category: user.call

#include <csetjmp>
#include <cstdio>
#include <cstdlib>

[[noreturn]] void die(const char *why) {
  // CHECK: {{^}}{{\[\[noreturn\]\]}} void die(const char *why) { static ::sonde::SiteTable {{.*}} ::sonde::InsertedRegion
  std::puts(why);
  std::exit(1);
  // CHECK: {{^}}  std::exit(1);{{$}}
  // DIAG: noreturn.cpp:[[@LINE-2]]:3: warning: probe '* > *()' skipped: call of 'exit' does not return [sonde-unsupported]
}

int checked(int x) {
  if (x >= 0)
    return x;
  die("negative");
  // CHECK: {{^}}  die("negative");{{$}}
}

static std::jmp_buf env;
void unwind(int depth) {
  if (depth == 0)
    std::longjmp(env, 1);
  // CHECK: {{^}}    std::longjmp(env, 1);{{$}}
  unwind(depth - 1);
  // CHECK: {{^}}  ((void)::sonde::InsertedRegion(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}), unwind(depth - 1));
}
