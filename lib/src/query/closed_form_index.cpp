// Closed-form distances for generated clusters (closed_form_index.hpp).
//
// The check is O(links) time and O(links / 8) bytes: the family emits its
// links again, each is looked up in the network's sorted adjacency and
// ticked off; with equal counts, every emitted link found once means the two
// link sets are equal. The latency of each class is learned on the way.
#include "query/closed_form_index.hpp"

#include "nettopo/error.hpp"
#include "nettopo/family.hpp"

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <mutex>

namespace nettopo {
namespace {

class LinkMatcher final : public FamilySink {
public:
    explicit LinkMatcher(const Network& net) : net_(net), seen_(net.num_links(), false) {
        learned_.fill(-1);
    }

    void machines(std::string_view, std::uint32_t) override {}
    void switches(std::string_view, std::uint32_t) override {}
    void link(std::uint32_t a, std::uint32_t b, LinkClass c) override {
        if (!same_) return;
        if (b < a) std::swap(a, b);
        if (b >= net_.num_vertices()) {
            same_ = false;
            return;
        }
        const auto near = net_.neighbors(VertexId(a));
        const auto at = std::lower_bound(near.begin(), near.end(), VertexId(b));
        if (at == near.end() || *at != VertexId(b)) {
            same_ = false;
            return;
        }
        const auto i = static_cast<std::size_t>(at - near.begin());
        const std::uint32_t id = net_.neighbor_links(VertexId(a))[i];
        const std::int64_t ps = net_.neighbor_latencies_ps(VertexId(a))[i];
        std::int64_t& learned = learned_[static_cast<std::size_t>(c)];
        if (seen_[id] || (learned >= 0 && learned != ps)) {
            same_ = false;
            return;
        }
        seen_[id] = true;
        learned = ps;
    }

    bool same() const { return same_; }
    const ClassLatenciesPs& learned() const { return learned_; }

private:
    const Network& net_;
    std::vector<bool> seen_; // by link id
    ClassLatenciesPs learned_;
    bool same_ = true;
};

class ClosedFormIndex final : public DistanceIndex {
public:
    using General = std::function<std::unique_ptr<DistanceIndex>()>;

    ClosedFormIndex(std::unique_ptr<Family> family, const ClassLatenciesPs& ps, General general)
        : family_(std::move(family)), ps_(ps), exact_latency_(family_->has_latency_formula(ps)),
          general_(std::move(general)) {}

    std::string description() const override {
        return fmt::format("closed form ({}){}", family_->spec(),
                           exact_latency_ ? "" : "; latencies from a general index");
    }
    DistanceIndexKind kind() const override { return DistanceIndexKind::ClosedForm; }
    std::size_t memory_bytes() const override {
        std::size_t bytes = sizeof(*this) + family_->spec().size();
        if (general_built_.load(std::memory_order_acquire)) bytes += general_index_->memory_bytes();
        return bytes;
    }

    std::uint32_t hops(MachineId a, MachineId b) const override {
        return family_->shortest_hops(a.value, b.value);
    }
    std::int64_t latency_ps(MachineId a, MachineId b) const override {
        if (exact_latency_) return family_->machine_latency_ps(a.value, b.value, ps_);
        std::call_once(general_once_, [&] {
            general_index_ = general_();
            if (!general_index_)
                throw UsageError(
                    fmt::format("{}: no general index to answer latencies", description()));
            general_built_.store(true, std::memory_order_release);
        });
        return general_index_->latency_ps(a, b);
    }

private:
    std::unique_ptr<Family> family_;
    ClassLatenciesPs ps_;
    bool exact_latency_;
    General general_;
    mutable std::once_flag general_once_;
    mutable std::unique_ptr<DistanceIndex> general_index_;
    mutable std::atomic<bool> general_built_{false};
};

} // namespace

std::unique_ptr<DistanceIndex>
make_closed_form_index(const Cluster& cluster,
                       const std::function<std::unique_ptr<DistanceIndex>()>& general) {
    if (cluster.family().empty()) return nullptr;
    std::unique_ptr<Family> family;
    try {
        family = family_from_spec(cluster.family());
    } catch (const UsageError&) {
        return nullptr; // a record set by hand through the builder
    }
    const Network& net = cluster.network();
    if (family->num_machines() != net.num_machines() ||
        family->num_switches() != net.num_switches() || family->num_links() != net.num_links())
        return nullptr;
    LinkMatcher matcher(net);
    family->emit(matcher);
    if (!matcher.same()) return nullptr;
    return std::make_unique<ClosedFormIndex>(std::move(family), matcher.learned(), general);
}

} // namespace nettopo
