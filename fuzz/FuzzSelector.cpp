//===- FuzzSelector.cpp - libFuzzer target: the selector parser -----------===//
//
// Any bytes as an `at:` string: parseSelector and normalize must return a
// query or a SelectorError inside the text, never crash or hang. Globs in
// the result are matched against a few names, since matching is the other
// half of what a selector does without an AST.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Selector.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace sonde::rewriter;

namespace {

void checkError(const SelectorError &E, size_t Size) {
  // A caret must point into the selector (or just past its end).
  if (E.Offset > Size || E.Message.empty())
    std::abort();
}

void exercise(const FuncGlob &G) {
  (void)G.matches("ns::Net::forward");
  (void)G.matches("train");
  (void)G.matchesFile("src/model/net.cpp");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<Selector> Sel = parseSelector(Text);
  if (!Sel) {
    llvm::handleAllErrors(Sel.takeError(),
                          [&](const SelectorError &E) { checkError(E, Size); });
    return 0;
  }
  llvm::Expected<Query> Q = normalize(*Sel);
  if (!Q) {
    llvm::handleAllErrors(Q.takeError(),
                          [&](const SelectorError &E) { checkError(E, Size); });
    return 0;
  }
  exercise(Q->Host);
  for (const FuncGlob &G : Q->Context)
    exercise(G);
  (void)Q->FocusItem.spelling();
  for (const Item &I : Q->Captures)
    (void)I.spelling();
  if (Q->FocusItem.Kind == TargetKind::Call)
    exercise(Q->FocusItem.Callee);
  (void)globMatch(Text, "ns::Net::forward");
  return 0;
}
