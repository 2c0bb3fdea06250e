// torch_ops: the file that defines main() switches ATen op tracing on as
// the program starts, with one namespace-scope static right after main's
// body (no line added); other files get nothing. The file needs
// sonde/torch.h.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 -DNO_MAIN \
// RUN:   | FileCheck %s --check-prefix=NOMAIN --allow-empty
// RUN: sed 's/shapes: true/shapes: false/' %t.yaml > %t.noshapes.yaml
// RUN: %sonde-rewrite --spec %t.noshapes.yaml %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=NOSHAPES
//
// SPEC: version: 1
// SPEC: torch_ops: {shapes: true}

// What sonde/torch.h declares (this test compiles with sonde.h only).
#ifdef SONDE_SONDE_H
namespace sonde::torch {
bool enableOpTracing(bool Shapes) noexcept;
} // namespace sonde::torch
#endif

int train() { return 0; }

#ifndef NO_MAIN
int main() {
  return train();
} // end of main
// CHECK: {{^}}} {{\[\[}}maybe_unused]] static const bool sonde_torch_ops_{{[0-9a-f]+}} = ::sonde::torch::enableOpTracing(true); // end of main
// NOSHAPES: {{^}}} {{\[\[}}maybe_unused]] static const bool sonde_torch_ops_{{[0-9a-f]+}} = ::sonde::torch::enableOpTracing(false); // end of main
#endif

// SITES: # headers: sonde/sonde.h sonde/torch.h
// NOMAIN-NOT: headers
