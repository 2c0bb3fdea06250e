//===- ProcessFields.cpp - A process, as every output writes it -----------===//
//
// See ProcessFields.h.
//
//===----------------------------------------------------------------------===//

#include "ProcessFields.h"

namespace sonde::trace {

const std::string &howEnded(const ProcessInfo &P, Audience A) {
  static const std::string Unknown = "unknown", NoEnd = "no end record";
  if (P.Ended)
    return P.How;
  return A == Audience::Program ? Unknown : NoEnd;
}

std::string worldShown(const ProcessInfo &P) {
  if (P.Launcher.empty())
    return {};
  std::string S;
  if (P.WorldSize >= 0)
    S += " of " + std::to_string(P.WorldSize);
  S += " (";
  if (P.LocalRank >= 0)
    S += "local " + std::to_string(P.LocalRank) + ", ";
  return S + P.Launcher + ")";
}

void processFields(JsonOut &J, const Trace &T,
                   std::initializer_list<ProcessField> Fields) {
  const ProcessInfo &P = T.Process;
  for (ProcessField F : Fields) {
    switch (F) {
    case ProcessField::File:
      J.key("file").str(T.Path);
      break;
    case ProcessField::Program:
      J.key("program").str(P.Program);
      break;
    case ProcessField::Pid:
      J.key("pid").num(P.Pid);
      break;
    case ProcessField::PPid:
      J.key("ppid").num(P.PPid);
      break;
    case ProcessField::Rank:
      J.key("rank").num(P.Rank);
      break;
    case ProcessField::LocalRank:
      if (P.LocalRank < 0)
        J.key("local_rank").raw("null");
      else
        J.key("local_rank").num(P.LocalRank);
      break;
    case ProcessField::WorldSize:
      if (P.WorldSize < 0)
        J.key("world_size").raw("null");
      else
        J.key("world_size").num(P.WorldSize);
      break;
    case ProcessField::Launcher:
      if (P.Launcher.empty())
        J.key("launcher").raw("null");
      else
        J.key("launcher").str(P.Launcher);
      break;
    case ProcessField::Host:
      J.key("host").str(P.Host);
      break;
    case ProcessField::How:
      J.key("how").str(howEnded(P, Audience::Program));
      break;
    case ProcessField::HowShown:
      J.key("how").str(howEnded(P, Audience::Person));
      break;
    case ProcessField::StartNs:
      J.key("start_ns").num(P.StartNs);
      break;
    case ProcessField::DurNs:
      J.key("dur_ns").num(P.EndNs - P.StartNs);
      break;
    case ProcessField::Events:
      J.key("events").num(eventCount(T));
      break;
    case ProcessField::Dropped:
      J.key("dropped").num(P.Dropped);
      break;
    case ProcessField::Sites:
      J.key("sites").num(
          static_cast<uint64_t>(T.Sites.empty() ? 0 : T.Sites.size() - 1));
      break;
    case ProcessField::Threads:
      J.key("threads").num(static_cast<uint64_t>(T.Threads.size()));
      break;
    case ProcessField::Complete:
      J.key("complete").raw(T.Complete ? "true" : "false");
      break;
    }
  }
}

} // namespace sonde::trace
