// Silent training bugs, seeded into mnist.cpp when it is built with
// -DMNIST_SEEDED_BUGS (the mnist-bugs target), one chosen per run with
// --bug NAME; without --bug that build trains exactly as mnist does. Each
// raises no error and only shows as a worse model; `sonde check` against
// invariants learned from good runs names it (docs/invariants.md,
// test/exec/invariants/).
//
//   no-zero-grad  optimizer.zero_grad() is never called: gradients pile up
//   frozen        fc1.weight is frozen by mistake (requires_grad false)
//   subset        the optimizer is built over fc2's parameters only
//   lr-zero       the learning rate is overwritten to 0 at step 10
//   same-batch    the loader gives the first batch at every step
//   eval-on       model.eval() instead of model.train(): dropout is off

#include <cstdio>
#include <cstdlib>
#include <cstring>

enum class Bug { None, NoZeroGrad, Frozen, Subset, LrZero, SameBatch, EvalOn };

static Bug seeded_bug = Bug::None;

static Bug parse_bug(const char* name) {
  static const struct {
    const char* name;
    Bug bug;
  } bugs[] = {{"none", Bug::None},         {"no-zero-grad", Bug::NoZeroGrad}, {"frozen", Bug::Frozen},
              {"subset", Bug::Subset},     {"lr-zero", Bug::LrZero},          {"same-batch", Bug::SameBatch},
              {"eval-on", Bug::EvalOn}};
  for (const auto& b : bugs) {
    if (std::strcmp(name, b.name) == 0) return b.bug;
  }
  std::fprintf(stderr,
               "mnist: unknown --bug '%s' (none, no-zero-grad, frozen, subset, lr-zero, same-batch, eval-on)\n",
               name);
  std::exit(2);
}

// With same-batch, the first tensor given for each of the batch's parts
// (data, then target), every time after.
static torch::Tensor same_batch(const torch::Tensor& t) {
  static torch::Tensor first[2];
  static int calls = 0;
  if (seeded_bug != Bug::SameBatch) return t;
  torch::Tensor& kept = first[calls++ % 2];
  if (!kept.defined()) kept = t;
  return kept;
}
