import Glibc

/// Gives memory the process freed back to the system.
///
/// glibc keeps freed heap in its arenas for reuse, so after a thousand connections with
/// megabytes of queued output close, the daemon would stay that large. `malloc_trim(0)`
/// releases the free pages of every arena (glibc ≥ 2.8 also returns pages in the middle of the
/// heap, with `madvise(MADV_DONTNEED)`). It costs a walk over the free lists: the server calls
/// it once things have been quiet for half a second after closes, never per close.
enum MemoryTrim {
  static func returnFreeMemory() {
    _ = glibcMallocTrim(0)
  }
}

/// `int malloc_trim(size_t pad)` from <malloc.h>, which the Glibc module does not import.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
