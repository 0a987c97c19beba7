// The platforms the papers ran on, as cost settings: what a message costs
// in software on each kind of network (CommModelOptions' o, g and round
// floor) and what the Charm++ runtime adds to a balancing step (StepCosts).
// Every value and its source are in share/doc/balance.md, "The costs real
// runs pay"; a run with no platform has every one of them at zero.
#pragma once

#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/step_costs.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace nettopo {

struct PlatformCosts {
    std::string_view name;        // "gige", "ib", "shm", "none"
    std::string_view description; // the network and runtime it stands for
    MessageCosts network;         // between machines
    MessageCosts intra_machine;   // between two PEs of one machine
    double min_round_seconds = 0; // a protocol round in which nothing arrives
    StepCosts step;
};

// none, gige, ib, shm, in that order.
std::span<const PlatformCosts> platform_costs();
// UsageError naming the known ones.
const PlatformCosts& platform_costs(std::string_view name);

// Sets the communication model's software costs from a platform.
void apply_platform(const PlatformCosts& platform, CommModelOptions& model, StepCosts& step);

// Costs given one by one, in the units people quote them in, each replacing
// its platform's: LogP's o and g, between machines and inside one, the
// round floor, and what a balancing step pays (share/doc/balance.md).
struct CostOverrides {
    std::optional<double> overhead_us, gap_us, intra_overhead_us, intra_gap_us, round_us;
    std::optional<double> migration_us, local_ns, noise;
    std::optional<bool> gather;
};

// The platform's costs, then each override given.
void apply_costs(const PlatformCosts& platform, const CostOverrides& overrides,
                 CommModelOptions& model, StepCosts& step);

} // namespace nettopo
