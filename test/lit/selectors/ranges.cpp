// Ranges `!A, !!B`: a region from point A to point B. It opens at A, closes
// at B if B comes in its scope, and otherwise ends with the scope (so an
// early exit never leaves it open).
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train_epoch(!#loop_batch, !!#endloop_batch)"
// SPEC:     category: compute.step
// SPEC:   - at: "train_epoch(!prepared, !!loss)"
// SPEC:     category: user.after_prepare
// SPEC:   - at: "train_epoch(!#enter, !!#exit)"
// SPEC:     category: pipeline.train

int train_epoch(int n) {
  // CHECK: {{^}}int train_epoch(int n) { static ::sonde::Site {{.*}} ::sonde::CondRegion sonde_range_{{[0-9a-f]+}}(true, sonde_site_{{[0-9a-f]+}});
  int prepared = n * 2;
  // CHECK: {{^}}  int prepared = n * 2; ::sonde::CondRegion sonde_range_[[P:[0-9a-f]+]](true, sonde_site_[[P]]);
  int loss = 0;
  // CHECK: {{^}}  int loss = 0; sonde_range_[[P]].close();
  for (int batch = 0; batch < n; ++batch) {
    // CHECK: {{^}}  for (int batch = 0; batch < n; ++batch) { ::sonde::CondRegion sonde_range_[[B:[0-9a-f]+]](true, sonde_site_[[B]]);
    if (batch == 1)
      continue;
    loss += batch;
    // CHECK: {{^}}    loss += batch; sonde_range_[[P]].close();
  }
  // CHECK: {{^}}  sonde_range_[[B]].close();}
  return loss + prepared;
}
