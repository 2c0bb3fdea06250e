// Ranges `!A, !!B`: a region from point A to point B. It opens at A, closes
// at B if B comes in its scope, and otherwise ends with the scope (so an
// early exit never leaves it open).
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: FileCheck %s --input-file %t.err --check-prefix=DIAG
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "train_epoch(!#loop_batch, !!#endloop_batch)"
// SPEC:     category: compute.step
// SPEC:   - at: "train_epoch(!prepared, !!loss)"
// SPEC:     category: user.after_prepare
// SPEC:   - at: "train_epoch(!#enter, !!#exit)"
// SPEC:     category: pipeline.train
// SPEC:   - at: "pick(!x, !!y)"
// SPEC:     category: user.pick
// SPEC:   - at: "jumps(!x, !!y)"
// SPEC:     category: user.jumps

int train_epoch(int n) {
  // CHECK: {{^}}int train_epoch(int n) { static ::sonde::SiteTable {{.*}} ::sonde::CondRegion sonde_range_{{[0-9a-f]+}}(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]);
  int prepared = n * 2;
  // CHECK: {{^}}  int prepared = n * 2; ::sonde::CondRegion sonde_range_[[P:[0-9a-f]+]](true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]);
  int loss = 0;
  // CHECK: {{^}}  int loss = 0; sonde_range_[[P]].close();
  for (int batch = 0; batch < n; ++batch) {
    // CHECK: {{^}}  for (int batch = 0; batch < n; ++batch) { ::sonde::CondRegion sonde_range_[[B:[0-9a-f]+]](true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]);
    if (batch == 1)
      continue;
    loss += batch;
    // CHECK: {{^}}    loss += batch; sonde_range_[[P]].close();
  }
  // CHECK: {{^}}  sonde_range_[[B]].close();}
  return loss + prepared;
}

// A range cannot start under a case label (a later case would jump over
// its declaration); elsewhere in the function it can.
int pick(int n) {
  int x = 0, y = 0;
  // CHECK: {{^}}  int x = 0, y = 0; ::sonde::CondRegion sonde_range_[[X0:[0-9a-f]+]](true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]);
  switch (n) {
  case 0:
    x = 1;
    // DIAG: ranges.cpp:[[@LINE-1]]:5: warning: probe 'pick(!x, !!y)' skipped: a range starts at a statement directly in a block (not under a label, a 'case' or an unbraced body) [sonde-unsupported]
    y = 2;
    break;
  case 1:
    y = 3;
  }
  x = 5;
  // CHECK: {{^}}  x = 5; ::sonde::CondRegion sonde_range_[[X:[0-9a-f]+]](true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}]);
  y = x;
  // CHECK: {{^}}  y = x; {{.*}}sonde_range_[[X]].close();
  return x + y;
}

// A later label or case reached by a jump from before the start would jump
// over the range's declaration: skipped.
int jumps(int n) {
  int x, y = 0;
  if (n > 5)
    goto done;
  x = 0;
  // CHECK: {{^}}  x = 0;{{$}}
  // DIAG: ranges.cpp:[[@LINE-2]]:3: warning: probe 'jumps(!x, !!y)' skipped: a label or 'case' after the range start could jump over it [sonde-unsupported]
  switch (n) {
  case 0: {
    y = 1;
  }
    x = 2;
    // CHECK: {{^}}    x = 2;{{$}}
    // DIAG: ranges.cpp:[[@LINE-2]]:5: warning: probe 'jumps(!x, !!y)' skipped: a label or 'case' after the range start could jump over it [sonde-unsupported]
  case 1:
    y = 3;
  }
done:
  return x + y;
}
