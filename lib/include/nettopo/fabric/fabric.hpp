/// \file
/// A network fabric as a source describes it (an InfiniBand dump, a Slurm
/// topology file), before it is joined with the hosts' insides: named
/// switches and hosts, and the links between them, each physical link once.
/// Readers throw InputError(file, line, message) on malformed input.
///
/// \threads Every call here may be made from several threads at once, each
/// with its own stream; a NodeNameMap's const calls too.
/// \cost The readers are O(the input's size), merge_fabrics O(nodes + links)
/// with hashing, NodeNameMap::find O(1) (a hash lookup). Every call throws
/// std::bad_alloc besides what it says.
#pragma once

#include "nettopo/model/attachment.hpp"
#include "nettopo/support/limits.hpp"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nettopo {

/// A switch or a host of a fabric.
struct FabricNode {
    std::string name;        ///< unique among the fabric's nodes; a single token
    bool is_switch = false;  ///< else a host, to be matched with a machine by name
    std::string description; ///< what the source says of it (IB node description), may be empty
    std::size_t line = 0;    ///< where the source first declares it
    /// InfiniBand: the node GUIDs it stands for (a switch: its own; a host:
    /// those of its adapters), sorted; empty for sources without GUIDs.
    std::vector<std::uint64_t> guids = {};
    /// A host named after its adapters' GUID (`H-<guid>`): neither their
    /// descriptions nor a node-name map named a host.
    bool named_by_guid = false;
    /// A switch named by its description (switch_name_of), not by the source
    /// nor a node-name map: merge_fabrics renames it `S-<guid>` on a clash.
    bool named_by_description = false;
};

/// A link of a fabric, each physical link once.
struct FabricLink {
    std::uint32_t a = 0;              ///< index into Fabric::nodes
    std::uint32_t b = 0;              ///< index into Fabric::nodes, b != a
    double bandwidth_gbps = 0;        ///< 0: unknown
    std::optional<double> latency_ns; ///< when the source gives one
    std::uint32_t multiplicity = 1;   ///< parallel cables merged
    std::size_t line = 0;             ///< where the source first gives it
};

/// A host's channel adapter and its cables, as an InfiniBand dump gives them:
/// what rails are inferred from (rails.hpp) and what joins a fabric's
/// adapters to the exports' network devices.
struct FabricAdapter {
    std::uint32_t host = 0; ///< index into Fabric::nodes (a host)
    std::uint64_t guid = 0; ///< node GUID
    /// The device name its name gives after the host's ("mlx5_3" as rdma-core
    /// names it, "HCA-4" as older stacks do), empty when it names none
    /// (`MT4129 ConnectX7 Mellanox Technologies`).
    std::string device;
    std::string description; ///< the IB node description (or the node-name map's name)
    std::size_t line = 0;    ///< where the source first declares it
    /// One of its ports and what it is cabled to.
    struct Port {
        unsigned port = 0;      ///< the adapter's port number
        std::uint32_t peer = 0; ///< index into Fabric::nodes
        unsigned peer_port = 0; ///< the peer's port number
    };
    std::vector<Port> ports = {}; ///< cabled ports, by port number
};

/// A fabric as a source describes it (see the file's comment).
struct Fabric {
    std::string source; ///< file name, for messages
    /// Fabrics merged into one (merge_fabrics): the files after `source`,
    /// for messages about the whole (lines point into `source` only).
    std::vector<std::string> merged_sources = {};
    std::vector<FabricNode> nodes; ///< switches and hosts
    std::vector<FabricLink> links; ///< at most one per pair of nodes
    /// Channel adapters that are functions of a switch, not hosts (SHARP
    /// aggregation nodes), left out of the nodes with their cables: their
    /// `H-<guid>` names.
    std::vector<std::string> switch_adapters = {};
    /// Cables only one end reported, as "<name>[<port>]" of that end:
    /// ibnetdiscover reports both ends of every cable, so a dump that lists
    /// some once was cut short (or the fabric changed while it ran), and
    /// the links of the missing part are missing too. Empty for the formats
    /// that give each link once.
    std::vector<std::string> one_ended_cables = {};
    /// The hosts' adapters (InfiniBand sources; empty for Slurm's), by host
    /// then device name; the switches' own (SHARP) adapters are not among them.
    std::vector<FabricAdapter> adapters = {};
};

/// ibnetdiscover's node-name map (infiniband-diags' --node-name-map; opensm
/// reads the same file): names by node GUID.
struct NodeNameMap {
    std::string source;                                   ///< file name, for messages
    std::unordered_map<std::uint64_t, std::string> names; ///< node GUID -> name
    /// The name of node GUID `guid`, null when the map has none. O(1).
    const std::string* find(std::uint64_t guid) const {
        const auto it = names.find(guid);
        return it == names.end() ? nullptr : &it->second;
    }
};

/// Reads a node-name map as infiniband-diags does (rdma-core
/// util/node_name_map.c): one "<guid> \"<name>\"" per line; blank lines and
/// lines whose first non-blank character is '#' are skipped; the GUID is read
/// as C's strtoull with base 0 (0x... hex, 0... octal, else decimal) and must
/// be followed by a blank, '#' or the end; the name is the text after it, up
/// to the next '"' or '#', after leading blanks, '"' and '#' (so quotes are
/// optional), trimmed of blanks; a line without a name is skipped; the first
/// line of a GUID wins. A bad GUID is an InputError (file, line), where
/// infiniband-diags ignores the whole file with a warning.
NodeNameMap read_node_name_map(std::istream& in, const std::string& source);

/// How switches without a node-name map entry are named.
enum class SwitchNaming : std::uint8_t {
    /// By what their description says (read_ibnetdiscover), else `S-<guid>`.
    description,
    guid, ///< `S-<guid>` always, as ibnetdiscover names them
};

/// How read_ibnetdiscover names what it reads.
struct IbnetdiscoverOptions {
    const NodeNameMap* node_name_map = nullptr;             ///< names by node GUID, if given
    SwitchNaming switch_naming = SwitchNaming::description; ///< for switches the map leaves
};

/// The name a switch's node description gives, empty when it gives none:
///  - NVIDIA (Mellanox) managed switches' `MF0;NAME:MODEL/U1` gives NAME
///    (`MF0;A09-P1-IBLEAF-04-04:MQM9701/U1`: `A09-P1-IBLEAF-04-04`); with
///    `long_form`, NAME and the module path after the model
///    (`MF0;switch-33fd6e:MCS8500/L01/U1`: `switch-33fd6e/L01/U1`, the
///    modules of one director chassis sharing its NAME);
///  - Voltaire's `MODEL # NAME` gives NAME (`Voltaire 4036 # 4036-8548`);
///  - any other description of one word (an administrator's `leaf01`);
///    one of several words is the firmware's own (`MT47396 Infiniscale-III
///    Mellanox Technologies`, `QLogic 12800-180 GUID=0x... L115`), unique
///    only when the fabric has one switch of that model: not a name.
/// read_ibnetdiscover uses it only when the name is unique among the
/// fabric's nodes (else the long form, else the GUID). O(length).
std::string switch_name_of(std::string_view description, bool long_form = false);

/// ibnetdiscover output in either format it prints: the topology file
/// ("Switch 36 \"S-...\" # ..." blocks with "[port] \"peer\"[port]" lines) or
/// the per-port report of -p ("CA lid port guid 4x QDR - SW lid port guid
/// ( 'desc' - 'desc' )"), recognised by content; "DR path" trace lines (-s)
/// give the node GUIDs of the report's adapters, which print port GUIDs.
/// Each physical link is reported by both ends and kept once; parallel links
/// between two nodes are merged with a multiplicity; the link speed becomes
/// the bandwidth (data rate of the speed per lane x width, e.g. 4x QDR = 32
/// Gbit/s; unknown, 0, when the line gives none).
///
/// Nodes: switches are named by the node-name map when it gives a one-word
/// name no other node has; else, with SwitchNaming::description (the
/// default), by switch_name_of their description when that name is unique
/// among the fabric's nodes (else its long form, when unique); else
/// `S-<guid>` (16 hex digits, as ibnetdiscover names them; routers
/// `R-<guid>`). Channel adapters are identified by node GUID and
/// grouped into hosts:
///  - an adapter whose description is a SHARP "Mellanox Technologies
///    Aggregation Node" is a function of its switch: left out, listed in
///    Fabric::switch_adapters;
///  - an adapter belongs to the host its name names: the node-name map's name
///    if the map has its GUID, else its description. A name names a host when
///    it is `<host> <device> ...` with a device name as the kernel and
///    Mellanox OFED give them (`HCA-<n>`, or a lower-case name ending in a
///    digit: mlx5_0, qib0, hfi1_0, mthca0, ...) — 'node179 HCA-1' names
///    node179, 'MT25408 ConnectX Mellanox Technologies' nothing — or, for a
///    map's name, when it is one word;
///  - an adapter that names no host joins the host of the adapters with its
///    system image GUID (topology file) when they name exactly one; else the
///    adapters of one system image that name no host are one host named
///    `H-<lowest node guid>` (a single adapter: `H-<its guid>`).
/// Never are adapters merged because their descriptions look alike.
Fabric read_ibnetdiscover(std::istream& in, const std::string& source,
                          const IbnetdiscoverOptions& options = {});

/// Several fabrics as one (one per InfiniBand subnet of a cluster): switches
/// are merged by GUID (by name when they have none), hosts by name; a link
/// given by several fabrics (overlapping dumps) keeps the largest
/// multiplicity and the lowest known bandwidth. Messages and the merged
/// fabric's name use the first source. A switch named by its description
/// whose name an earlier fabric's node has takes its GUID name `S-<guid>`.
/// InputError when a name is a host in one fabric and a switch in another
/// otherwise.
Fabric merge_fabrics(std::vector<Fabric> fabrics);

/// Slurm topology: topology.conf (topology/tree: SwitchName=... Switches=...
/// Nodes=... with hostlist ranges) or topology.yaml (tree, block, flat),
/// recognised by content. The names its hostlists expand to, counted over
/// the whole file, are held to limits.max_vertices before they are expanded.
Fabric read_slurm_topology(std::istream& in, const std::string& source, const Limits& limits = {});

} // namespace nettopo
