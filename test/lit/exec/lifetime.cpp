// Lifetimes through every wrapping insertion (issue 12 item 2, issue 19
// item 1): an instrumented program makes exactly the copies and moves the
// plain one makes, and every temporary lives as long as it did.
//
// - `#value` of a prvalue of a class with a destructor (Handle, Counted,
//   std::string) is skipped with a warning: passValue copied it (Handle's
//   double free) or moved it. A glvalue passes through passRef (the same
//   constructor copies or moves from it), a trivially copyable class through
//   passValue, a reference returned by value is watched before the return.
// - `apis:` on use() whose argument make() is a probed call site: arg() went
//   inside the call's lambda and returned a reference to make()'s temporary,
//   which died with the lambda (ASan: heap-use-after-free). Now the lambda
//   is the innermost wrapper: use(arg(0, call(... make() ...))).
// - A nested call whose result may point into a temporary argument
//   (first(make()) returns a pointer into it) is skipped: in a lambda the
//   temporary died before printf read it.
// - An api's class result is recorded from the local that run() returns by
//   NRVO: no move (counted).
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp 2> %t.err && %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %build-clang %t.cpp -o %t.clang %sonde-link
// RUN: %build-gcc %t.cpp -o %t.gcc %sonde-link
// RUN: %build-gcc -O0 %t.cpp -o %t.gcc0 %sonde-link
// RUN: %build-clang -O0 -fsanitize=address %t.cpp -o %t.asan %sonde-link
// RUN: %build-clang %s -o %t.plain
// RUN: %t.plain > %t.plain.out && FileCheck %s --input-file %t.plain.out --check-prefix=OUT
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc0 > %t.gcc0.out && diff %t.plain.out %t.gcc0.out
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.asan > %t.asan.out && diff %t.plain.out %t.asan.out
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.clang > %t.clang.out && diff %t.plain.out %t.clang.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc > %t.gcc.out && diff %t.plain.out %t.gcc.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main > make()"
// SPEC:     category: user.make
// SPEC:   - at: "main > made()"
// SPEC:     category: user.made
// SPEC:   - at: "main > first()"
// SPEC:     category: user.first
// SPEC:   - at: "main > copyOnly()"
// SPEC:     category: user.copyonly
// SPEC:   - at: "main > pinned()"
// SPEC:     category: user.pinned
// SPEC:   - at: "main > pick()"
// SPEC:     category: user.pick
// SPEC:   - at: "main > #loop_Item"
// SPEC:     category: user.batch
// SPEC: watches:
// SPEC:   - at: "* > #value"
// SPEC: apis:
// SPEC:   - call: use
// SPEC:   - call: twice
// SPEC:   - call: copyOnly
// SPEC:   - call: pinned
// SPEC:   - call: pick

#include <cstdio>
#include <string>
#include <utility>

// Copies and moves, counted.
struct Counted {
  static int Copies, Moves;
  int V;
  explicit Counted(int V) : V(V) {}
  Counted(const Counted &O) : V(O.V) { ++Copies; }
  Counted(Counted &&O) noexcept : V(O.V) { ++Moves; }
  ~Counted() { V = -1; }
};
int Counted::Copies = 0;
int Counted::Moves = 0;

#ifdef SONDE_SONDE_H
template <> struct sonde::ValueTraits<Counted> {
  static constexpr size_t MaxBytes = 9;
  static void write(ValueWriter &W, const Counted &X) noexcept {
    W.integer(X.V);
  }
};
#endif

// The program: copying a Handle frees its int twice.
struct Handle {
  int *P;
  ~Handle() { delete P; }
};
Handle makeHandle(int V) { return Handle{new int(V)}; }
// DIAG-DAG: lifetime.cpp:[[@LINE-1]]:28: warning: probe '* > #value' skipped: the returned 'Handle' is made in place (guaranteed copy elision) and a watch would copy or move it; return a local by name to watch it [sonde-copy]

Counted made(int V) { return Counted(V); }
// DIAG-DAG: lifetime.cpp:[[@LINE-1]]:23: warning: probe '* > #value' skipped: the returned 'Counted' is made in place (guaranteed copy elision) and a watch would copy or move it; return a local by name to watch it [sonde-copy]

struct Holder {
  Counted C{7};
  Counted get() const { return C; }     // a copy, through passRef
  Counted take() { return std::move(C); } // a move, through passRef
};

// By value from a reference: a glvalue through passRef (fwd), a reference
// local watched before the return (copyOf).
Counted fwd(Counted &&R) { return std::move(R); }
Counted copyOf(const Counted &R) { return R; }

struct Point {
  int X, Y;
};
Point origin() { return Point{1, 2}; } // trivially copyable: passValue

struct Conv {
  operator int() const { return 5; }
  Conv() = default;
  Conv(const Conv &) { ++Counted::Copies; }
};
Conv TheConv;
int converted() { return TheConv; }
// DIAG-DAG: lifetime.cpp:[[@LINE-1]]:19: warning: probe '* > #value' skipped: the returned value is converted from a class object, which a watch would copy [sonde-copy]

std::string make() { return std::string(40, 'x'); }
int use(const std::string &S) { return std::printf("%zu %c\n", S.size(), S[39]); }
const char *first(const std::string &S) { return S.c_str(); }
Counted twice(const Counted &C) { return Counted(C.V * 2); }

// A class with a copy and no move constructor (copies counted), one with
// neither (compiles only if its prvalue stays a prvalue), and a reference
// result (the same object comes out): through a nested call site, an api,
// or both on one call.
struct CopyOnly {
  int V;
  explicit CopyOnly(int V) : V(V) {}
  CopyOnly(const CopyOnly &O) : V(O.V) { ++Counted::Copies; }
};
#ifdef SONDE_SONDE_H
template <> struct sonde::ValueTraits<CopyOnly> {
  static constexpr size_t MaxBytes = 9;
  static void write(ValueWriter &W, const CopyOnly &X) noexcept {
    W.integer(X.V);
  }
};
#endif
struct Pinned {
  int V;
  explicit Pinned(int V) : V(V) {}
  Pinned(const Pinned &) = delete;
  Pinned(Pinned &&) = delete;
};
CopyOnly copyOnly(int V) { return CopyOnly(V); }
Pinned pinned(int V) { return Pinned(V); }
int Global = 0;
int &pick() { return Global; }
int value(const CopyOnly &C, const Pinned &P) { return C.V + P.V; }

// A range the loop makes as a temporary: made inside sonde::iterate by a
// lambda (it was moved in; counted).
struct Batches {
  int Items[2] = {1, 2};
  Batches() = default;
  Batches(const Batches &) { ++Counted::Copies; }
  Batches(Batches &&) noexcept { ++Counted::Moves; }
  struct It {
    const int *P;
    int operator*() const { return *P; }
    It &operator++() { return ++P, *this; }
    bool operator!=(const It &O) const { return P != O.P; }
  };
  It begin() const { return It{Items}; }
  It end() const { return It{Items + 2}; }
};
Batches batches() { return Batches(); }

int main() {
  Handle H = makeHandle(42);
  std::printf("%d\n", *H.P);
  Counted A = made(1);
  Holder Ho;
  Counted B = Ho.get();
  Counted C = Ho.take();
  Counted D = fwd(Counted(3));
  Counted E = copyOf(D);
  std::printf("%d %d %d %d %d\n", A.V, B.V, C.V, D.V, E.V);
  Point P = origin();
  std::printf("%d %d %d\n", P.X, P.Y, converted());
  use(make());
  std::printf("%s\n", first(make()));
  // DIAG-DAG: lifetime.cpp:[[@LINE-1]]:23: warning: probe 'main > first()' skipped: call of 'first' inside an expression cannot be wrapped safely: it has a temporary argument and its result ('const char *') may point into it [sonde-unsupported]
  Counted T = twice(made(4));
  int Sum = value(copyOnly(5), Pinned(1)); // one call site per statement:
  Sum += value(CopyOnly(1), pinned(6));      // arguments' order is unspecified
  CopyOnly K = copyOnly(7);
  pick() = 9; // the call's lvalue is assigned: Global changes
  std::printf("%d %d %d %d\n", Sum, K.V, Global, &pick() == &Global);
  for (int Item : batches())
    Sum += Item;
  std::printf("%d copies=%d moves=%d\n", T.V + Sum, Counted::Copies,
              Counted::Moves);
}

// OUT:      42
// OUT-NEXT: 1 7 7 3 3
// OUT-NEXT: 1 2 5
// OUT-NEXT: 40 x
// OUT-NEXT: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
// OUT-NEXT: 13 7 9 1
// OUT-NEXT: 24 copies=2 moves=2

// Records in time order. The glvalues' values pass through passRef, the
// reference locals are watched before their return; use() reads make()'s
// string alive (it was freed); twice()'s argument, made(4), is a call site
// of its own whose region comes before the pre record (the pre is written
// when the last argument has passed), and its result is recorded with no
// move. copyOnly and pinned: a call site and an api on one call, as
// value()'s arguments (references) and as a declaration's initializer;
// pick(): its reference comes out of both wrappers (the assignment writes
// Global, and the address is Global's). The loop over batches() records
// its fetches and bodies with no move of the range.
// CHECK:      region user/made level=0 line=177 func=main
// CHECK-NEXT: watch user/value value=7 line=99 func=Holder::get
// CHECK-NEXT: watch user/value value=7 line=100 func=Holder::take
// CHECK-NEXT: watch user/value value=3 line=105 func=fwd
// CHECK-NEXT: watch user/value value=3 line=106 func=copyOf
// CHECK-NEXT: watch user/value value=5 line=114 func=Conv::operator int
// CHECK-NEXT: region user/make level=0 line=186 func=main
// CHECK-NEXT: api api/use phase="pre" call=1 call_args={"S": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} line=186 func=main
// CHECK-NEXT: watch user/value value=5 line=123 func=use
// CHECK-NEXT: api api/use phase="post" call=1 ret=5 line=186 func=main
// CHECK-NEXT: region user/make level=0 line=187 func=main
// CHECK-NEXT: watch user/value value="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" line=124 func=first
// CHECK-NEXT: region user/made level=0 line=189 func=main
// CHECK-NEXT: api api/twice phase="pre" call=2 call_args={"C": 4} line=189 func=main
// CHECK-NEXT: api api/twice phase="post" call=2 ret=8 line=189 func=main
// CHECK-NEXT: region user/copyonly level=0 line=190 func=main
// CHECK-NEXT: api api/copyOnly phase="pre" call=3 call_args={"V": 5} line=190 func=main
// CHECK-NEXT: api api/copyOnly phase="post" call=3 ret=5 line=190 func=main
// CHECK-NEXT: watch user/value value=6 line=154 func=value
// CHECK-NEXT: region user/pinned level=0 line=191 func=main
// CHECK-NEXT: api api/pinned phase="pre" call=4 call_args={"V": 6} line=191 func=main
// CHECK-NEXT: api api/pinned phase="post" call=4 line=191 func=main
// CHECK-NEXT: watch user/value value=7 line=154 func=value
// CHECK-NEXT: region user/copyonly level=0 line=192 func=main
// CHECK-NEXT: api api/copyOnly phase="pre" call=5 call_args={"V": 7} line=192 func=main
// CHECK-NEXT: api api/copyOnly phase="post" call=5 ret=7 line=192 func=main
// CHECK-NEXT: region user/pick level=0 line=193 func=main
// CHECK-NEXT: api api/pick phase="pre" call=6 call_args={} line=193 func=main
// CHECK-NEXT: watch user/value value=0 line=153 func=pick
// CHECK-NEXT: api api/pick phase="post" call=6 ret=0 line=193 func=main
// CHECK-NEXT: region user/pick level=0 line=194 func=main
// CHECK-NEXT: api api/pick phase="pre" call=7 call_args={} line=194 func=main
// CHECK-NEXT: watch user/value value=9 line=153 func=pick
// CHECK-NEXT: api api/pick phase="post" call=7 ret=9 line=194 func=main
// CHECK-NEXT: region user/batch.iter level=0 iter=0 line=195 func=main
// CHECK-NEXT: watch user/value value=true line=167 func=Batches::It::operator!=
// CHECK-NEXT: watch user/value value=1 line=165 func=Batches::It::operator*
// CHECK-NEXT: region user/batch.block level=0 iter=0 line=195 func=main
// CHECK-NEXT: region user/batch.iter level=0 iter=1 line=195 func=main
// CHECK-NEXT: watch user/value value=true line=167 func=Batches::It::operator!=
// CHECK-NEXT: watch user/value value=2 line=165 func=Batches::It::operator*
// CHECK-NEXT: region user/batch.block level=0 iter=1 line=195 func=main
// The advance that finds the end records a watch, so it is an iteration's
// fetch of its own (docs/runtime.md).
// CHECK-NEXT: region user/batch.iter level=0 iter=2 line=195 func=main
// CHECK-NEXT: watch user/value value=false line=167 func=Batches::It::operator!=
// CHECK-NOT:  {{.}}
