// A libtorch program as its authors write it: a model declared with
// TORCH_MODULE (probed as `Net::forward`, the holder's name) trained by a
// function template over a torch::data loader (`for (auto &batch :
// data_loader)`, whose type is a template parameter). Both front doors plan
// the same sites; the program built from sonde-rewrite's copy records the
// fetch, the body and the forward pass of every batch.
//
// REQUIRES: torch, sonde-plugin
// RUN: %spec
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 %torch-cflags > %t.sites 2> %t.err
// RUN: FileCheck %s --input-file %t.sites --check-prefix=SITES
// RUN: not grep warning %t.err
// RUN: %cxx %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t.plugin-sites \
// RUN:   -std=c++17 %torch-cflags -fsyntax-only %s
// RUN: diff %t.sites %t.plugin-sites
// RUN: %sonde-rewrite --spec %t.yaml %s -- -std=c++17 %torch-cflags > %t.cpp && %check-insertions %s %t.cpp
// RUN: %build-gcc %torch-cflags %t.cpp -o %t.gcc %sonde-link %torch-libs
// RUN: rm -rf %t.dir && env SONDE_OUTPUT=%t.dir %t.gcc
// RUN: %sonde-trace export %t.dir --format jsonl | %records | FileCheck %s
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "Net::forward"
// SPEC:     category: compute.forward
// SPEC:   - at: "train > #loop_batch"
// SPEC:     category: dataloader.fetch

#include <torch/data.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <cstdio>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(2, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

struct Pairs : torch::data::datasets::Dataset<Pairs> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({2}, double(i)), torch::full({1}, double(i))};
  }
  torch::optional<size_t> size() const override { return 4; }
};

template <typename DataLoader>
double train(Net &model, DataLoader &data_loader) {
  double sum = 0;
  for (auto &batch : data_loader) {
    torch::Tensor out = model->forward(batch.data);
    sum += out.sum().item<double>();
  }
  return sum;
}

int main() {
  torch::manual_seed(0);
  Net model;
  auto loader = torch::data::make_data_loader(
      Pairs().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(2).workers(0));
  std::printf("%d\n", train(model, *loader) != 0);
  return 0;
}

// SITES-DAG: region compute.forward forward {{.*}}torch-module.cpp:37 NetImpl::forward
// SITES-DAG: loop dataloader.fetch fetch.iter {{.*}}torch-module.cpp:52 train #loop_batch
// SITES-DAG: loop dataloader.fetch fetch.block {{.*}}torch-module.cpp:52 train #loop_batch

// CHECK:      region dataloader/fetch.iter level=0 iter=0 line=52 func=train
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=0 line=52 func=train
// CHECK-NEXT: region compute/forward level=1 line=37 func=NetImpl::forward
// CHECK-NEXT: region dataloader/fetch.iter level=0 iter=1 line=52 func=train
// CHECK-NEXT: region dataloader/fetch.block level=0 iter=1 line=52 func=train
// CHECK-NEXT: region compute/forward level=1 line=37 func=NetImpl::forward
// CHECK-NOT: {{.}}
