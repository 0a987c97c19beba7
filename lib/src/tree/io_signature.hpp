// The "io:" section of a tree's signature (MachineTree::signature): the PCI
// tree, the devices and the GPU interconnect matrices, written and read back
// exactly. Strings are percent-escaped so that no payload holds the
// signature's separators.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <string>
#include <string_view>

namespace nettopo::detail {

// The payload after "io:" (empty when the tree has no PCI object, no device
// and no matrix). A tree without matrices keeps the text it had before they
// were read ("m" entries are only written for matrices).
std::string io_signature(std::span<const PciObject> pci, std::span<const IoDevice> devices,
                         std::span<const Interconnect> interconnects);
// Reads a payload io_signature wrote into `builder`. Throws InputError.
void read_io_signature(std::string_view payload, MachineTree::Builder& builder);

} // namespace nettopo::detail
