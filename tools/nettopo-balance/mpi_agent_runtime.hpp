// The per-PE programs' runtime over MPI (pe_agents.hpp): this rank is one
// PE, the PE of its rank (one PE per rank, as --mpi requires; a rank's local
// PEs are that one). A round is one all-to-all of serialised messages; reductions gather
// every rank's value and combine them in rank order, as the in-process
// runtime does, so the two runs add the same doubles in the same order and
// reach the same decisions.
#pragma once

#include "nettopo/balance/detail/pe_agents.hpp"

namespace nettopo {

class MpiAgentRuntime final : public AgentRuntime {
public:
    MpiAgentRuntime(); // over MPI_COMM_WORLD, after MPI_Init
    std::uint32_t num_pes() const override { return size_; }
    double sum(std::span<const double> local) override;
    double max(std::span<const double> local) override;
    std::uint64_t exchange(std::vector<AgentMessage>& out, std::vector<AgentMessage>& in,
                           std::uint64_t waiting) override;

private:
    std::vector<double> gather(std::span<const double> local);
    std::uint32_t size_ = 0;
};

} // namespace nettopo
