// The "io:" section of a tree's signature (MachineTree::signature): the PCI
// tree and the devices, written and read back exactly. Strings are
// percent-escaped so that no payload holds the signature's separators.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <string>
#include <string_view>

namespace nettopo::detail {

// The payload after "io:" (empty when the tree has no PCI object and no device).
std::string io_signature(std::span<const PciObject> pci, std::span<const IoDevice> devices);
// Reads a payload io_signature wrote into `builder`. Throws InputError.
void read_io_signature(std::string_view payload, MachineTree::Builder& builder);

} // namespace nettopo::detail
