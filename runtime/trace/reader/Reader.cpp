//===- Reader.cpp - Reading a .sonde file ---------------------------------===//
//
// readTrace and readTraceBytes: the file header (magic, format version),
// then its blocks in order, each handed to the Decoder (Decoder.h); a file
// that ends inside a block is read up to the tear and said torn. What was
// skipped or corrected is said once, in Trace::Problem.
//
//===----------------------------------------------------------------------===//

#include "Decoder.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace sonde::trace {

using namespace detail;

bool readTrace(const std::string &Path, Trace &Out, std::string &Error,
               bool Events) {
  std::vector<uint8_t> Bytes;
  {
    std::FILE *F = std::fopen(Path.c_str(), "rb");
    if (!F) {
      Error = Path + ": cannot open";
      return false;
    }
    struct stat St;
    if (fstat(fileno(F), &St) == 0 && St.st_size > 0)
      Bytes.reserve(static_cast<size_t>(St.st_size));
    uint8_t Buf[1 << 16];
    size_t N;
    while ((N = std::fread(Buf, 1, sizeof Buf, F)) > 0)
      Bytes.insert(Bytes.end(), Buf, Buf + N);
    std::fclose(F);
  }
  return readTraceBytes(Bytes.data(), Bytes.size(), Path, Out, Error, Events);
}

bool readTraceBytes(const uint8_t *Data, size_t Size, const std::string &Path,
                    Trace &Out, std::string &Error, bool Events) {
  Out = Trace();
  Out.Path = Path;
  if (Size < format::FileHeaderSize ||
      std::memcmp(Data, format::Magic, 8) != 0) {
    Error = Path + ": not a sonde trace (bad magic)";
    return false;
  }
  Out.VersionMajor = static_cast<uint16_t>(Data[8] | (Data[9] << 8));
  Out.VersionMinor = static_cast<uint16_t>(Data[10] | (Data[11] << 8));
  if (Out.VersionMajor != format::Major) {
    Error = Path + ": trace format " + std::to_string(Out.VersionMajor) + "." +
            std::to_string(Out.VersionMinor) +
            " is not readable by this sonde (format " +
            std::to_string(format::Major) + ".x)";
    return false;
  }
  Out.ArgSets.push_back(std::make_unique<Args>()); // the empty set
  if (Events)
    Out.Events.reserve(Size / 5);
  Decoder D(Out);
  D.Base = Data;
  D.PointLevels = Out.VersionMinor >= 2;
  D.MaxSite = static_cast<uint32_t>(std::min<size_t>(1u << 24, 4096 + Size));
  size_t Pos = format::FileHeaderSize;
  while (Pos < Size) {
    if (Size - Pos < format::BlockHeaderSize) {
      Out.Complete = false;
      Out.StoppedAt = Pos;
      Out.Problem = "the file ends inside a block header";
      break;
    }
    auto Type = static_cast<Block>(Data[Pos]);
    uint32_t Len = 0;
    for (int I = 0; I < 4; ++I)
      Len |= static_cast<uint32_t>(Data[Pos + 1 + I]) << (8 * I);
    size_t Body = Pos + format::BlockHeaderSize;
    if (Type < Block::Process || Type > Block::End) {
      Out.Complete = false;
      Out.StoppedAt = Pos;
      Out.Problem =
          "unknown block type " + std::to_string(static_cast<int>(Type));
      break;
    }
    bool Torn = Body + Len > Size;
    size_t Have = Torn ? Size - Body : Len;
    Cursor C(Data + Body, Data + Body + Have);
    if (Events || Type != Block::Events)
      D.block(Type, C);
    if (Torn) {
      Out.Complete = false;
      Out.StoppedAt = Pos;
      Out.Problem = "the file ends inside a block of " + std::to_string(Len) +
                    " bytes (" + std::to_string(Have) +
                    " present); records before the tear are kept";
      break;
    }
    Pos = Body + Len;
  }
  if (Out.Complete && !Out.Process.Ended) {
    Out.Problem = "no end record: the process was killed or is still running";
  }
  D.finish();
  // Never silent: what was skipped or corrected, once.
  auto Say = [&Out](const std::string &What) {
    Out.Problem = Out.Problem.empty() ? What : Out.Problem + "; " + What;
  };
  if (!D.Corrupt.empty())
    Say("corrupt: " + D.Corrupt +
        (D.MoreCorrupt ? " (and " + std::to_string(D.MoreCorrupt) + " more)"
                       : std::string()) +
        "; the rest of each such block was skipped");
  if (!D.TimeProblem.empty())
    Say(D.TimeProblem);
  return true;
}

} // namespace sonde::trace
