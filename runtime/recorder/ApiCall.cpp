//===- ApiCall.cpp - The records of a call `apis:` selects ----------------===//
//
// sonde::ApiCall's pre and post records (sonde/detail/ApiCall.h). They
// depend on no type (each argument's writer is a pointer in its slot), so
// they are compiled once, here: inlined, they were a third of what an
// `apis:` site added to the code the compiler optimizes, at every site of
// every instrumented translation unit (docs/plugin.md, "Cost").
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

namespace sonde {
namespace {

/// The bound of the head the three records share: {phase, call, ...}.
constexpr uint32_t HeadBytes = 16 + 3 + 9 + 9 + 9 + 9 + 9;

/// The head: an object of `Members` members, the first two `phase` and
/// `call`.
void writeHead(ValueWriter &W, const char *Phase, uint8_t Len, uint64_t Call,
               uint16_t Members) noexcept {
  W.object(Members);
  W.key("phase");
  W.string(Phase, Len);
  W.key("call");
  W.unsignedInteger(Call);
}

} // namespace

void ApiCall::pre() noexcept {
  Started = true;
  rt::ThreadState *T = rt::detail::thread();
  Call = (uint64_t(T->Index) << 40) |
         (++rt::detail::ApiCalls & ((uint64_t(1) << 40) - 1));
  // The bound of the arguments was summed as they passed: reading it back
  // from Slots here made g++ -Wmaybe-uninitialized (an error under
  // -Werror) suspect the slots left unfilled.
  uint32_t Max = HeadBytes + 9 + 5 + Total + ArgBytes;
  Max = rt::detail::align8(Max < MaxRecord ? Max : MaxRecord);
  uint64_t Tsc = now();
  char *P = rt::detail::reserve(T, Max);
  if (!P)
    return;
  ValueWriter W(P + 16, P + Max);
  writeHead(W, "pre", 3, Call, 3);
  W.key("args");
  W.array(Total);
  for (uint32_t I = 0; I < Total; ++I) {
    if (I < MaxArgs && (Filled >> I & 1))
      Slots[I].Write(W, Slots[I].P, Sum);
    else
      W.null();
  }
  rt::detail::commitStructuredWatch(T, P, W.position(), Id, Tsc);
}

void ApiCall::finish(const void *Ret, Writer Write, uint32_t RetMax,
                     bool Error) noexcept {
  Posted = true;
  rt::ThreadState *T = rt::detail::thread();
  uint64_t Tsc = now();
  uint32_t Max = HeadBytes + 9 + 1 + RetMax;
  Max = rt::detail::align8(Max < MaxRecord ? Max : MaxRecord);
  char *P = rt::detail::reserve(T, Max);
  if (!P)
    return;
  ValueWriter W(P + 16, P + Max);
  if (Error) {
    writeHead(W, "error", 5, Call, 2);
  } else if (!Write) {
    writeHead(W, "post", 4, Call, 2);
  } else {
    writeHead(W, "post", 4, Call, 3);
    W.key("ret");
    Write(W, Ret, Sum);
  }
  rt::detail::commitStructuredWatch(T, P, W.position(), Id, Tsc);
}

} // namespace sonde
