//===- FuzzSpec.cpp - libFuzzer target: the spec loader -------------------===//
//
// Any bytes as probes.yaml: parseSpec must return a spec or located
// diagnostics, never crash, hang or leak. The diagnostics are rendered too,
// since printing walks the caret ranges and fix-its into the text.
//
//===----------------------------------------------------------------------===//

#include "sonde/rewriter/Diag.h"
#include "sonde/rewriter/Spec.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace sonde::rewriter;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<Spec> S = parseSpec(Text, "fuzz.yaml");
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (!S) {
    llvm::handleAllErrors(S.takeError(),
                          [&](const SpecDiagnostics &D) { D.log(OS); });
    return 0;
  }
  // A loaded spec answers its own questions without failing.
  for (const Probe &P : S->Probes) {
    S->diag(P.AtLoc, llvm::SourceMgr::DK_Warning, "probe", P.At.size())
        .print(nullptr, OS, false);
    (void)S->inScope("a/b.cpp", "ns::f");
    (void)P.contextArgs();
  }
  return 0;
}
