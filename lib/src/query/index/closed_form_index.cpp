// Closed-form distances for generated clusters (closed_form_index.hpp).
//
// The check is O(links) time and O(links / 8) bytes: the family emits its
// links again, each is looked up in the network's sorted adjacency and
// ticked off; with equal counts, every emitted link found once means the two
// link sets are equal. The latency of each class is learned on the way. The
// machines must forward as the family's do (every one that a path could pass
// through), another O(machines).
#include "query/index/closed_form_index.hpp"

#include "nettopo/families/family.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>

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

constexpr std::uint32_t latencies_tag = array_tag("CLAT"), general_tag = array_tag("CGEN");

class ClosedFormIndex final : public DistanceIndex {
public:
    // `general` is null when the family's latency formula is exact.
    ClosedFormIndex(std::unique_ptr<Family> family, const ClassLatenciesPs& ps,
                    std::unique_ptr<DistanceIndex> general)
        : family_(std::move(family)), ps_(ps), general_(std::move(general)) {}

    std::string description() const override {
        return general_ ? fmt::format("closed form ({}); latencies from a {}", family_->spec(),
                                      general_->description())
                        : fmt::format("closed form ({})", family_->spec());
    }
    DistanceIndexKind kind() const override { return DistanceIndexKind::ClosedForm; }
    std::size_t memory_bytes() const override {
        return sizeof(*this) + family_->spec().size() + (general_ ? general_->memory_bytes() : 0);
    }

    bool can_keep() const override { return !general_ || general_->can_keep(); }
    // The check's outcome: the learned latencies, then the general helper.
    void write_kept(ArrayWriter& out) const override {
        out.value(latencies_tag, ps_);
        out.value(general_tag, std::uint32_t{general_ != nullptr});
        if (general_) write_kept_index_body(*general_, out);
    }

    std::uint32_t hops(MachineId a, MachineId b) const override {
        return family_->shortest_hops(a.value, b.value);
    }
    std::int64_t latency_ps(MachineId a, MachineId b) const override {
        if (general_) return general_->latency_ps(a, b);
        return family_->machine_latency_ps(a.value, b.value, ps_);
    }

private:
    std::unique_ptr<Family> family_;
    ClassLatenciesPs ps_;
    std::unique_ptr<DistanceIndex> general_;
};

} // namespace

std::unique_ptr<DistanceIndex> read_closed_form_index(
    const Cluster& cluster, ArrayReader& in,
    const std::function<std::unique_ptr<DistanceIndex>(ArrayReader&)>& read_general) {
    std::unique_ptr<Family> family;
    try {
        family = family_from_spec(cluster.family());
    } catch (const UsageError&) {
        in.fail("holds a closed form, but the cluster's family record is not a family");
    }
    const Network& net = cluster.network();
    // The network's checksum matched the one checked then: what remains to
    // guard against is a file whose family disagrees with its own network.
    if (family->num_machines() != net.num_machines() ||
        family->num_switches() != net.num_switches() || family->num_links() != net.num_links())
        in.fail("holds a closed form whose family does not have the network's size");
    const auto ps = in.value<ClassLatenciesPs>(latencies_tag);
    for (const std::int64_t p : ps)
        if (p < -1 || p > to_picoseconds(max_link_latency_ns))
            in.fail(latencies_tag, "holds a latency out of range");
    const auto has_general = in.value<std::uint32_t>(general_tag);
    if (has_general > 1 || (has_general == 0) != family->has_latency_formula(ps))
        in.fail(general_tag, "does not match the family");
    std::unique_ptr<DistanceIndex> general;
    if (has_general) general = read_general(in);
    return std::make_unique<ClosedFormIndex>(std::move(family), ps, std::move(general));
}

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
    // The formulas let paths pass through every machine: a machine that does
    // not forward and could be passed through (several neighbours) voids them.
    if (first_blocking_end_host(net)) return nullptr;
    LinkMatcher matcher(net);
    family->emit(matcher);
    if (!matcher.same()) return nullptr;
    // Built now, not on the first latency query: the index must not outlive
    // what `general` refers to, a const query must not throw, and its cost
    // belongs to the build.
    std::unique_ptr<DistanceIndex> fallback;
    if (!family->has_latency_formula(matcher.learned())) {
        fallback = general();
        if (!fallback)
            throw UsageError(fmt::format("closed form ({}): no general index to answer latencies",
                                         family->spec()));
    }
    return std::make_unique<ClosedFormIndex>(std::move(family), matcher.learned(),
                                             std::move(fallback));
}

} // namespace nettopo
