//===- Follower.h - Reading trace files while they are written -*- C++ -*-===//
//
// `sonde live` reads trace files that a running program is still writing.
// libsonde's writer appends whole blocks only, each within SONDE_FLUSH_DELAY
// of its records being made (docs/runtime.md), so a reader that takes only
// the complete blocks at the end of the file, and leaves a block still
// being written for its next look, reads every record exactly once.
//
// A FileFollower does that for one file: it keeps the definitions (sites,
// strings, threads, clock anchors) with the reader's Decoder
// (reader/Decoder.h), checks each new Events block as the reader does and
// gives its events in file order. A Follower does it for a set of files
// and directories: a file that appears in a followed directory later (a
// rank that starts late, a forked child) is followed from its first byte.
// Neither holds more than the definitions and one block.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_LIVE_FOLLOWER_H
#define SONDE_TRACE_LIVE_FOLLOWER_H

#include "sonde/trace.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sonde::trace::live {

class FileFollower;

/// What a follower tells its user, in file order.
class LiveSink {
public:
  virtual ~LiveSink() = default;
  /// The file's Process block was read (its header and first block).
  virtual void started(const FileFollower &) {}
  /// One record of a new Events block.
  virtual void event(const FileFollower &, const Event &) = 0;
  /// The file's End block was read: its process ended.
  virtual void ended(const FileFollower &) {}
};

/// One trace file, followed as it grows.
class FileFollower {
public:
  explicit FileFollower(std::string Path);
  ~FileFollower();
  FileFollower(const FileFollower &) = delete;
  FileFollower &operator=(const FileFollower &) = delete;

  /// Reads the whole blocks written since the last poll and gives their
  /// events to `Sink`. A block cut by the end of the file is left for the
  /// next poll. Returns the number of blocks read.
  size_t poll(LiveSink &Sink);

  const std::string &path() const { return Path; }
  /// The trace as known so far: process, sites, threads, anchors (never
  /// its events, which only pass through).
  const Trace &trace() const;
  /// The file's Process block has been read.
  bool started() const;
  /// The End block has been read: nothing more will come.
  bool ended() const;
  /// Why the file cannot be followed (not a trace, another format, a
  /// corrupt block header), or what was skipped in it; empty when all is
  /// well. A failed file is not read again.
  const std::string &problem() const;
  bool failed() const;
  /// Records the writer dropped so far (Dropped blocks, then the End's).
  uint64_t dropped() const;
  /// Bytes read so far: the offset of the first block not read yet.
  uint64_t offset() const;

private:
  struct Impl;
  std::string Path;
  std::unique_ptr<Impl> I;
};

/// Trace files and directories of them, followed together. The files a
/// directory holds when the follower starts whose process has already
/// ended belong to an earlier run: they are not followed (a job started in
/// a directory of old traces must not end the command at once). Files
/// named as such, and every file that appears later, are.
class Follower {
public:
  /// `Inputs`: .sonde files (which may not exist yet) and directories.
  explicit Follower(std::vector<std::string> Inputs);
  ~Follower();

  /// Looks for new files in the directories, then polls every file once.
  /// Returns the number of blocks read.
  size_t poll(LiveSink &Sink);

  const std::vector<std::unique_ptr<FileFollower>> &files() const {
    return Files;
  }
  /// Every file followed has ended or cannot be followed (and there is at
  /// least one).
  bool allEnded() const;
  /// Problems to say once each (a file that cannot be followed, a
  /// directory that cannot be read); taken by the caller.
  std::vector<std::string> takeNotes();

private:
  std::vector<std::string> Dirs;
  std::vector<std::unique_ptr<FileFollower>> Files;
  std::vector<std::string> Notes;
  std::vector<std::string> NotedDirs;
  /// Files of the directories' first scan whose process had already ended:
  /// an earlier run's, not followed (said once).
  std::vector<std::string> Old;
  bool FirstScan = true;
  void addFile(const std::string &Path);
  void scan(const std::string &Dir);
};

} // namespace sonde::trace::live

#endif // SONDE_TRACE_LIVE_FOLLOWER_H
