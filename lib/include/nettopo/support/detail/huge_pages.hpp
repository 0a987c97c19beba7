// Large arrays filled once at load time (an archive's text, its links, the
// adjacency) are backed by transparent huge pages where the kernel offers
// them on request (Linux, THP "madvise", Debian's default): the kernel then
// gives a 2 MB page per fault instead of a 4 KB one. Loading the
// 10^6-machine torus took about half its time in page faults (issue 25).
// Advice only: where it is refused or unknown nothing changes.
#pragma once

#include <cstddef>
#include <vector>

namespace nettopo {

// Ask for huge pages on the 2 MB-aligned pages inside [data, data + bytes).
// Below a few MB, or off Linux, does nothing.
void advise_huge_pages(const void* data, std::size_t bytes) noexcept;

// v.reserve(n), then the advice, before anything touches the new storage
// (a page already touched keeps its 4 KB pages until the kernel merges them).
template <class T> void reserve_huge_pages(std::vector<T>& v, std::size_t n) {
    v.reserve(n);
    advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

} // namespace nettopo
