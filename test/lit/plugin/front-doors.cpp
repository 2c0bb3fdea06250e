// Every execution case of the engine (test/lit/exec) and the plugin's own
// (Inputs/) runs through both front doors: sonde-rewrite + clang++ and
// clang++ -fplugin. Plans must be identical, and so must the JSONL records
// once pid, tid, ts and dur are removed.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %front-doors --rewrite %sonde-rewrite --plugin %plugin-path \
// RUN:   --trace %sonde-trace --clang %cxx --include %sonde-include \
// RUN:   --lib %sonde-lib --work %t %S/Inputs %S/../exec | FileCheck %s
//
// CHECK: ok: {{.*}}trainer.cpp
// CHECK-NOT: FAIL
// CHECK: [[N:[0-9]+]] of [[N]] cases agree
