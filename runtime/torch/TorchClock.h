//===- TorchClock.h - The ranks' clock exchange, for TorchComm -*- C++ -*-===//
//
// libsonde_torch's private interface between the collectives' callback
// (TorchComm.cpp), which sees a job's first collective, and the clock
// exchange it starts then (TorchClock.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TORCH_TORCHCLOCK_H
#define SONDE_TORCH_TORCHCLOCK_H

namespace sonde::torch::detail {

/// Measures this rank's clock against rank 0's through the job's c10d
/// store, once per process, in a thread of its own; later calls do nothing.
void startClockExchange() noexcept;

} // namespace sonde::torch::detail

#endif // SONDE_TORCH_TORCHCLOCK_H
