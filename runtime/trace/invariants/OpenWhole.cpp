//===- OpenWhole.cpp - A trace opened for infer and check -----------------===//
//
// `sonde infer` and `sonde check` read every byte of every trace, each
// file once for its outline, once for the check of its records and once
// for its events (reader/Decoder.h). Opened as other commands open a trace
// (openTrace), each of those walks reads its blocks one pread at a time:
// the MNIST example's files hold about 300 blocks of 700 bytes, so a tenth
// of `sonde check` went to the kernel. Here a file of up to WholeLimit
// bytes is read in one read and the stream reads it in memory
// (TraceStream::openBytes); a larger one (or one that cannot be read so)
// is opened as usual, so memory stays bounded by the limit, not by the
// records. Values are kept encoded (TraceStream::setEncodedValues), in
// place in those bytes, which the values keep alive: the Feed walks them.
// The records are checked as the events walk reads them (CheckAsRead), so
// the file's problems are known at its end (problemsRead()).
//
//===----------------------------------------------------------------------===//

#include "Invariants.h"
#include "reader/LargeBuffer.h"

#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace sonde::trace::inv {
namespace {

/// The largest file read whole: far above a training run's trace of a few
/// MB, far below what memory holds.
constexpr uint64_t WholeLimit = uint64_t(64) << 20;

/// A file's bytes: not a std::vector, which would write zeros over the
/// whole buffer before the read writes it (1.3 % of `sonde check`); in huge
/// pages when large (detail::LargeBuffer).
struct FileBytes {
  detail::LargeBuffer Data;
  size_t Size = 0;
};

/// The file's bytes, and the stream that reads them (destroyed first).
/// The values of its events point into the bytes and keep them alive on
/// their own (not the stream: a value that held the stream would hold
/// itself through the stream's decoder).
struct Whole {
  std::shared_ptr<FileBytes> Bytes = std::make_shared<FileBytes>();
  TraceStream Stream;
};

/// Reads the file whole into `Bytes`; false when it cannot, or is larger
/// than the limit.
bool readWhole(const std::string &Path, FileBytes &Bytes) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  struct stat St;
  bool Ok = fstat(Fd, &St) == 0 && S_ISREG(St.st_mode) &&
            static_cast<uint64_t>(St.st_size) <= WholeLimit;
  if (Ok) {
    auto Size = static_cast<size_t>(St.st_size);
    Bytes.Data = detail::LargeBuffer(Size);
    size_t Got = 0;
    while (Bytes.Data && Got < Size) {
      ssize_t N = ::read(Fd, Bytes.Data.data() + Got, Size - Got);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        break; // cut while read: what was read is the file
      Got += static_cast<size_t>(N);
    }
    Bytes.Size = Got;
    Ok = bool(Bytes.Data); // no memory: read block by block instead
  }
  ::close(Fd);
  return Ok;
}

} // namespace

bool openTraceWhole(const std::string &Path, Trace &Out, std::string &Error,
                    size_t LookAhead) {
  auto W = std::make_shared<Whole>();
  if (readWhole(Path, *W->Bytes) &&
      W->Stream.openBytes(W->Bytes->Data.data(), W->Bytes->Size, Path, Error,
                          true, W->Bytes, /*CheckAsRead=*/true)) {
    // As openTrace: the caller's copy of the outline, the stream's own.
    copyOutline(W->Stream.trace(), Out);
    // The stream keeps the bytes alive as long as anyone holds it.
    Out.Stream = std::shared_ptr<TraceStream>(W, &W->Stream);
  } else if (!openTrace(Path, Out, Error)) {
    return false; // as every other command opens it, with the same errors
  }
  Out.Stream->setEncodedValues(true);
  Out.Stream->setArgsOnlyWhereNamed(true);
  if (LookAhead)
    Out.Stream->setLookAhead(LookAhead);
  return true;
}

const std::string &problemsRead(const Trace &T) {
  // The stream's own trace: the caller's copy of the outline was made
  // before the records were read.
  return T.Stream ? T.Stream->trace().Problem : T.Problem;
}

std::vector<std::string> readWarnings(const Trace &T, const std::string &Path) {
  std::vector<std::string> Out;
  if (const std::string &Problem = problemsRead(T); !Problem.empty())
    Out.push_back(Path + ": " + Problem + "; read up to there");
  if (!T.Stream)
    return Out;
  if (std::string Unread = T.Stream->unreadText(); !Unread.empty())
    Out.push_back(Path + ": " + Unread + "; their records were not checked");
  if (std::string Late = lateWarning(T, Path); !Late.empty())
    Out.push_back(std::move(Late));
  return Out;
}

std::string lateWarning(const Trace &T, const std::string &Path) {
  std::string Late = T.Stream ? T.Stream->lateText() : std::string();
  if (Late.empty())
    return {};
  return Path + ": " + Late +
         "; the order and containment invariants are not checked over the "
         "iterations of such a region (--look-ahead N holds more, about 120 "
         "bytes each; docs/invariants.md, \"Long traces\")";
}

} // namespace sonde::trace::inv
