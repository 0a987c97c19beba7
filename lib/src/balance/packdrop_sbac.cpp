// PackDrop as its authors coded it, the simulated strategy `packdrop-sbac`:
// the per-PE program (packdrop_sbac_agents.cpp, the protocol's one
// definition) run in process over the simulator's network, which loses,
// delays and charges its messages (pe_agents.cpp's in-process runtime).
#include "balance/agents.hpp"
#include "balance/protocol.hpp"
#include "balance/strategies.hpp"

namespace nettopo {

namespace protocol {

BalanceOutcome run_packdrop_sbac(const BalanceInput& in, const StrategyOptions& options,
                                 Trace* trace) {
    return agents::run_in_process("packdrop-sbac", in, options, trace);
}

} // namespace protocol

std::unique_ptr<Strategy> make_packdrop_sbac(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("packdrop-sbac",
                                                        protocol::run_packdrop_sbac, options);
}

} // namespace nettopo
