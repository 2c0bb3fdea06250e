//===- EventText.h - An event as text, for comparing readers ----*- C++ -*-===//
//
// What a command could print of an event (its thread, site, times, level,
// value with its structure, args), as one line: two ways of reading a
// trace give the same events exactly when they give the same lines
// (CheckSplitTest, OneWalkTest).
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TEST_UNIT_RUNTIME_EVENTTEXT_H
#define SONDE_TEST_UNIT_RUNTIME_EVENTTEXT_H

#include "sonde/trace.h"

#include <string>

/// A value as text, structures included.
inline std::string valueText(const sonde::trace::Value &V) {
  using sonde::trace::Value;
  if (V.isNumber())
    return std::to_string(V.number());
  std::string Out;
  if (V.K == Value::Kind::Object)
    for (const auto &[K, M] : V.members())
      Out += K + ":" + valueText(M) + ",";
  else if (V.K == Value::Kind::Array)
    for (const Value &I : V.items())
      Out += valueText(I) + ",";
  else
    Out = V.str();
  return "(" + Out + ")";
}

/// The event as one line, its newline included.
inline std::string eventText(const sonde::trace::Event &E) {
  std::string Out = std::to_string(E.Thread) + "/" + std::to_string(E.Site) +
                    "@" + std::to_string(E.Ts) + "+" + std::to_string(E.Dur) +
                    " L" + std::to_string(E.Level) + (E.Unfinished ? " U" : "");
  if (E.V.K != sonde::trace::Value::Kind::Null)
    Out += " =" + valueText(E.V);
  for (const auto &[Name, V] : *E.A)
    Out += " " + Name + "=" + valueText(V);
  return Out + "\n";
}

#endif // SONDE_TEST_UNIT_RUNTIME_EVENTTEXT_H
