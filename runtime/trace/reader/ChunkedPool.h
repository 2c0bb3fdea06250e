//===- ChunkedPool.h - Elements by index that never move --------*- C++ -*-===//
//
// The events Order holds: up to its look-ahead (2^20) of them when a
// region holds a whole file (a training loop inside `train`). A vector grew
// by doubling, moving every held event each time and touching twice the
// memory it ends with: for a 12 MB trace of 1.26 M records, 300 MB and as
// much time in the kernel's page faults as in the reader. Here the elements
// live in chunks that are never moved: growing adds a chunk. Past the first
// two, chunks are cut from larger buffers, mapped in huge pages once they
// reach a megabyte (LargeBuffer.h): a region that holds a whole run fills
// hundreds of chunks.
//
// Private to the trace library.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_TRACE_READER_CHUNKEDPOOL_H
#define SONDE_TRACE_READER_CHUNKEDPOOL_H

#include "LargeBuffer.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace sonde::trace::detail {

/// A sequence of T by index, grown at the end, in chunks of 2^Shift.
template <class T, unsigned Shift = 12> class ChunkedPool {
public:
  ChunkedPool() = default;
  ChunkedPool(const ChunkedPool &) = delete;
  ChunkedPool &operator=(const ChunkedPool &) = delete;
  ~ChunkedPool() {
    for (size_t I = 0; I < Size; ++I)
      (*this)[I].~T();
  }

  T &operator[](size_t I) { return slot(I); }
  const T &operator[](size_t I) const {
    return const_cast<ChunkedPool *>(this)->slot(I);
  }
  size_t size() const { return Size; }

  /// Appends a value-initialized T.
  T &emplace_back() {
    if (__builtin_expect((Size >> Shift) == Chunks.size(), 0))
      addChunk();
    T *At = ::new (static_cast<void *>(&slot(Size))) T();
    ++Size;
    return *At;
  }

private:
  static constexpr size_t ChunkSize = size_t(1) << Shift;
  struct Storage {
    alignas(T) unsigned char Bytes[sizeof(T)];
  };
  /// Out of line: the events walk inlines emplace_back() once a record.
  __attribute__((noinline)) void addChunk() {
    if (SpareChunks == 0) {
      // One chunk at a time while the pool is small (most traces), then
      // as many as it has (2, 4, 8), up to 16 at once.
      size_t N = Chunks.size() < 2 ? 1 : std::min<size_t>(Chunks.size(), 16);
      Buffers.emplace_back(N * sizeof(Storage[ChunkSize]));
      if (!Buffers.back())
        throw std::bad_alloc();
      Next = reinterpret_cast<Storage *>(Buffers.back().data());
      SpareChunks = N;
    }
    Chunks.push_back(Next);
    Next += ChunkSize;
    --SpareChunks;
  }
  T &slot(size_t I) {
    return *std::launder(
        reinterpret_cast<T *>(Chunks[I >> Shift][I & (ChunkSize - 1)].Bytes));
  }
  std::vector<Storage *> Chunks;
  std::vector<LargeBuffer> Buffers; ///< the memory the chunks are cut from
  Storage *Next = nullptr;          ///< the next chunk's place in the last
  size_t SpareChunks = 0;
  size_t Size = 0;
};

} // namespace sonde::trace::detail

#endif // SONDE_TRACE_READER_CHUNKEDPOOL_H
