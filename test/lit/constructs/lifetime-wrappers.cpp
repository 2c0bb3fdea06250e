// What each wrapping insertion does with values whose copies, moves and
// lifetimes matter (issue 12 item 2, issue 19 item 1; the audit table is in
// docs/rewriter.md). Nothing inserted may copy or move an object the
// program did not, end a temporary earlier, or change a value category.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror -fsyntax-only -include sonde/sonde.h -I %sonde-include %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main > make()"
// SPEC:     category: user.call
// SPEC:   - at: "main > *view()"
// SPEC:     category: user.call
// SPEC:   - at: "main > first()"
// SPEC:     category: user.call
// SPEC: watches:
// SPEC:   - at: "* > #value"
// SPEC:   - at: "guarded > #value as g"
// SPEC:     every: 2
// SPEC: apis:
// SPEC:   - call: use
// SPEC:   - call: keep
// SPEC:   - call: pinned

#include <string>
#include <string_view>
#include <utility>

// A prvalue of a class with a destructor is made in place: passValue copied
// it (a double free for this Handle). Skipped.
struct Handle {
  int *P;
  ~Handle() { delete P; }
};
Handle makeHandle(int V) { return Handle{new int(V)}; }
// CHECK: {{^}}Handle makeHandle(int V) { return Handle{new int(V)}; }
// DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-2]]:28: warning: probe '* > #value' skipped: the returned 'Handle' is made in place (guaranteed copy elision) and a watch would copy or move it; return a local by name to watch it [sonde-copy]

// Move-only: passValue moved it. Skipped too.
struct Owned {
  int *P = nullptr;
  Owned() = default;
  Owned(Owned &&O) noexcept : P(std::exchange(O.P, nullptr)) {}
  ~Owned() { delete P; }
};
Owned makeOwned() { return Owned(); }
// DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:21: warning: probe '* > #value' skipped: the returned 'Owned' is made in place {{.*}} [sonde-copy]

// No copy, no move: skipped as before.
struct Pinned {
  int V;
  explicit Pinned(int V) : V(V) {}
  Pinned(const Pinned &) = delete;
  Pinned(Pinned &&) = delete;
};
Pinned pinned(int V) { return Pinned(V); }
// DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:24: warning: probe '* > #value' skipped: the returned object cannot pass through a watch unchanged (it cannot be copied or moved) [sonde-unsupported]

// Trivially copyable with a trivial destructor: the language may copy it
// when it returns it anyway; passValue.
struct Point {
  int X, Y;
};
Point origin() { return Point{1, 2}; }
// CHECK: {{^}}Point origin() {{.*}} return ::sonde::passValue(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], Point{1, 2}); }

// Glvalues of a class: the same object passes through passRef and the
// return object is made from it by the same constructor (a copy, a move).
struct Holder {
  std::string S;
  std::string get() const { return S; }
  // CHECK: {{^}}  std::string get() const {{.*}} return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], S); }
  std::string take() { return std::move(S); }
  // CHECK: {{^}}  std::string take() {{.*}} return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], std::move(S)); }
  Holder clone() const { return *this; }
  // CHECK: {{^}}  Holder clone() const {{.*}} return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], *this); }
  const std::string &ref() const { return S; }
  // CHECK: {{^}}  const std::string &ref() const {{.*}} return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], S); }
  // An unparenthesized comma became two arguments of the wrapper (it did
  // not compile): parenthesized.
  Holder &self() { return S.clear(), *this; }
  // CHECK: {{^}}  Holder &self() {{.*}} return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], (S.clear(), *this)); }
};

// A reference returned by value: `return r;` of an rvalue reference moves
// in C++20; watched before the return, it stays as it was.
std::string fromRef(std::string &&R) { return R; }
// CHECK: {{^}}std::string fromRef(std::string &&R) {{.*}} ::sonde::watchAt(sonde_sites_{{[0-9a-f]+}}, {{[0-9]+}}, R); return R; }

// Guarded: passRefIf (a reference, or a class glvalue); it was skipped.
// (`* > #value` passes it through passRef too.)
std::string G;
const std::string &guarded(int N) { return N ? G : G; }
// CHECK: {{^}}const std::string &guarded(int N) {{.*}} return ::sonde::passRef(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], ::sonde::passRefIf(::sonde::every(sonde_every_{{[0-9a-f]+}}, 2), sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], N ? G : G)); }

// A scalar converted from a class object: passValue took the object by
// value (a copy). Skipped.
struct Count {
  operator int() const { return 1; }
};
Count C;
int converted() { return C; }
// DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:19: warning: probe '* > #value' skipped: the returned value is converted from a class object, which a watch would copy [sonde-copy]

std::string make() { return std::string(40, 'x'); }
// DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:22: warning: probe '* > #value' skipped: the returned 'std::string' is made in place {{.*}} [sonde-copy]
int use(const std::string &S) { return int(S.size()); }
const std::string &keep(const std::string &S) { return S; }
const char *first(const std::string &S) { return S.c_str(); }
// A class converted from another (a std::string to a string_view): the
// wrapper took the string by value, a copy that the returned view then
// pointed into after it died. Skipped.
std::string_view view(const std::string &S) { return S; }
// DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:47: warning: probe '* > #value' skipped: the returned value is converted to 'std::string_view' from another type, which a watch would copy [sonde-copy]

int main() {
  // The call's lambda is the innermost wrapper: arg() binds make()'s result
  // outside it, where the temporary lives to the end of the statement (it
  // was inside, and returned a reference to a temporary of the lambda).
  int N = use(make());
  // CHECK: {{^}}  int N = ::sonde::api(true, sonde_sites_[[T:[0-9a-f]+]][{{[0-9]+}}], 1, 1, [&](::sonde::ApiCall &sonde_api_[[U:[0-9a-f]+]]) -> decltype(auto) { return use(sonde_api_[[U]].arg(0, ::sonde::call(true, sonde_sites_[[T]][{{[0-9]+}}], [&]() -> decltype(auto) { return make(); }))); });
  // A result that may point into a temporary argument: in a lambda, the
  // temporary would die before the result is used. Not wrapped (a call
  // site), not traced (an api).
  N += *first(make());
  // DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:9: warning: probe 'main > first()' skipped: call of 'first' inside an expression cannot be wrapped safely: it has a temporary argument and its result ('const char *') may point into it [sonde-unsupported]
  N += int(view(make()).size());
  // DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:12: warning: probe 'main > *view()' skipped: call of 'view' inside an expression cannot be wrapped safely: it has a temporary argument and its result ('std::string_view') may point into it [sonde-unsupported]
  N += int(keep(make()).size());
  // DIAG-DAG: lifetime-wrappers.cpp:[[@LINE-1]]:12: warning: probe 'keep()' skipped: call of 'keep' cannot be traced: it returns a reference and has a temporary argument [sonde-unsupported]
  // An api returning a class that cannot be moved: returned directly.
  N += pinned(N).V;
  // CHECK: {{^}}  N += ::sonde::api(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], 1, 1, {{.*}} return pinned(sonde_api_{{[0-9a-f]+}}.arg(0, N)); }).V;
  Handle H = makeHandle(N);
  Owned O = makeOwned();
  return N + origin().X + converted() + int(fromRef(Holder{}.get()).size()) +
         int(guarded(N).size()) + (H.P != O.P);
}
