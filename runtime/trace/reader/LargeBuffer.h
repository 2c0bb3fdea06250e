//===- LargeBuffer.h - Memory for megabytes written once --------*- C++ -*-===//
//
// A trace read whole (sonde check's file bytes) and the events Order holds
// for a region that encloses the whole run are megabytes of memory written
// once, front to back. From malloc they come as fresh 4 KB pages, each
// faulted in and zeroed by the kernel, then unmapped at the end: for a
// 10 MB trace of 148,000 records that was a third of `sonde check`'s time,
// in the kernel. Here a buffer of a megabyte or more is mapped on its own
// and asks for transparent huge pages (one fault per 2 MB where the kernel
// has them; where it does not, the same 4 KB pages as before). A mapping
// given back is kept for the next buffer of its size (a few, up to 256 MB:
// LargeBuffer.cpp), so that the next file reuses pages already faulted in.
//
// Private to the trace library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_READER_LARGEBUFFER_H
#define SONDE_TRACE_READER_LARGEBUFFER_H

#include <cstddef>
#include <cstdint>

namespace sonde::trace::detail {

/// `Bytes` of uninitialized memory, aligned for any type, freed on
/// destruction; empty when it could not be had.
class LargeBuffer {
public:
  LargeBuffer() = default;
  explicit LargeBuffer(size_t Bytes);
  LargeBuffer(LargeBuffer &&O) noexcept : P(O.P), Mapped(O.Mapped) {
    O.P = nullptr;
    O.Mapped = 0;
  }
  LargeBuffer &operator=(LargeBuffer &&O) noexcept;
  LargeBuffer(const LargeBuffer &) = delete;
  LargeBuffer &operator=(const LargeBuffer &) = delete;
  ~LargeBuffer() { release(); }

  uint8_t *data() const { return static_cast<uint8_t *>(P); }
  explicit operator bool() const { return P != nullptr; }

  /// Below this, malloc's reuse of freed memory serves better.
  static constexpr size_t MappedFrom = size_t(1) << 20;

private:
  void release();
  void *P = nullptr;
  size_t Mapped = 0; ///< 0: from malloc
};

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_LARGEBUFFER_H
