// The C API (nettopo/nettopo.h) over the C++ library: a handle owns the
// Cluster, its distance index (built by the first network query, immutable
// afterwards) and a pool of QueryEngines; every entry point turns exceptions
// into return codes and the calling thread's message.
//
// Concurrency without a lock on the query path: the index is published by
// std::call_once and only read afterwards (the row cache, its one kind with
// internal state, locks itself); each call borrows a QueryEngine (whose
// search state is mutable) from a slot of the pool by an atomic flag,
// starting at a slot chosen by the calling thread so that threads rarely
// meet; when every slot is busy it makes a temporary engine.
#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/nettopo.h"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <fmt/format.h>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#ifndef NETTOPO_VERSION_STRING
#define NETTOPO_VERSION_STRING "0.1.0"
#endif

namespace {

using namespace nettopo;

// A failure with its C return code, thrown inside an entry point and caught
// at its boundary.
class ApiError : public std::runtime_error {
public:
    ApiError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

// QueryEngines lent to one call at a time (see the comment at the top).
class EnginePool {
public:
    EnginePool()
        : size_(std::bit_ceil(std::max(16u, 2 * std::thread::hardware_concurrency()))),
          slots_(std::make_unique<Slot[]>(size_)) {}

    // An engine for the duration of one call; returned to its slot (or
    // deleted, if temporary) when the lease ends.
    class Lease {
    public:
        QueryEngine& operator*() const { return *engine_; }
        QueryEngine* operator->() const { return engine_; }
        ~Lease() {
            if (busy_) busy_->store(false, std::memory_order_release);
        }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

    private:
        friend class EnginePool;
        Lease(QueryEngine* engine, std::atomic<bool>* busy) : engine_(engine), busy_(busy) {}
        explicit Lease(std::unique_ptr<QueryEngine> own)
            : engine_(own.get()), own_(std::move(own)) {}
        QueryEngine* engine_;
        std::atomic<bool>* busy_ = nullptr;
        std::unique_ptr<QueryEngine> own_;
    };

    // Engines are made on first use of a slot, over `index` (which must stay
    // the same for the pool's life).
    Lease borrow(const Cluster& cluster, const DistanceIndex* index) {
        const std::size_t start = thread_number();
        for (std::size_t i = 0; i < size_; ++i) {
            Slot& s = slots_[(start + i) & (size_ - 1)];
            if (s.busy.load(std::memory_order_relaxed) ||
                s.busy.exchange(true, std::memory_order_acquire))
                continue;
            try {
                if (!s.engine) s.engine = std::make_unique<QueryEngine>(cluster, index);
            } catch (...) {
                s.busy.store(false, std::memory_order_release);
                throw;
            }
            return Lease(s.engine.get(), &s.busy);
        }
        return Lease(std::make_unique<QueryEngine>(cluster, index));
    }

private:
    // Threads are numbered in the order they first borrow, so up to size_
    // threads each start at a slot of their own.
    static std::size_t thread_number() {
        static std::atomic<std::size_t> next{0};
        thread_local const std::size_t mine = next.fetch_add(1, std::memory_order_relaxed);
        return mine;
    }

    struct alignas(64) Slot { // one cache line each: threads on neighbouring slots do not meet
        std::atomic<bool> busy{false};
        std::unique_ptr<QueryEngine> engine;
    };
    std::size_t size_; // a power of two: slots are found by a mask, not a division
    std::unique_ptr<Slot[]> slots_;
};

// The calling thread's last failure. If even the message cannot be stored,
// a fixed text stands for it.
thread_local std::string last_error_text;
thread_local const char* last_error = "";

int fail(int code, const char* function, const char* message) noexcept {
    try {
        last_error_text = fmt::format("{}: {}", function, message);
        last_error = last_error_text.c_str();
    } catch (...) {
        last_error = "out of memory while reporting an error";
    }
    return code;
}

// Runs an entry point's body; every exception becomes a code and a message.
template <class Body> int guarded(const char* function, Body&& body) noexcept {
    try {
        return body();
    } catch (const ApiError& e) {
        return fail(e.code(), function, e.what());
    } catch (const std::bad_alloc&) {
        return fail(NETTOPO_ERR_NOMEM, function, "out of memory");
    } catch (const InputError& e) {
        return fail(NETTOPO_ERR_INPUT, function, e.what());
    } catch (const UsageError& e) {
        return fail(NETTOPO_ERR_INVALID, function, e.what());
    } catch (const std::exception& e) {
        return fail(NETTOPO_ERR_INTERNAL, function, e.what());
    } catch (...) {
        return fail(NETTOPO_ERR_INTERNAL, function, "unknown exception");
    }
}

template <class T> void require_pointer(const T* p, const char* name) {
    if (!p) throw ApiError(NETTOPO_ERR_INVALID, fmt::format("{} is NULL", name));
}

} // namespace

struct nettopo_topology {
    explicit nettopo_topology(Cluster c) : cluster(std::move(c)) {
        name_offsets.reserve(cluster.num_machines());
        for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) {
            name_offsets.push_back(machine_names.size());
            machine_names += cluster.machine_name(MachineId(m));
            machine_names += '\0';
        }
    }

    PeId pe(std::uint32_t index) const {
        if (index < cluster.num_pes()) return PeId(index);
        try {
            cluster.require_pe(index); // throws, with the library's one message for it
        } catch (const UsageError& e) {
            throw ApiError(NETTOPO_ERR_RANGE, e.what());
        }
        throw ApiError(NETTOPO_ERR_RANGE, fmt::format("PE {} does not exist", index));
    }

    // An engine over the distance index, built by the first caller. Once
    // built, one atomic load finds it (std::call_once alone costs a call of
    // pthread_once every time).
    EnginePool::Lease engine() {
        const DistanceIndex* built = index_built.load(std::memory_order_acquire);
        if (!built)
            std::call_once(index_once, [&] {
                index = build_distance_index(cluster);
                index_built.store(index.get(), std::memory_order_release);
            });
        return engines.borrow(cluster, index.get());
    }

    const Cluster cluster;
    std::string machine_names; // NUL-terminated, one after another
    std::vector<std::size_t> name_offsets;
    std::once_flag index_once; // an exception leaves it unset: the next call tries again
    std::unique_ptr<const DistanceIndex> index;
    std::atomic<const DistanceIndex*> index_built{nullptr}; // index.get() once it is built
    EnginePool engines;
};

namespace {

template <class Topology> Topology& require_handle(Topology* t) { // const or not
    if (!t) throw ApiError(NETTOPO_ERR_INVALID, "the topology handle is NULL");
    return *t;
}

// A count of the handle, 0 (and the message) for a NULL handle.
template <class Count>
std::uint32_t count_of(const nettopo_topology* t, const char* function, Count count) noexcept {
    std::uint32_t n = 0;
    guarded(function, [&] {
        n = count(require_handle(t).cluster);
        return NETTOPO_OK;
    });
    return n;
}

// Hops or distance: stores the engine's answer, or says there is none.
template <class T, class Ask>
int network_pair(const char* function, nettopo_topology* t, std::uint32_t a, std::uint32_t b,
                 T* out, const char* out_name, Ask ask) noexcept {
    return guarded(function, [&] {
        nettopo_topology& h = require_handle(t);
        require_pointer(out, out_name);
        const PeId pa = h.pe(a), pb = h.pe(b);
        const std::optional<T> answer = ask(*h.engine(), pa, pb);
        if (!answer) return NETTOPO_UNREACHABLE;
        *out = *answer;
        return NETTOPO_OK;
    });
}

} // namespace

extern "C" {

const char* nettopo_version(void) {
    return NETTOPO_VERSION_STRING;
}

const char* nettopo_last_error(void) {
    return last_error;
}

int nettopo_open(const char* path, nettopo_topology** out) {
    if (out) *out = nullptr;
    return guarded("nettopo_open", [&] {
        require_pointer(path, "path");
        require_pointer(out, "out");
        *out = std::make_unique<nettopo_topology>(load_cluster(path)).release();
        return NETTOPO_OK;
    });
}

void nettopo_close(nettopo_topology* t) {
    delete t;
}

uint32_t nettopo_num_pes(const nettopo_topology* t) {
    return count_of(t, "nettopo_num_pes", [](const Cluster& c) { return c.num_pes(); });
}

uint32_t nettopo_num_machines(const nettopo_topology* t) {
    return count_of(t, "nettopo_num_machines", [](const Cluster& c) { return c.num_machines(); });
}

uint32_t nettopo_num_nodes(const nettopo_topology* t) {
    return count_of(t, "nettopo_num_nodes", [](const Cluster& c) { return c.num_nodes(); });
}

int nettopo_machine_of(const nettopo_topology* t, uint32_t pe, uint32_t* machine) {
    return guarded("nettopo_machine_of", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(machine, "machine");
        *machine = h.cluster.machine_of(h.pe(pe)).value;
        return NETTOPO_OK;
    });
}

const char* nettopo_machine_name(const nettopo_topology* t, uint32_t machine) {
    const char* name = nullptr;
    guarded("nettopo_machine_name", [&] {
        const nettopo_topology& h = require_handle(t);
        const std::uint32_t n = h.cluster.num_machines();
        if (machine >= n)
            throw ApiError(NETTOPO_ERR_RANGE,
                           fmt::format("machine {} does not exist: the cluster has {} machines "
                                       "(0..{})",
                                       machine, n, n - 1));
        name = h.machine_names.c_str() + h.name_offsets[machine];
        return NETTOPO_OK;
    });
    return name;
}

int nettopo_proximity(const nettopo_topology* t, uint32_t a, uint32_t b, int* level) {
    return guarded("nettopo_proximity", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(level, "level");
        *level = static_cast<int>(h.cluster.proximity(h.pe(a), h.pe(b)));
        return NETTOPO_OK;
    });
}

int nettopo_hops(nettopo_topology* t, uint32_t a, uint32_t b, uint32_t* hops) {
    return network_pair("nettopo_hops", t, a, b, hops, "hops",
                        [](QueryEngine& e, PeId x, PeId y) { return e.hop_count(x, y); });
}

int nettopo_distance_ns(nettopo_topology* t, uint32_t a, uint32_t b, double* ns) {
    return network_pair("nettopo_distance_ns", t, a, b, ns, "ns",
                        [](QueryEngine& e, PeId x, PeId y) { return e.distance(x, y); });
}

int nettopo_nearest(nettopo_topology* t, uint32_t pe, uint32_t k, uint32_t* pes, double* ns,
                    uint32_t* found) {
    return guarded("nettopo_nearest", [&] {
        nettopo_topology& h = require_handle(t);
        require_pointer(found, "found");
        if (k > 0) require_pointer(pes, "pes");
        const PeId p = h.pe(pe);
        // As nettopo-query: no more than every PE can be asked for.
        const std::vector<NearPe> near = h.engine()->nearest(p, std::min(k, h.cluster.num_pes()));
        for (std::size_t i = 0; i < near.size(); ++i) {
            pes[i] = near[i].pe.value;
            if (ns) ns[i] = near[i].distance_ns;
        }
        *found = static_cast<std::uint32_t>(near.size());
        return NETTOPO_OK;
    });
}

} // extern "C"
