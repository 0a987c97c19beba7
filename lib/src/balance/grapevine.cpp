// Grapevine's simulated strategies, `grapevine` and `grapevine-6.8`: the
// per-PE program (grapevine_agents.cpp, the protocol's one definition) run
// in process over the simulator's network, which loses, delays and charges
// its messages (pe_agents.cpp's in-process runtime).
#include "balance/agents.hpp"
#include "balance/protocol.hpp"
#include "balance/strategies.hpp"

namespace nettopo {

namespace protocol {

BalanceOutcome run_grapevine(const BalanceInput& in, const StrategyOptions& options, Trace* trace) {
    return agents::run_in_process("grapevine", in, options, trace);
}

BalanceOutcome run_grapevine_68(const BalanceInput& in, const StrategyOptions& options,
                                Trace* trace) {
    return agents::run_in_process("grapevine-6.8", in, options, trace);
}

} // namespace protocol

std::unique_ptr<Strategy> make_grapevine(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("grapevine", protocol::run_grapevine,
                                                        options);
}

std::unique_ptr<Strategy> make_grapevine_68(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("grapevine-6.8", protocol::run_grapevine_68,
                                                        options);
}

} // namespace nettopo
