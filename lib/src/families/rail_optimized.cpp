// The rail-optimized fabric of GPU clusters (NVIDIA DGX SuperPOD reference
// architectures, share/doc/generators.md): scalable units of H hosts with R
// adapters each; adapter r of every host of unit u is cabled to the unit's
// rail-r leaf; every leaf is cabled to every spine (two tiers: the
// architectures' shape up to 8 units, before a core tier).
//
// Vertices: hosts unit by unit (host h of unit u is u*H + h), then the
// leaves unit by unit, rail by rail within a unit (leaf (u, r) is
// M + u*R + r), then the spines. Two hosts of one unit share all R leaves: 2
// hops; of two units, a leaf of each and a spine between: 4.
#include "families/family_limits.hpp"
#include "families/host_switch_latency.hpp"
#include "nettopo/families/family.hpp"

#include <fmt/format.h>

namespace nettopo {
namespace {

using detail::checked_add;
using detail::checked_mul;

class RailOptimized final : public Family {
public:
    RailOptimized(std::uint32_t units, std::uint32_t hosts, std::uint32_t rails,
                  std::uint32_t spines)
        : u_(units), h_(hosts), r_(rails), s_(spines),
          spec_(fmt::format("rail-optimized --units {} --hosts-per-unit {} --rails {} --spines {}",
                            units, hosts, rails, spines)) {
        detail::require_at_least("rail-optimized", "--units", units, 1);
        detail::require_at_least("rail-optimized", "--hosts-per-unit", hosts, 1);
        detail::require_at_least("rail-optimized", "--rails", rails, 1);
        // Units reach each other through the spines only.
        if (units > 1) detail::require_at_least("rail-optimized", "--spines", spines, 1);
        machines_ = checked_mul(units, hosts, spec_ + ": machines");
        leaves_ = checked_mul(units, rails, spec_ + ": switches");
        checked_add(checked_add(machines_, leaves_, spec_ + ": vertices"), spines,
                    spec_ + ": vertices");
        links_ = checked_add(checked_mul(machines_, rails, spec_ + ": links", detail::max_links),
                             checked_mul(leaves_, spines, spec_ + ": links", detail::max_links),
                             spec_ + ": links", detail::max_links);
    }

    std::string spec() const override { return spec_; }
    std::uint64_t num_machines() const override { return machines_; }
    std::uint64_t num_switches() const override { return leaves_ + s_; }
    std::uint64_t num_links() const override { return links_; }

    std::uint32_t degree(std::uint32_t v) const override {
        if (v < machines_) return r_;
        if (v < machines_ + leaves_) return h_ + s_;
        return static_cast<std::uint32_t>(leaves_);
    }

    std::uint32_t machine_hops(std::uint32_t a, std::uint32_t b) const override {
        if (a == b) return 0;
        return a / h_ == b / h_ ? 2 : 4;
    }

    std::uint32_t diameter() const override {
        if (u_ > 1) return 4;
        return h_ > 1 ? 2 : 0;
    }

    // Every path from a host starts and ends with a host-switch link; a
    // shortest one has nothing else but two switch-switch links across units
    // (a path through another host only adds host links), so it is the
    // cheapest too.
    bool has_latency_formula(const ClassLatenciesPs&) const override { return true; }
    std::int64_t machine_latency_ps(std::uint32_t a, std::uint32_t b,
                                    const ClassLatenciesPs& ps) const override {
        return detail::host_switch_path_latency_ps(machine_hops(a, b), ps);
    }

    void emit(FamilySink& sink) const override {
        sink.machines("n", static_cast<std::uint32_t>(machines_));
        sink.switches("leaf", static_cast<std::uint32_t>(leaves_));
        sink.switches("spine", s_);
        const auto first_leaf = static_cast<std::uint32_t>(machines_);
        const auto first_spine = static_cast<std::uint32_t>(machines_ + leaves_);
        for (std::uint32_t m = 0; m < machines_; ++m)
            for (std::uint32_t r = 0; r < r_; ++r) {
                sink.link(m, first_leaf + (m / h_) * r_ + r, LinkClass::HostSwitch);
                sink.adapter(m, r, first_leaf + (m / h_) * r_ + r);
            }
        for (std::uint32_t l = 0; l < leaves_; ++l)
            for (std::uint32_t s = 0; s < s_; ++s)
                sink.link(first_leaf + l, first_spine + s, LinkClass::SwitchSwitch);
    }

private:
    std::uint32_t u_, h_, r_, s_;
    std::string spec_;
    std::uint64_t machines_ = 0, leaves_ = 0, links_ = 0;
};

} // namespace

std::unique_ptr<Family> make_rail_optimized(std::uint32_t units, std::uint32_t hosts_per_unit,
                                            std::uint32_t rails, std::uint32_t spines) {
    return std::make_unique<RailOptimized>(units, hosts_per_unit, rails, spines);
}

} // namespace nettopo
