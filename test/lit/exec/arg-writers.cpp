// The args of a recorded loop iteration and of a function region pass to
// libsonde as type-erased slots (rt::detail::ArgSlot): an arithmetic value
// as the bits of its written type with one of libsonde's writers, any
// other value by its address with the writer of its type; the context
// record around them is written once, in libsonde (openArgsOut), not at
// each site. The records are what ValueTraits writes for each type: each
// integer's range edge, floating values of the three types, a bool, a
// char, an enum, a C string and a std::string. Built by g++ -O2, g++ -O0
// and clang++ -O2 with -Wconversion -Wdouble-promotion -Werror; the three
// traces read back the same records.
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
// SPEC: probes:
// SPEC:   - at: "ints > #loop_k"
// SPEC:     category: user.ints
// SPEC:     args: {sc: sc, uc: uc, s: s, us: us, i: i, u: u, l: l, ul: ul, ll: ll, ull: ull, k: k}
// SPEC:   - at: "others"
// SPEC:     category: user.others
// SPEC:     args: {f: f, d: d, ld: ld, b: b, c: c, color: color, name: name, text: text}

#include <climits>
#include <string>

enum Color { Red = 3 };

int ints() {
  signed char sc = SCHAR_MIN;
  unsigned char uc = UCHAR_MAX;
  short s = SHRT_MIN;
  unsigned short us = USHRT_MAX;
  int i = INT_MIN;
  unsigned u = UINT_MAX;
  long l = LONG_MIN;
  unsigned long ul = ULONG_MAX;
  long long ll = LLONG_MAX;
  const unsigned long long ull = ULLONG_MAX;
  int sum = 0;
  for (int k = -1; k < 1; ++k) {
    // TEXT: ::sonde::CondIteration sonde_iter_{{[0-9a-f]+}}(true, sonde_loop_{{[0-9a-f]+}}, (sc), (uc), (s), (us), (i), (u), (l), (ul), (ll), (ull), (k));
    sum += k;
  }
  return sum + sc + uc + s + us + i + static_cast<int>(u & 1) +
         static_cast<int>(l & 1) + static_cast<int>(ul & 1) +
         static_cast<int>(ll & 1) + static_cast<int>(ull & 1);
}

int others(float f, double d, long double ld, bool b, char c, Color color,
           const char *name, const std::string &text) {
  // TEXT: ::sonde::InsertedRegion sonde_region_{{[0-9a-f]+}}(sonde_sites_{{[0-9a-f]+}}[0], (f), (d), (ld), (b), (c), (color), (name), (text));
  return (b ? c : 0) + static_cast<int>(static_cast<double>(f) + d) + static_cast<int>(ld) + color + name[0] +
         static_cast<int>(text.size());
}

int main() {
  int r = ints();
  r += others(1.5f, -0.25, 2.75L, true, 'A', Red, "name", "text");
  return r == 0 ? 1 : 0;
}

// records.py prints the args sorted by name.
// CHECK:      region user/ints.block level=0 iter=0 line={{[0-9]+}} func=ints args={"i": -2147483648, "k": -1, "l": -9223372036854775808, "ll": 9223372036854775807, "s": -32768, "sc": -128, "u": 4294967295, "uc": 255, "ul": 18446744073709551615, "ull": 18446744073709551615, "us": 65535}
// CHECK-NEXT: region user/ints.block level=0 iter=1 line={{[0-9]+}} func=ints args={"i": -2147483648, "k": 0, "l": -9223372036854775808, "ll": 9223372036854775807, "s": -32768, "sc": -128, "u": 4294967295, "uc": 255, "ul": 18446744073709551615, "ull": 18446744073709551615, "us": 65535}
// CHECK-NEXT: region user/others level=0 line={{[0-9]+}} func=others args={"b": true, "c": 65, "color": 3, "d": -0.25, "f": 1.5, "ld": 2.75, "name": "name", "text": "text"}
// CHECK-NOT: {{.}}
