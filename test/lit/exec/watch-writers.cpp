// The writer an inserted watch names, per type of the watched value: the
// standard arithmetic types get a non-template writer of their written
// type (watchIntAt, watchUIntAt, watchFloatAt, watchBoolAt), lighter for
// the compiler at each of thousands of sites; every other type goes
// through the watchAt template, and so do the types whose recording
// depends on the compile: `char` and `wchar_t` (their signedness is a
// flag), `float` and `long double` (their conversions to double are
// warnings at the site under -Wdouble-promotion and -Wconversion), and a
// template's dependent types. Whatever the
// writer, the records are those of a watch by hand: each integer's range
// edge, a reference, a bit-field binding, cv-qualified values. Built by
// g++ -O2 (the watch trampoline), g++ -O0 (calls) and clang++ -O2 with
// -Wconversion -Wdouble-promotion -Werror; the three traces read back the
// same records.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp --check-prefix=TEXT
// RUN: %build-gcc -O2 -Wall -Wextra -Wconversion -Wdouble-promotion -Werror %t.cpp -o %t.gcc2 %sonde-link -pthread
// RUN: %build-gcc -O0 -Wall -Wextra -Wconversion -Wdouble-promotion -Werror %t.cpp -o %t.gcc0 %sonde-link -pthread
// RUN: %build-clang -O2 -Wall -Wextra -Wconversion -Wdouble-promotion -Werror %t.cpp -o %t.clang %sonde-link -pthread
// RUN: rm -rf %t.g2 %t.g0 %t.c
// RUN: env SONDE_OUTPUT=%t.g2 %t.gcc2 && %sonde-trace export %t.g2 --format jsonl | %records > %t.g2.records
// RUN: env SONDE_OUTPUT=%t.g0 %t.gcc0 && %sonde-trace export %t.g0 --format jsonl | %records > %t.g0.records
// RUN: env SONDE_OUTPUT=%t.c %t.clang && %sonde-trace export %t.c --format jsonl | %records > %t.c.records
// RUN: diff %t.g2.records %t.g0.records
// RUN: diff %t.g2.records %t.c.records
// RUN: FileCheck %s --input-file %t.g2.records
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "types > *"
// SPEC:   - at: "twice > *"

#include <climits>
#include <cstdint>

enum Color { Red = 3 };
struct Bits {
  int low : 3;
};

template <class T> T twice(T x) {
  // TEXT: {{^}}template <class T> T twice(T x) { static ::sonde::SiteTable {{.*}} ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, x);
  T y = x + x;
  // TEXT: {{^}}  T y = x + x; ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, y);
  return y;
}

long types() {
  signed char sc = SCHAR_MIN;
  // TEXT: {{^}}  signed char sc = SCHAR_MIN; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, sc);
  short s = SHRT_MIN;
  // TEXT: {{^}}  short s = SHRT_MIN; ::sonde::watchIntAt(
  long l = LONG_MIN;
  // TEXT: {{^}}  long l = LONG_MIN; ::sonde::watchIntAt(
  long long ll = LLONG_MAX;
  // TEXT: {{^}}  long long ll = LLONG_MAX; ::sonde::watchIntAt(
  std::int64_t i64 = -3;
  // TEXT: {{^}}  std::int64_t i64 = -3; ::sonde::watchIntAt(
  unsigned char uc = UCHAR_MAX;
  // TEXT: {{^}}  unsigned char uc = UCHAR_MAX; ::sonde::watchUIntAt(
  unsigned short us = USHRT_MAX;
  // TEXT: {{^}}  unsigned short us = USHRT_MAX; ::sonde::watchUIntAt(
  unsigned long ul = ULONG_MAX;
  // TEXT: {{^}}  unsigned long ul = ULONG_MAX; ::sonde::watchUIntAt(
  char16_t c16 = u'\xffff';
  // TEXT: {{^}}  char16_t c16 = u'\xffff'; ::sonde::watchUIntAt(
  char32_t c32 = U'\x10ffff';
  // TEXT: {{^}}  char32_t c32 = U'\x10ffff'; ::sonde::watchUIntAt(
  float f = 0.5f;
  // TEXT: {{^}}  float f = 0.5f; ::sonde::watchAt(
  double d = -2.25;
  // TEXT: {{^}}  double d = -2.25; ::sonde::watchFloatAt(
  bool yes = true;
  // TEXT: {{^}}  bool yes = true; ::sonde::watchBoolAt(
  const int ci = 7;
  // TEXT: {{^}}  const int ci = 7; ::sonde::watchIntAt(
  volatile unsigned vu = UINT_MAX;
  // TEXT: {{^}}  volatile unsigned vu = UINT_MAX; ::sonde::watchUIntAt(
  int i = -1;
  int &ri = i;
  // TEXT: {{^}}  int &ri = i; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, ri);
  Bits b{-2};
  auto &[low] = b;
  // TEXT: {{^}}  auto &[low] = b; ::sonde::watchIntAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, low);
  low = 3;
  // TEXT: {{^}}  low = 3; ::sonde::watchIntAt(
  char c = 'A';
  // TEXT: {{^}}  char c = 'A'; ::sonde::watchAt(
  wchar_t w = L'B';
  // TEXT: {{^}}  wchar_t w = L'B'; ::sonde::watchAt(
  long double ld = 1e300L;
  // TEXT: {{^}}  long double ld = 1e300L; ::sonde::watchAt(
  Color color = Red;
  // TEXT: {{^}}  Color color = Red; ::sonde::watchAt(
  const int *p = nullptr;
  // TEXT: {{^}}  const int *p = nullptr; ::sonde::watchAt(
  return sc + s + l + ll + i64 + uc + us + static_cast<long>(ul) + c16 +
         static_cast<long>(c32) + static_cast<long>(static_cast<double>(f) + d) + yes + ci +
         static_cast<long>(vu) + ri + low + c + w +
         static_cast<long>(ld > 0) + color + (p == nullptr) + twice(4);
}

int main() { return types() == 0 ? 1 : 0; }

// CHECK:      watch user/sc value=-128 line=
// CHECK-NEXT: watch user/s value=-32768 line=
// CHECK-NEXT: watch user/l value=-9223372036854775808 line=
// CHECK-NEXT: watch user/ll value=9223372036854775807 line=
// CHECK-NEXT: watch user/i64 value=-3 line=
// CHECK-NEXT: watch user/uc value=255 line=
// CHECK-NEXT: watch user/us value=65535 line=
// CHECK-NEXT: watch user/ul value=18446744073709551615 line=
// CHECK-NEXT: watch user/c16 value=65535 line=
// CHECK-NEXT: watch user/c32 value=1114111 line=
// CHECK-NEXT: watch user/f value=0.5 line=
// CHECK-NEXT: watch user/d value=-2.25 line=
// CHECK-NEXT: watch user/yes value=true line=
// CHECK-NEXT: watch user/ci value=7 line=
// CHECK-NEXT: watch user/vu value=4294967295 line=
// CHECK-NEXT: watch user/i value=-1 line=
// CHECK-NEXT: watch user/ri value=-1 line=
// CHECK-NEXT: watch user/low value=-2 line=
// CHECK-NEXT: watch user/low value=3 line=
// CHECK-NEXT: watch user/c value=65 line=
// CHECK-NEXT: watch user/w value=66 line=
// CHECK-NEXT: watch user/ld value=1e+300 line=
// CHECK-NEXT: watch user/color value=3 line=
// CHECK-NEXT: watch user/p value=0 line=
// CHECK-NEXT: watch user/x value=4 line=
// CHECK-NEXT: watch user/y value=8 line=
