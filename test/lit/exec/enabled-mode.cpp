// `enabled: false` compiles a probe in, off until enabled at run time
// (SONDE_ENABLE); `mode: instant` records a start and a stop instant
// instead of a region.
//
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp && %check-insertions %s %t.cpp
// RUN: %build-clang %t.cpp -o %t.clang %sonde-link
// RUN: rm -rf %t.off && env SONDE_OUTPUT=%t.off %t.clang
// RUN: %sonde-trace export %t.off --format jsonl | %records | FileCheck %s --check-prefix=OFF
// RUN: rm -rf %t.on && env SONDE_OUTPUT=%t.on SONDE_ENABLE=checkpoint %t.clang
// RUN: %sonde-trace export %t.on --format jsonl | %records | FileCheck %s --check-prefix=ON
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "save"
// SPEC:     category: checkpoint.capture
// SPEC:     enabled: false
// SPEC:   - at: "step"
// SPEC:     category: compute.step
// SPEC:     mode: instant

void save() {}
void step() {}

int main() {
  step();
  save();
  return 0;
}

// OFF:      instant compute/step.start line=23 func=step
// OFF-NEXT: instant compute/step.stop line=23 func=step
// OFF-NOT:  {{.}}

// ON:      instant compute/step.start line=23 func=step
// ON-NEXT: instant compute/step.stop line=23 func=step
// ON-NEXT: region checkpoint/capture level=0 line=22 func=save
// ON-NOT:  {{.}}
