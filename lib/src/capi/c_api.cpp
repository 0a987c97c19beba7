// The C API (nettopo/nettopo.h) over the C++ library: a handle owns the
// Cluster, its distance index (built by the first network query, immutable
// afterwards) and a pool of QueryEngines; every entry point turns exceptions
// into return codes and the calling thread's message. A view holds a JobView
// over its handle's cluster; a GPU binding holds distribute_gpus' ranks with
// the text the C structs point to.
//
// Concurrency without a lock on the query path: the index is published by
// std::call_once and only read afterwards (the row cache, its one kind with
// internal state, locks itself); each call borrows a QueryEngine (whose
// search state is mutable) from a slot of the pool by an atomic flag,
// starting at a slot chosen by the calling thread so that threads rarely
// meet; when every slot is busy it makes a temporary engine.
#include "nettopo/balance/gpu_launch.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/nettopo.h"
#include "nettopo/query/allocation.hpp"
#include "nettopo/query/device_nearest.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/query/gpu_binding.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <mutex>
#include <new>
#include <span>
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

// The conventions' copy of a text into a caller's buffer, as snprintf (buf
// may be NULL when size is 0).
void copy_text(std::string_view text, char* buf, std::size_t size, std::size_t* length) {
    if (size > 0) {
        require_pointer(buf, "buf");
        const std::size_t n = std::min(text.size(), size - 1);
        if (n > 0) std::memcpy(buf, text.data(), n); // data() may be null when empty
        buf[n] = '\0';
    }
    if (length) *length = text.size();
}

std::string range_text(std::uint64_t n) {
    return n == 0 ? "none" : fmt::format("0..{}", n - 1);
}

static_assert(NETTOPO_DEVICE_GPU == static_cast<int>(DeviceKind::Gpu) &&
              NETTOPO_DEVICE_NIC == static_cast<int>(DeviceKind::Nic) &&
              NETTOPO_DEVICE_STORAGE == static_cast<int>(DeviceKind::Storage) &&
              NETTOPO_DEVICE_OTHER == static_cast<int>(DeviceKind::Other));
static_assert(NETTOPO_SCATTER == static_cast<int>(DistributePolicy::Scatter) &&
              NETTOPO_COMPACT == static_cast<int>(DistributePolicy::Compact));

// A device's texts that the cluster does not hold as strings.
struct DeviceText {
    std::string names;      // IoDevice::names joined by ','
    std::string pci_bus_id; // device_pci_bus_id
};

} // namespace

struct nettopo_topology {
    explicit nettopo_topology(Cluster c) : cluster(std::move(c)) {
        name_offsets.reserve(cluster.num_machines());
        for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) {
            name_offsets.push_back(machine_names.size());
            machine_names += cluster.machine_name(MachineId(m));
            machine_names += '\0';
        }
        // Devices belong to machine types: one text per type's device.
        device_texts.resize(cluster.num_types());
        for (std::uint32_t t = 0; t < cluster.num_types(); ++t) {
            const MachineTree& tree = cluster.type(TypeId(t)).tree();
            for (const IoDevice& d : tree.devices())
                device_texts[t].push_back(
                    {fmt::format("{}", fmt::join(d.names, ",")),
                     d.pci == no_pci ? std::string() : pci_bus_id(tree.pci()[d.pci])});
        }
    }

    const char* machine_name(std::uint32_t m) const {
        return machine_names.c_str() + name_offsets[m];
    }

    MachineId machine(std::uint32_t index) const {
        const std::uint32_t n = cluster.num_machines();
        if (index >= n)
            throw ApiError(NETTOPO_ERR_RANGE,
                           fmt::format("machine {} does not exist: the cluster has {} ({})", index,
                                       counted(n, "machine"), range_text(n)));
        return MachineId(index);
    }

    MachineDevice device(std::uint32_t machine_index, std::uint32_t index) const {
        const MachineId m = machine(machine_index);
        const auto n = static_cast<std::uint32_t>(cluster.machine_type(m).tree().devices().size());
        if (index >= n)
            throw ApiError(NETTOPO_ERR_RANGE,
                           fmt::format("device {} does not exist: machine '{}' has {} ({})", index,
                                       cluster.machine_name(m), counted(n, "device"),
                                       range_text(n)));
        return {m, index};
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
    std::vector<std::vector<DeviceText>> device_texts; // per machine type, per device
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

} // namespace

struct nettopo_view {
    nettopo_view(nettopo_topology& t, std::vector<MachineId> machines)
        : topology(&t), view(t.cluster, std::move(machines)) {}

    PeId pe(std::uint32_t view_pe) const {
        const std::uint32_t n = view.num_pes();
        if (view_pe < n) return view.cluster_pe(view_pe);
        throw ApiError(NETTOPO_ERR_RANGE,
                       fmt::format("PE {} does not exist: the allocation has {} ({})", view_pe,
                                   counted(n, "PE"), range_text(n)));
    }

    nettopo_topology* const topology;
    const JobView view;
};

struct nettopo_gpu_binding {
    nettopo_gpu_binding(const nettopo_topology& t, std::vector<GpuRank> r)
        : topology(&t), ranks(std::move(r)) {
        const Cluster& c = t.cluster;
        const auto add = [&](std::string_view part) {
            const std::size_t at = text.size();
            text += part;
            text += '\0';
            return at;
        };
        offsets.reserve(ranks.size());
        first_pe.reserve(ranks.size() + 1);
        first_pe.push_back(0);
        for (const GpuRank& rank : ranks) {
            const auto devices = c.machine_type(rank.machine).tree().devices();
            const auto names = [&](std::span<const std::uint32_t> indexes) {
                std::string joined;
                for (std::uint32_t i : indexes) {
                    if (!joined.empty()) joined += ',';
                    joined += devices[i].name;
                }
                return joined;
            };
            const std::size_t cpuset = add(rank_cpu_list(c, rank));
            const std::size_t gpus = add(names(rank.gpus));
            offsets.push_back({cpuset, gpus, add(names(rank.nics))});
            const std::uint32_t first = c.pes_of_machine(rank.machine).first;
            for (std::uint32_t pu : rank.pus) pes.push_back(first + pu);
            first_pe.push_back(pes.size());
        }
    }

    struct RankText {
        std::size_t cpuset, gpus, nics; // into text
    };
    const nettopo_topology* const topology;
    const std::vector<GpuRank> ranks;
    std::string text; // each rank's texts, NUL-terminated, one after another
    std::vector<RankText> offsets;
    std::vector<std::uint32_t> pes;    // each rank's PEs, one rank after another
    std::vector<std::size_t> first_pe; // per rank, into pes, plus the total
};

namespace {

template <class View> View& require_view(View* v) { // const or not
    if (!v) throw ApiError(NETTOPO_ERR_INVALID, "the view is NULL");
    return *v;
}

const nettopo_gpu_binding& require_binding(const nettopo_gpu_binding* b) {
    if (!b) throw ApiError(NETTOPO_ERR_INVALID, "the GPU binding is NULL");
    return *b;
}

// A count of an object, 0 (and the message) for a NULL one.
template <class Count> auto count_of(const char* function, Count count) noexcept {
    decltype(count()) n = 0;
    guarded(function, [&] {
        n = count();
        return NETTOPO_OK;
    });
    return n;
}

// Hops or distance: stores the engine's answer, or says there is none.
template <class T, class Ask>
int network_pair(nettopo_topology& h, PeId a, PeId b, T* out, const char* out_name, Ask ask) {
    require_pointer(out, out_name);
    const std::optional<T> answer = ask(*h.engine(), a, b);
    if (!answer) return NETTOPO_UNREACHABLE;
    *out = *answer;
    return NETTOPO_OK;
}

const auto ask_hops = [](QueryEngine& e, PeId x, PeId y) { return e.hop_count(x, y); };
const auto ask_distance = [](QueryEngine& e, PeId x, PeId y) { return e.distance(x, y); };

// Stores a nearest list: ids (mapped by `id`) and, if asked, distances.
template <class Id>
void store_nearest(std::span<const NearPe> near, std::uint32_t* pes, double* ns,
                   std::uint32_t* found, Id id) {
    for (std::size_t i = 0; i < near.size(); ++i) {
        pes[i] = id(near[i].pe);
        if (ns) ns[i] = near[i].distance_ns;
    }
    *found = static_cast<std::uint32_t>(near.size());
}

// The machines an allocation holds: the view's (of handle h), or every machine.
std::vector<MachineId> allocation_of(const nettopo_topology& h, const nettopo_view* v) {
    if (!v) return all_machines(h.cluster);
    if (v->topology != &h)
        throw ApiError(NETTOPO_ERR_INVALID, "the view is over another topology handle");
    return {v->view.machines().begin(), v->view.machines().end()};
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
    return count_of("nettopo_num_pes", [&] { return require_handle(t).cluster.num_pes(); });
}

uint32_t nettopo_num_machines(const nettopo_topology* t) {
    return count_of("nettopo_num_machines",
                    [&] { return require_handle(t).cluster.num_machines(); });
}

uint32_t nettopo_num_nodes(const nettopo_topology* t) {
    return count_of("nettopo_num_nodes", [&] { return require_handle(t).cluster.num_nodes(); });
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
        name = h.machine_name(h.machine(machine).value);
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
    return guarded("nettopo_hops", [&] {
        nettopo_topology& h = require_handle(t);
        return network_pair(h, h.pe(a), h.pe(b), hops, "hops", ask_hops);
    });
}

int nettopo_distance_ns(nettopo_topology* t, uint32_t a, uint32_t b, double* ns) {
    return guarded("nettopo_distance_ns", [&] {
        nettopo_topology& h = require_handle(t);
        return network_pair(h, h.pe(a), h.pe(b), ns, "ns", ask_distance);
    });
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
        store_nearest(near, pes, ns, found, [](PeId x) { return x.value; });
        return NETTOPO_OK;
    });
}

/* ---- Machines and PEs ---- */

int nettopo_find_machine(const nettopo_topology* t, const char* name, uint32_t* machine) {
    return guarded("nettopo_find_machine", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(name, "name");
        require_pointer(machine, "machine");
        // As a job's host list names them (machines_named): a fully
        // qualified name finds the machine of its short name.
        const std::string_view text(name);
        auto m = h.cluster.find_machine(text);
        if (!m && text.find('.') != std::string_view::npos)
            m = h.cluster.find_machine(text.substr(0, text.find('.')));
        if (!m) return NETTOPO_NOT_FOUND;
        *machine = m->value;
        return NETTOPO_OK;
    });
}

int nettopo_machine_pes(const nettopo_topology* t, uint32_t machine, uint32_t* first,
                        uint32_t* count) {
    return guarded("nettopo_machine_pes", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(first, "first");
        require_pointer(count, "count");
        const PeRange pes = h.cluster.pes_of_machine(h.machine(machine));
        *first = pes.first;
        *count = pes.count;
        return NETTOPO_OK;
    });
}

int nettopo_pe_os_index(const nettopo_topology* t, uint32_t pe, uint32_t* os_index) {
    return guarded("nettopo_pe_os_index", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(os_index, "os_index");
        const PeId p = h.pe(pe);
        const MachineTree& tree = h.cluster.machine_type(h.cluster.machine_of(p)).tree();
        const std::uint32_t os = tree.object(tree.pu(h.cluster.local_pu(p))).os_index;
        if (os == unknown_os_index) return NETTOPO_NOT_FOUND;
        *os_index = os;
        return NETTOPO_OK;
    });
}

/* ---- Devices ---- */

int nettopo_num_devices(const nettopo_topology* t, uint32_t machine, uint32_t* count) {
    return guarded("nettopo_num_devices", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(count, "count");
        const MachineId m = h.machine(machine);
        *count = static_cast<std::uint32_t>(h.cluster.machine_type(m).tree().devices().size());
        return NETTOPO_OK;
    });
}

int nettopo_device_info(const nettopo_topology* t, uint32_t machine, uint32_t device,
                        nettopo_device* info) {
    return guarded("nettopo_device_info", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(info, "info");
        const MachineDevice d = h.device(machine, device);
        const IoDevice& dev = nettopo::device(h.cluster, d);
        const DeviceText& text = h.device_texts[h.cluster.type_of(d.machine).value][d.index];
        *info = {static_cast<int>(dev.kind),
                 to_string(dev.kind).data(), // a NUL-terminated literal
                 dev.name.c_str(),           text.names.c_str(), text.pci_bus_id.c_str(),
                 dev.vendor.c_str(),         dev.model.c_str(),  dev.subtype.c_str()};
        return NETTOPO_OK;
    });
}

int nettopo_find_device(const nettopo_topology* t, const char* name, uint32_t* machine,
                        uint32_t* device) {
    return guarded("nettopo_find_device", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(name, "name");
        require_pointer(machine, "machine");
        require_pointer(device, "device");
        const std::optional<MachineDevice> d = find_device(h.cluster, name);
        if (!d) return NETTOPO_NOT_FOUND;
        *machine = d->machine.value;
        *device = d->index;
        return NETTOPO_OK;
    });
}

int nettopo_device_pes(const nettopo_topology* t, uint32_t machine, uint32_t device,
                       uint32_t* first, uint32_t* count) {
    return guarded("nettopo_device_pes", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(first, "first");
        require_pointer(count, "count");
        const PeRange pes = device_pes(h.cluster, h.device(machine, device));
        *first = pes.first;
        *count = pes.count;
        return NETTOPO_OK;
    });
}

int nettopo_device_cpuset(const nettopo_topology* t, uint32_t machine, uint32_t device, char* buf,
                          size_t size, size_t* length) {
    return guarded("nettopo_device_cpuset", [&] {
        const nettopo_topology& h = require_handle(t);
        copy_text(device_cpu_list(h.cluster, h.device(machine, device)), buf, size, length);
        return NETTOPO_OK;
    });
}

int nettopo_device_identity(const nettopo_topology* t, uint32_t machine, uint32_t device,
                            const char* name, char* buf, size_t size, size_t* length) {
    return guarded("nettopo_device_identity", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(name, "name");
        const std::string value = device_identity(h.cluster, h.device(machine, device), {name});
        if (value.empty()) return NETTOPO_NOT_FOUND;
        copy_text(value, buf, size, length);
        return NETTOPO_OK;
    });
}

int nettopo_device_numa_nodes(const nettopo_topology* t, uint32_t machine, uint32_t device,
                              uint32_t* nodes, uint32_t capacity, uint32_t* count) {
    return guarded("nettopo_device_numa_nodes", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(count, "count");
        if (capacity > 0) require_pointer(nodes, "nodes");
        const std::vector<std::uint32_t> numa =
            device_numa_nodes(h.cluster, h.device(machine, device));
        std::copy_n(numa.begin(), std::min<std::size_t>(capacity, numa.size()), nodes);
        *count = static_cast<std::uint32_t>(numa.size());
        return NETTOPO_OK;
    });
}

int nettopo_nearest_devices(const nettopo_topology* t, uint32_t pe, int kind, uint32_t k,
                            uint32_t* devices, double* latency_ns, uint32_t* found) {
    return guarded("nettopo_nearest_devices", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(found, "found");
        if (k > 0) require_pointer(devices, "devices");
        if (kind < NETTOPO_DEVICE_ANY || kind > NETTOPO_DEVICE_OTHER)
            throw ApiError(NETTOPO_ERR_INVALID,
                           fmt::format("kind {} is not a NETTOPO_DEVICE_* value", kind));
        std::optional<DeviceKind> of;
        if (kind != NETTOPO_DEVICE_ANY) of = static_cast<DeviceKind>(kind);
        const std::vector<NearDevice> near = nearest_devices(h.cluster, h.pe(pe), of);
        const std::size_t n = std::min<std::size_t>(k, near.size());
        for (std::size_t i = 0; i < n; ++i) {
            devices[i] = near[i].device.index;
            if (latency_ns) latency_ns[i] = near[i].latency_ns;
        }
        *found = static_cast<std::uint32_t>(n);
        return NETTOPO_OK;
    });
}

int nettopo_nearest_to_device(nettopo_topology* t, uint32_t machine, uint32_t device, uint32_t k,
                              uint32_t* pes, double* ns, uint32_t* found) {
    return guarded("nettopo_nearest_to_device", [&] {
        nettopo_topology& h = require_handle(t);
        require_pointer(found, "found");
        if (k > 0) require_pointer(pes, "pes");
        const MachineDevice d = h.device(machine, device);
        const std::vector<NearPe> near =
            nearest_to_device(*h.engine(), d, std::min(k, h.cluster.num_pes()));
        store_nearest(near, pes, ns, found, [](PeId x) { return x.value; });
        return NETTOPO_OK;
    });
}

/* ---- Views ---- */

int nettopo_view_open(nettopo_topology* t, const char* hostlist, nettopo_view** out) {
    if (out) *out = nullptr;
    return guarded("nettopo_view_open", [&] {
        nettopo_topology& h = require_handle(t);
        require_pointer(hostlist, "hostlist");
        require_pointer(out, "out");
        std::vector<MachineId> machines;
        try { // the hostlist is an argument: what is wrong with it is bad usage
            machines = machines_of_hostlist(h.cluster, hostlist, "hostlist");
        } catch (const InputError& e) {
            throw ApiError(NETTOPO_ERR_INVALID, e.what());
        }
        *out = std::make_unique<nettopo_view>(h, std::move(machines)).release();
        return NETTOPO_OK;
    });
}

void nettopo_view_close(nettopo_view* v) {
    delete v;
}

uint32_t nettopo_view_num_pes(const nettopo_view* v) {
    return count_of("nettopo_view_num_pes", [&] { return require_view(v).view.num_pes(); });
}

uint32_t nettopo_view_num_machines(const nettopo_view* v) {
    return count_of("nettopo_view_num_machines",
                    [&] { return require_view(v).view.num_machines(); });
}

uint32_t nettopo_view_num_nodes(const nettopo_view* v) {
    return count_of("nettopo_view_num_nodes", [&] { return require_view(v).view.num_nodes(); });
}

int nettopo_view_machine(const nettopo_view* v, uint32_t i, uint32_t* machine) {
    return guarded("nettopo_view_machine", [&] {
        const nettopo_view& w = require_view(v);
        require_pointer(machine, "machine");
        const std::uint32_t n = w.view.num_machines();
        if (i >= n)
            throw ApiError(NETTOPO_ERR_RANGE,
                           fmt::format("machine {} does not exist: the allocation has {} ({})", i,
                                       counted(n, "machine"), range_text(n)));
        *machine = w.view.machine(i).value;
        return NETTOPO_OK;
    });
}

int nettopo_view_cluster_pe(const nettopo_view* v, uint32_t view_pe, uint32_t* pe) {
    return guarded("nettopo_view_cluster_pe", [&] {
        const nettopo_view& w = require_view(v);
        require_pointer(pe, "pe");
        *pe = w.pe(view_pe).value;
        return NETTOPO_OK;
    });
}

int nettopo_view_pe(const nettopo_view* v, uint32_t pe, uint32_t* view_pe) {
    return guarded("nettopo_view_pe", [&] {
        const nettopo_view& w = require_view(v);
        require_pointer(view_pe, "view_pe");
        const std::optional<std::uint32_t> i = w.view.view_pe(w.topology->pe(pe));
        if (!i) return NETTOPO_NOT_FOUND;
        *view_pe = *i;
        return NETTOPO_OK;
    });
}

int nettopo_view_proximity(const nettopo_view* v, uint32_t a, uint32_t b, int* level) {
    return guarded("nettopo_view_proximity", [&] {
        const nettopo_view& w = require_view(v);
        require_pointer(level, "level");
        *level = static_cast<int>(w.topology->cluster.proximity(w.pe(a), w.pe(b)));
        return NETTOPO_OK;
    });
}

int nettopo_view_hops(nettopo_view* v, uint32_t a, uint32_t b, uint32_t* hops) {
    return guarded("nettopo_view_hops", [&] {
        nettopo_view& w = require_view(v);
        return network_pair(*w.topology, w.pe(a), w.pe(b), hops, "hops", ask_hops);
    });
}

int nettopo_view_distance_ns(nettopo_view* v, uint32_t a, uint32_t b, double* ns) {
    return guarded("nettopo_view_distance_ns", [&] {
        nettopo_view& w = require_view(v);
        return network_pair(*w.topology, w.pe(a), w.pe(b), ns, "ns", ask_distance);
    });
}

int nettopo_view_nearest(nettopo_view* v, uint32_t pe, uint32_t k, uint32_t* pes, double* ns,
                         uint32_t* found) {
    return guarded("nettopo_view_nearest", [&] {
        nettopo_view& w = require_view(v);
        require_pointer(found, "found");
        if (k > 0) require_pointer(pes, "pes");
        const PeId p = w.pe(pe);
        const std::vector<NearPe> near =
            nearest_in_view(*w.topology->engine(), w.view, p, std::min(k, w.view.num_pes()));
        store_nearest(near, pes, ns, found, [&](PeId x) { return *w.view.view_pe(x); });
        return NETTOPO_OK;
    });
}

/* ---- Where a job's ranks go ---- */

int nettopo_distribute(const nettopo_topology* t, const nettopo_view* allocation, uint64_t ranks,
                       int policy, uint32_t* pes) {
    return guarded("nettopo_distribute", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(pes, "pes");
        if (policy != NETTOPO_SCATTER && policy != NETTOPO_COMPACT)
            throw ApiError(
                NETTOPO_ERR_INVALID,
                fmt::format("policy {} is neither NETTOPO_SCATTER nor NETTOPO_COMPACT", policy));
        const std::vector<PeId> placed = distribute(h.cluster, allocation_of(h, allocation), ranks,
                                                    static_cast<DistributePolicy>(policy));
        std::transform(placed.begin(), placed.end(), pes, [](PeId p) { return p.value; });
        return NETTOPO_OK;
    });
}

int nettopo_distribute_gpus(const nettopo_topology* t, const nettopo_view* allocation,
                            uint64_t ranks, uint32_t gpus_per_rank, int32_t nics_per_rank,
                            nettopo_gpu_binding** out) {
    if (out) *out = nullptr;
    return guarded("nettopo_distribute_gpus", [&] {
        const nettopo_topology& h = require_handle(t);
        require_pointer(out, "out");
        GpuBindRequest request;
        request.ranks = ranks;
        request.gpus_per_rank = gpus_per_rank;
        if (nics_per_rank >= 0) request.nics_per_rank = static_cast<std::uint32_t>(nics_per_rank);
        *out = std::make_unique<nettopo_gpu_binding>(
                   h, distribute_gpus(h.cluster, allocation_of(h, allocation), request))
                   .release();
        return NETTOPO_OK;
    });
}

void nettopo_gpu_binding_close(nettopo_gpu_binding* b) {
    delete b;
}

uint64_t nettopo_gpu_binding_num_ranks(const nettopo_gpu_binding* b) {
    return count_of("nettopo_gpu_binding_num_ranks",
                    [&] { return std::uint64_t{require_binding(b).ranks.size()}; });
}

int nettopo_gpu_binding_rank(const nettopo_gpu_binding* b, uint64_t rank, nettopo_gpu_rank* out) {
    return guarded("nettopo_gpu_binding_rank", [&] {
        const nettopo_gpu_binding& g = require_binding(b);
        require_pointer(out, "out");
        if (rank >= g.ranks.size())
            throw ApiError(NETTOPO_ERR_RANGE,
                           fmt::format("rank {} does not exist: the binding has {} ({})", rank,
                                       counted(g.ranks.size(), "rank"),
                                       range_text(g.ranks.size())));
        const GpuRank& r = g.ranks[rank];
        const nettopo_gpu_binding::RankText& text = g.offsets[rank];
        const std::span<const std::uint32_t> pes(g.pes.data() + g.first_pe[rank],
                                                 g.first_pe[rank + 1] - g.first_pe[rank]);
        // The header promises no NULL array, even an empty one.
        static constexpr std::uint32_t none[1] = {0};
        const auto array = [](std::span<const std::uint32_t> v) {
            return v.empty() ? none : v.data();
        };
        *out = {r.machine.value,
                g.topology->machine_name(r.machine.value),
                g.text.c_str() + text.cpuset,
                g.text.c_str() + text.gpus,
                g.text.c_str() + text.nics,
                static_cast<std::uint32_t>(pes.size()),
                array(pes),
                static_cast<std::uint32_t>(r.gpus.size()),
                array(r.gpus),
                static_cast<std::uint32_t>(r.nics.size()),
                array(r.nics)};
        return NETTOPO_OK;
    });
}

int nettopo_gpu_binding_env(const nettopo_gpu_binding* b, const char* command, char* buf,
                            size_t size, size_t* length) {
    return guarded("nettopo_gpu_binding_env", [&] {
        const nettopo_gpu_binding& g = require_binding(b);
        copy_text(gpu_env_script(g.topology->cluster, g.ranks, command ? command : ""), buf, size,
                  length);
        return NETTOPO_OK;
    });
}

} // extern "C"
