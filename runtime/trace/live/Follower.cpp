//===- Follower.cpp - Reading trace files while they are written ----------===//
//
// The framing of a growing file (Follower.h): the header once, then every
// whole block at the end of the file, each as the reader's Decoder reads
// it (reader/Blocks.cpp for the definitions, reader/Records.cpp for the
// records, checked first as the reader checks them). Only the complete
// blocks are taken; a block the writer has not finished yet (a torn tail,
// whatever its length) is read again at the next poll.
//
//===----------------------------------------------------------------------===//

#include "live/Follower.h"

#include "reader/Decoder.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sonde::trace::live {

using namespace detail;

namespace {

/// A block longer than this is not one libsonde writes (its blocks are at
/// most a few hundred KiB): a corrupt length, which would otherwise make
/// the follower wait for ever for the rest of it.
constexpr uint32_t MaxBlockLen = 64u << 20;

/// How long an Events block waits for the file's second clock anchor
/// (libsonde writes it 10 ms after the first, often after the first Events
/// block: it is looked for ahead): without it, ticks cannot be turned into
/// times. A file that never gets one (its process was killed at once) is
/// read on with the one anchor it has.
constexpr auto AnchorWait = std::chrono::seconds(2);

} // namespace

struct FileFollower::Impl : RecordSink {
  Trace T;
  Decoder D{T};
  int Fd = -1;
  bool HeaderRead = false;
  bool Started = false;
  bool Failed = false;
  std::string Problem;
  uint64_t Pos = 0;
  std::vector<uint8_t> Buf;
  // The events walk of one block hands each record to the user's sink.
  Pending Slot;
  LiveSink *Out = nullptr;
  FileFollower *Self = nullptr;
  /// Since when an Events block has waited for the second anchor.
  std::chrono::steady_clock::time_point WaitingSince{};
  bool Waiting = false;
  size_t CorruptSaid = 0;
  /// A Clock block read ahead of its place (for the second anchor): it is
  /// not read again when its turn comes.
  uint64_t ReadAhead = 0;

  ~Impl() override {
    if (Fd >= 0)
      ::close(Fd);
  }

  Pending &fresh() override { return Slot; }
  void commit() override { Out->event(*Self, Slot.E); }

  void fail(const std::string &Why) {
    Failed = true;
    Problem = T.Path + ": " + Why;
  }

  /// `Len` bytes at `Off`, or null when the file has fewer.
  const uint8_t *bytes(uint64_t Off, size_t Len) {
    if (Buf.size() < Len)
      Buf.resize(Len);
    size_t Got = 0;
    while (Got < Len) {
      ssize_t N = ::pread(Fd, Buf.data() + Got, Len - Got,
                          static_cast<off_t>(Off + Got));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return nullptr;
      Got += static_cast<size_t>(N);
    }
    return Buf.data();
  }

  bool readHeader(uint64_t Size);
  /// Reads the first Clock block among the whole blocks after Pos, if any.
  void clockAhead(uint64_t Size);
  /// One whole block at Pos; false when it must wait for the next poll.
  bool block(uint64_t Size);
  void events(uint64_t Body, uint32_t Len);
};

bool FileFollower::Impl::readHeader(uint64_t Size) {
  // A header still being written is waited for; one whose first bytes
  // already differ from the magic is not a trace.
  size_t Have = static_cast<size_t>(std::min<uint64_t>(Size, 8));
  const uint8_t *H = Have ? bytes(0, Have) : nullptr;
  if (H && std::memcmp(H, format::Magic, Have) != 0) {
    fail("not a sonde trace (bad magic)");
    return false;
  }
  if (Size < format::FileHeaderSize)
    return false;
  H = bytes(0, format::FileHeaderSize);
  if (!H)
    return false;
  T.VersionMajor = static_cast<uint16_t>(H[8] | (H[9] << 8));
  T.VersionMinor = static_cast<uint16_t>(H[10] | (H[11] << 8));
  if (T.VersionMajor != format::Major) {
    fail("trace format " + std::to_string(T.VersionMajor) + "." +
         std::to_string(T.VersionMinor) +
         " is not readable by this sonde (format " +
         std::to_string(format::Major) + ".x)");
    return false;
  }
  D.PointLevels = T.VersionMinor >= 2;
  Pos = format::FileHeaderSize;
  HeaderRead = true;
  return true;
}

void FileFollower::Impl::clockAhead(uint64_t Size) {
  uint64_t At = Pos;
  while (Size - At >= format::BlockHeaderSize) {
    const uint8_t *H = bytes(At, format::BlockHeaderSize);
    if (!H)
      return;
    auto Type = static_cast<Block>(H[0]);
    uint32_t Len = 0;
    for (int I = 0; I < 4; ++I)
      Len |= static_cast<uint32_t>(H[1 + I]) << (8 * I);
    uint64_t Body = At + format::BlockHeaderSize;
    if (Type < Block::Process || Type > Block::End || Len > MaxBlockLen ||
        Size - Body < Len)
      return; // said when the walk in order gets there
    if (Type == Block::Clock) {
      const uint8_t *P = bytes(Body, Len);
      if (!P)
        return;
      Cursor C(P, P + Len);
      D.block(Type, C, At);
      D.clockLine();
      ReadAhead = At;
      return;
    }
    At = Body + Len;
  }
}

void FileFollower::Impl::events(uint64_t Body, uint32_t Len) {
  const uint8_t *P = bytes(Body, Len);
  if (!P)
    return;
  EventsBlock EB;
  EB.Offset = Body;
  EB.Len = Len;
  {
    Cursor C(P, P + Len);
    uint64_t Thread = C.varint();
    EB.Thread =
        C.ok() && Thread <= UINT32_MAX ? static_cast<uint32_t>(Thread) : ~0u;
  }
  // The check first, as the reader does: it finds where the block stops
  // being trustworthy. It walks the context pushes too, so the thread's
  // context is put back before the events walk.
  ThreadDecode Saved;
  auto It = D.Threads.find(EB.Thread);
  bool Had = It != D.Threads.end();
  if (Had)
    Saved = It->second;
  {
    Cursor C(P, P + Len);
    D.events(C, EB, nullptr);
  }
  if (Had)
    D.Threads[EB.Thread] = std::move(Saved);
  else
    D.Threads.erase(EB.Thread);
  Cursor C(P, P + Len);
  D.events(C, EB, this);
  D.StopAt.erase(EB.Offset);
}

bool FileFollower::Impl::block(uint64_t Size) {
  if (Size - Pos < format::BlockHeaderSize)
    return false;
  const uint8_t *H = bytes(Pos, format::BlockHeaderSize);
  if (!H)
    return false;
  auto Type = static_cast<Block>(H[0]);
  uint32_t Len = 0;
  for (int I = 0; I < 4; ++I)
    Len |= static_cast<uint32_t>(H[1 + I]) << (8 * I);
  if (Type < Block::Process || Type > Block::End) {
    fail("byte " + std::to_string(Pos) + ": unknown block type " +
         std::to_string(static_cast<int>(Type)) + "; not read further");
    return false;
  }
  if (Len > MaxBlockLen) {
    fail("byte " + std::to_string(Pos) + ": a block of " + std::to_string(Len) +
         " bytes, more than a writer writes; not " + "read further");
    return false;
  }
  uint64_t Body = Pos + format::BlockHeaderSize;
  if (Size - Body < Len)
    return false; // still being written: the next poll takes it
  if (Type == Block::Events) {
    if (T.Anchors.size() < 2 && !ReadAhead)
      clockAhead(Size);
    if (T.Anchors.size() < 2) {
      // Wait a little for the anchor that gives the clock its rate.
      auto Now = std::chrono::steady_clock::now();
      if (!Waiting) {
        Waiting = true;
        WaitingSince = Now;
      }
      if (Now - WaitingSince < AnchorWait)
        return false;
    }
    events(Body, Len);
  } else if (Pos != ReadAhead) {
    const uint8_t *P = bytes(Body, Len);
    if (!P)
      return false;
    Cursor C(P, P + Len);
    D.block(Type, C, Pos);
    if (Type == Block::Clock)
      D.clockLine();
    if (Type == Block::Process && !Started) {
      Started = true;
      Out->started(*Self);
    }
    if (Type == Block::End) {
      if (!T.Anchors.empty())
        T.Process.EndNs = std::max(
            T.Process.StartNs, Decoder::bound(D.toNs(T.Anchors.back().Tsc)));
      Pos = Body + Len;
      Out->ended(*Self);
      return false; // nothing may follow the End block
    }
  }
  Pos = Body + Len;
  return true;
}

FileFollower::FileFollower(std::string P)
    : Path(std::move(P)), I(std::make_unique<Impl>()) {
  I->T.Path = Path;
  I->Self = this;
}

FileFollower::~FileFollower() = default;

size_t FileFollower::poll(LiveSink &Sink) {
  Impl &S = *I;
  if (S.Failed || S.T.Process.Ended)
    return 0;
  if (S.Fd < 0) {
    S.Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
    if (S.Fd < 0)
      return 0; // not there yet
  }
  struct stat St;
  if (fstat(S.Fd, &St) != 0)
    return 0;
  auto Size = static_cast<uint64_t>(St.st_size);
  if (!S.HeaderRead && !S.readHeader(Size))
    return 0;
  if (Size < S.Pos) {
    // The writer cut the file back to its last whole block after a failed
    // write (a full disk): what it writes next goes there.
    S.Problem = Path + ": cut back from byte " + std::to_string(S.Pos) +
                " to " + std::to_string(Size) +
                " (a failed write); the records read past it were shown";
    S.Pos = std::max<uint64_t>(Size, format::FileHeaderSize);
  }
  S.Out = &Sink;
  size_t Blocks = 0;
  while (!S.Failed && !S.T.Process.Ended && S.block(Size))
    ++Blocks;
  if (S.T.Process.Ended)
    ++Blocks;
  // Never silent: what the check could not trust, said as the reader
  // says it (once, then its count).
  if (!S.Failed && !S.D.Corrupt.empty() &&
      S.CorruptSaid != 1 + S.D.MoreCorrupt) {
    S.CorruptSaid = 1 + S.D.MoreCorrupt;
    S.Problem =
        Path + ": corrupt: " + S.D.Corrupt +
        (S.D.MoreCorrupt ? " (and " + std::to_string(S.D.MoreCorrupt) + " more)"
                         : std::string()) +
        "; the rest of each such block was skipped";
  }
  S.Out = nullptr;
  return Blocks;
}

const Trace &FileFollower::trace() const { return I->T; }
bool FileFollower::started() const { return I->Started; }
bool FileFollower::ended() const { return I->T.Process.Ended; }
const std::string &FileFollower::problem() const { return I->Problem; }
bool FileFollower::failed() const { return I->Failed; }
uint64_t FileFollower::offset() const { return I->Pos; }

uint64_t FileFollower::dropped() const {
  if (I->T.Process.Ended)
    return I->T.Process.Dropped;
  uint64_t N = 0;
  for (const auto &KV : I->D.Dropped)
    N += KV.second;
  return N;
}

Follower::Follower(std::vector<std::string> Inputs) {
  // A .sonde name is a file, even before it exists; any other name that
  // does not exist yet is a directory the job will create (SONDE_OUTPUT).
  for (std::string &P : Inputs) {
    struct stat St;
    bool Exists = stat(P.c_str(), &St) == 0;
    bool Sonde = P.size() > 6 && P.compare(P.size() - 6, 6, ".sonde") == 0;
    if (Exists ? S_ISDIR(St.st_mode) : !Sonde)
      Dirs.push_back(std::move(P));
    else
      addFile(P);
  }
}

Follower::~Follower() = default;

void Follower::addFile(const std::string &Path) {
  for (const auto &F : Files)
    if (F->path() == Path)
      return;
  Files.push_back(std::make_unique<FileFollower>(Path));
}

void Follower::scan(const std::string &Dir) {
  DIR *D = opendir(Dir.c_str());
  if (!D) {
    if (errno != ENOENT && // not created yet: looked for again next time
        std::find(NotedDirs.begin(), NotedDirs.end(), Dir) == NotedDirs.end()) {
      NotedDirs.push_back(Dir);
      Notes.push_back(Dir +
                      ": cannot read this directory: " + std::strerror(errno));
    }
    return;
  }
  std::vector<std::string> Found;
  while (dirent *E = readdir(D)) {
    std::string N = E->d_name;
    if (N.size() > 6 && N.compare(N.size() - 6, 6, ".sonde") == 0)
      Found.push_back(Dir + "/" + N);
  }
  closedir(D);
  std::sort(Found.begin(), Found.end());
  size_t Skipped = 0;
  for (const std::string &F : Found) {
    if (FirstScan && std::find(Old.begin(), Old.end(), F) == Old.end() &&
        std::none_of(Files.begin(), Files.end(),
                     [&](const auto &Fol) { return Fol->path() == F; })) {
      // Read it through once, records discarded: an earlier run's file
      // has its End block already.
      struct Discard : LiveSink {
        void event(const FileFollower &, const Event &) override {}
      } None;
      FileFollower Probe(F);
      for (int Pass = 0; Pass < 100 && Probe.poll(None) != 0; ++Pass)
        if (Probe.ended())
          break;
      if (Probe.ended()) {
        Old.push_back(F);
        ++Skipped;
        continue;
      }
    }
    if (std::find(Old.begin(), Old.end(), F) == Old.end())
      addFile(F);
  }
  if (Skipped)
    Notes.push_back(Dir + ": " + std::to_string(Skipped) + " trace" +
                    (Skipped == 1 ? " of a process" : "s of processes") +
                    " that had ended before 'sonde live' started, not " +
                    "followed");
}

size_t Follower::poll(LiveSink &Sink) {
  for (const std::string &Dir : Dirs)
    scan(Dir);
  FirstScan = false;
  size_t Blocks = 0;
  for (const auto &F : Files) {
    bool WasFailed = F->failed();
    std::string Before = F->problem();
    Blocks += F->poll(Sink);
    if (!F->problem().empty() &&
        (F->failed() != WasFailed || F->problem() != Before))
      Notes.push_back(F->problem());
  }
  return Blocks;
}

bool Follower::allEnded() const {
  if (Files.empty())
    return false;
  for (const auto &F : Files)
    if (!F->ended() && !F->failed())
      return false;
  return true;
}

std::vector<std::string> Follower::takeNotes() {
  std::vector<std::string> N;
  N.swap(Notes);
  return N;
}

} // namespace sonde::trace::live
