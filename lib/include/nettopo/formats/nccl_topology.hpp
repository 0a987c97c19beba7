/// \file
/// A machine type as NCCL's topology file, the XML that NCCL_TOPO_FILE names
/// (and NCCL_TOPO_DUMP_FILE writes): where each GPU and network adapter
/// hangs in the PCI tree and which NUMA node's CPUs are local to it, for
/// containers and virtual machines in which NCCL cannot read that tree
/// itself. What is written, what is left to NCCL and why are in
/// share/doc/exports.md ("NCCL: the topology file").
/// \threads Pure functions of their arguments: safe from several threads at
/// once (distinct streams and files).
/// \cost O(devices x PCI depth + PCI objects log PCI objects + PUs); every
/// call throws std::bad_alloc besides what it says.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <ostream>
#include <string>
#include <string_view>

namespace nettopo {

/// The file for machine tree `tree`, as NCCL's parser (src/graph/xml.cc)
/// reads it: `<system version="1" name="NAME">` (`name` left out when NAME is
/// empty or holds a quote, '<', '>' or '&'), one `<cpu numaid= affinity=>`
/// per NUMA node that a GPU's or adapter's PCI hierarchy hangs from
/// (numaid="-1", NCCL's own "unknown", for the hierarchies whose CPU-side
/// object holds several NUMA nodes or none with an OS index; affinity as
/// Linux's node cpumap, left out when a PU has no OS index), and below it
/// the PCI objects NCCL itself would make (src/graph/xml.cc,
/// ncclTopoGetXmlFromSys: each function's parent is the PCI object two levels
/// up, so a PCIe switch is one element and root ports are left out), each
/// `<pci busid= class= vendor= device=>`: class 0x060400 for a bridge, NCCL's
/// own 0x03 for a GPU's function and 0x02 for an adapter's. Throws
/// InputError, writing nothing, when the tree has no GPU, when a GPU or
/// adapter has no PCI address (an export made without hwloc's PCI
/// discovery), or when the file would break one of NCCL's parser limits (an
/// affinity longer than 253 bytes, more than 256 elements).
std::string nccl_topology(const MachineTree& tree, std::string_view name);

/// nccl_topology to a stream.
void write_nccl_topology(const MachineTree& tree, std::string_view name, std::ostream& out);

/// nccl_topology to a file, atomically (write_atomically): nothing is written
/// when nccl_topology throws. Throws as it does, and Error naming the file
/// when it cannot be written.
void save_nccl_topology(const MachineTree& tree, std::string_view name, const std::string& path);

} // namespace nettopo
