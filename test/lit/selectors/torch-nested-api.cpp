// Issue 19 item 1 in the shape of real code: `apis:` on a loss whose
// argument is a probed call (`torch::smooth_l1_loss(fc(batch_x), batch_y)`
// with `main > *::operator()()`). The call's lambda held `arg(0, fc(x))`
// and returned a reference to the temporary tensor, which died with it:
// both front doors crashed in the first step. Now `arg()` is outside the
// call's lambda; both builds run under ASan and record the forward region
// and the loss's pre and post (the tensors' values are torch.h's concern:
// issue 12 item 6).
//
// REQUIRES: torch, sonde-plugin
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 %torch-cflags > %t.cpp 2> %t.err && %check-insertions %s %t.cpp
// RUN: FileCheck %s --input-file %t.cpp --check-prefix=REWRITE
// RUN: %build-clang -fsanitize=address %torch-cflags %t.cpp -o %t.rw %sonde-link %torch-libs
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.rw > %t.rw.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
// RUN: %build-plugin -fsanitize=address -fplugin-arg-sonde-spec=%t.yaml -std=c++17 %torch-cflags %s -o %t.plugin %sonde-link %torch-libs
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.plugin > %t.plugin.out && diff %t.rw.out %t.plugin.out
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "main > *::operator()()"
// SPEC:     category: compute.forward
// SPEC: apis:
// SPEC:   - call: torch::smooth_l1_loss

#include <cstdio>
#include <torch/nn/modules/linear.h>
#include <torch/nn/functional/loss.h>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear fc(3, 1);
  auto batch_x = torch::ones({4, 3});
  auto batch_y = torch::zeros({4, 1});
  for (int i = 0; i < 2; ++i) {
    auto loss = torch::smooth_l1_loss(fc(batch_x), batch_y);
    // REWRITE: {{^}}    auto loss = ::sonde::api({{.*}}return torch::smooth_l1_loss(sonde_api_[[A:[0-9a-f]+]].arg(0, ::sonde::call(true, sonde_sites_{{[0-9a-f]+}}[{{[0-9]+}}], [&]() -> decltype(auto) { return fc(batch_x); })), sonde_api_[[A]].arg(1, batch_y)); });
    std::printf("%lld\n", static_cast<long long>(loss.numel()));
  }
}

// CHECK:      region compute/forward level=0 line=38 func=main
// CHECK-NEXT: api api/at::smooth_l1_loss phase="pre" call=1 call_args={{.*}} line=38 func=main
// CHECK-NEXT: api api/at::smooth_l1_loss phase="post" call=1{{.*}} line=38 func=main
// CHECK-NEXT: region compute/forward level=0 line=38 func=main
// CHECK-NEXT: api api/at::smooth_l1_loss phase="pre" call=2 call_args={{.*}} line=38 func=main
// CHECK-NEXT: api api/at::smooth_l1_loss phase="post" call=2{{.*}} line=38 func=main
// CHECK-NOT:  {{.}}
