// The platforms the papers ran on, as cost settings: what a message costs
// in software on each kind of network (CommModelOptions' o, g and round
// floor) and what the Charm++ runtime adds to a balancing step (StepCosts).
// Every value and its source are in share/doc/balance.md, "The costs real
// runs pay"; a run with no platform has every one of them at zero.
#pragma once

#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/step_costs.hpp"

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

} // namespace nettopo
