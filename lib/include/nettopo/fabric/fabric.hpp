// A network fabric as a source describes it (an InfiniBand dump, a Slurm
// topology file), before it is joined with the hosts' insides: named
// switches and hosts, and the links between them, each physical link once.
// Readers throw InputError(file, line, message) on malformed input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace nettopo {

struct FabricNode {
    std::string name;        // unique among the fabric's nodes; a single token
    bool is_switch = false;  // else a host, to be matched with a machine by name
    std::string description; // what the source says of it (IB node description), may be empty
    std::size_t line = 0;    // where the source first declares it
};

struct FabricLink {
    std::uint32_t a = 0, b = 0;       // indexes into Fabric::nodes, a != b
    double bandwidth_gbps = 0;        // 0: unknown
    std::optional<double> latency_ns; // when the source gives one
    std::uint32_t multiplicity = 1;   // parallel cables merged
    std::size_t line = 0;             // where the source first gives it
};

struct Fabric {
    std::string source; // file name, for messages
    std::vector<FabricNode> nodes;
    std::vector<FabricLink> links; // at most one per pair of nodes
};

// ibnetdiscover output in either format it prints: the topology file
// ("Switch 36 \"S-...\" # ..." blocks with "[port] \"peer\"[port]" lines) or
// the per-port report of -p ("CA lid port guid 4x QDR - SW lid port guid
// ( 'desc' - 'desc' )"), recognised by content; "DR path" trace lines are
// skipped. Switches are named S-<guid> (16 hex digits, as ibnetdiscover
// names them); channel adapters become the host named by the first word of
// their description ('node179 HCA-1' -> node179). Each physical link is
// reported by both ends and kept once; parallel links between two nodes are
// merged with a multiplicity; the link speed becomes the bandwidth (data rate
// of the speed per lane x width, e.g. 4x QDR = 32 Gbit/s).
Fabric read_ibnetdiscover(std::istream& in, const std::string& source);

// Slurm topology: topology.conf (topology/tree: SwitchName=... Switches=...
// Nodes=... with hostlist ranges) or topology.yaml (tree, block, flat),
// recognised by content.
Fabric read_slurm_topology(std::istream& in, const std::string& source);

} // namespace nettopo
