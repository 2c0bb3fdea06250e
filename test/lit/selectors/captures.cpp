// Captures: values of the frame function that ride along with each event
// (in `args`), under their `as` name. A capture not in scope at a site is
// left out, with a warning.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: watches:
// SPEC:   - at: "train_epoch(epoch, idx as step) > loss"
// SPEC:   - at: "train_epoch(late) > #enter"

float train_epoch(int epoch) {
  int idx = 0;
  float loss = 0;
  // CHECK: {{^}}  float loss = 0; ::sonde::watchArgs(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], loss, epoch, idx);
  for (; idx < 3; ++idx)
    loss += idx;
  // CHECK: {{^}}    { loss += idx; ::sonde::watchArgs(sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], loss, epoch, idx); }
  int late = 1;
  // DIAG: captures.cpp:14:7: warning: capture 'late' of probe 'train_epoch(late) > #enter' is not in scope here; recorded without it [sonde-capture]
  return loss + late;
}
