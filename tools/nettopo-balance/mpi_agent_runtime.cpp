#include "nettopo-balance/mpi_agent_runtime.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iostream>
#include <limits>
#include <mpi.h>

namespace nettopo {

namespace {

// A message on the wire: src, dst, kind, item, flag, the list's length
// (6 x 4 bytes), the value (8), then (PE, load) pairs (12 each).
constexpr std::size_t header_bytes = 6 * 4 + 8, pair_bytes = 12;

template <class T> void put(std::vector<char>& b, T v) {
    const std::size_t at = b.size();
    b.resize(at + sizeof v);
    std::memcpy(b.data() + at, &v, sizeof v);
}

template <class T> T take(const char*& p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
}

void serialise(const AgentMessage& m, std::vector<char>& b) {
    const std::uint32_t n = m.list ? m.list->count : 0;
    b.reserve(b.size() + header_bytes + pair_bytes * n);
    for (std::uint32_t v : {m.src, m.dst, m.kind, m.item, m.flag}) put(b, v);
    put(b, n);
    put(b, m.value);
    if (!m.list) return;
    const std::vector<std::uint64_t>& bits = m.list->bits;
    for (std::uint32_t k = 0; k < bits.size(); ++k)
        for (std::uint64_t w = bits[k]; w != 0; w &= w - 1) {
            const std::uint32_t pe = k * 64 + static_cast<std::uint32_t>(std::countr_zero(w));
            put(b, pe);
            put(b, m.list->loads[pe]);
        }
}

// A gossip list comes back as a bitset over the job's PEs and its own loads.
AgentMessage deserialise(const char*& p, std::uint32_t num_pes) {
    AgentMessage m;
    m.src = take<std::uint32_t>(p);
    m.dst = take<std::uint32_t>(p);
    m.kind = take<std::uint32_t>(p);
    m.item = take<std::uint32_t>(p);
    m.flag = take<std::uint32_t>(p);
    const auto n = take<std::uint32_t>(p);
    m.value = take<double>(p);
    if (m.kind != 0) return m; // only gossip (kind 0) carries a list
    auto list = std::make_shared<GossipList>();
    list->bits.assign((num_pes + 63) / 64, 0);
    list->own_loads.assign(num_pes, 0);
    list->loads = list->own_loads.data();
    list->count = n;
    for (std::uint32_t i = 0; i < n; ++i) {
        const auto pe = take<std::uint32_t>(p);
        list->bits[pe / 64] |= std::uint64_t(1) << (pe % 64);
        list->own_loads[pe] = take<double>(p);
    }
    m.list = std::move(list);
    return m;
}

// MPI counts and displacements are ints: a round of more than 2 GiB on one
// rank (gossip lists of 12 bytes a PE, at millions of ranks) stops the job.
// Not an exception: the other ranks are already waiting in the all-to-all.
void fits_int(std::size_t bytes) {
    if (bytes <= static_cast<std::size_t>(std::numeric_limits<int>::max())) return;
    std::cerr << "nettopo-balance: error: --mpi: a protocol round carries more than 2 GiB to or "
                 "from one rank\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
}

} // namespace

MpiAgentRuntime::MpiAgentRuntime() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_ = static_cast<std::uint32_t>(size);
}

std::vector<double> MpiAgentRuntime::gather(std::span<const double> local) {
    const double mine = local.empty() ? 0 : local[0];
    std::vector<double> all(size_);
    MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    return all;
}

double MpiAgentRuntime::sum(std::span<const double> local) {
    double s = 0;
    for (double v : gather(local)) s += v; // rank order, as in one process
    return s;
}

double MpiAgentRuntime::max(std::span<const double> local) {
    const std::vector<double> all = gather(local);
    return *std::max_element(all.begin(), all.end());
}

std::uint64_t MpiAgentRuntime::exchange(std::vector<AgentMessage>& out,
                                        std::vector<AgentMessage>& in, std::uint64_t waiting) {
    // One buffer per destination, each source's messages in the order sent.
    std::vector<std::vector<char>> to(size_);
    for (const AgentMessage& m : out) serialise(m, to[m.dst]);
    std::vector<int> send_counts(size_), recv_counts(size_), send_at(size_), recv_at(size_);
    std::vector<char> send;
    for (std::uint32_t r = 0; r < size_; ++r) {
        send.insert(send.end(), to[r].begin(), to[r].end());
        fits_int(send.size());
        send_at[r] = static_cast<int>(send.size() - to[r].size());
        send_counts[r] = static_cast<int>(to[r].size());
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::size_t total = 0;
    for (std::uint32_t r = 0; r < size_; ++r) {
        recv_at[r] = static_cast<int>(total);
        total += static_cast<std::size_t>(recv_counts[r]);
        fits_int(total);
    }
    std::vector<char> received(total);
    MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_CHAR, received.data(),
                  recv_counts.data(), recv_at.data(), MPI_CHAR, MPI_COMM_WORLD);
    // By source rank, then the order sent: what exchange() promises.
    in.clear();
    for (const char* p = received.data(); p < received.data() + received.size();)
        in.push_back(deserialise(p, size_));
    // Quiescence: nothing sent and no one waiting anywhere (MPI loses nothing,
    // so nothing is in flight once a round is over).
    unsigned long long mine = out.size() + waiting, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

} // namespace nettopo
