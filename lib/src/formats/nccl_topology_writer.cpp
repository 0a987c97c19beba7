// A machine type as NCCL's topology file (NCCL_TOPO_FILE).
//
// NCCL's side (github NVIDIA/nccl, src/graph/xml.cc, xml.h, topo.cc):
//  - The parser is NCCL's own: no XML declaration, elements separated by
//    blanks, newlines only (no tabs), one blank between attributes, values in
//    quotes without entities, a value of at most 253 bytes (MAX_STR_LEN 255,
//    the closing quote counted), at most 16 attributes (MAX_ATTR_COUNT) and
//    256 elements in all (NCCL_TOPO_XML_MAX_NODES; its 640 children of one
//    element, MAX_SUBS, are then never reached).
//    NCCL skips comments (xmlSkipComment); nettopo writes none and says where
//    the file comes from in <system name=>, which NCCL logs.
//  - Nesting: system > cpu > pci > pci ... > (gpu | nic); <system version=
//    "1"> (NCCL_TOPO_XML_VERSION); a cpu's numaid is required, its affinity
//    optional; a pci's busid and class are required (ncclTopoAddPci), and so
//    are link_speed and link_width, which NCCL fills itself when it climbs
//    the branch of one of its GPUs or adapters (ncclTopoGetXmlFromSys: from
//    sysfs, else "", its "unknown": x16 at 8 GT/s). It also fills a cpu's
//    arch, vendor, familyid and modelid from the CPU it runs on
//    (ncclTopoGetXmlFromCpu), and a GPU's and a net's attributes from NVML
//    and its net plugin.
//  - How NCCL builds the tree from sysfs (ncclTopoGetXmlFromSys): a PCI
//    function's parent is the PCI object two levels up its sysfs path, or
//    the CPU when that is the root complex. So a PCIe switch (upstream port,
//    downstream ports) is one element, the upstream port's, and root ports
//    do not appear: a GPU behind a switch is cpu > pci(switch) > pci(GPU).
//    Children are kept in bus id order (issue #820).
//
// What nettopo writes: what it knows and NCCL cannot find out where it
// cannot read the PCI tree, following NVIDIA's advice for virtual machines
// (github NVIDIA/nccl-tests#86, NVIDIA/nccl#1843: keep the cpu and pci
// elements, the GPUs and NICs are discovered): the cpu elements with numaid
// and affinity, the pci elements NCCL would make, with busid, class, vendor
// and device. No gpu, nic or net element: a net element found by name makes
// NCCL skip its branch (ncclTopoFillNet returns at once), so its cpu would
// need arch, vendor, familyid and modelid, which nettopo does not keep, and
// NCCL takes a net's speed, port and guid from its plugin and a GPU's dev,
// sm and NVLinks from NVML anyway. No link_speed or link_width: nettopo does
// not keep them (one host's degraded link would split identical hosts into
// machine types), and NCCL fills them as said.
#include "nettopo/formats/nccl_topology.hpp"
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <string>
#include <vector>

namespace nettopo {

namespace {

// NCCL's parser limits (src/graph/xml.h, topo.h).
constexpr std::size_t max_value_bytes = 253;
constexpr std::size_t max_elements = 256;

constexpr std::uint32_t not_kept = 0xffffffffu;
constexpr std::int64_t unknown_numa = -1;

const char* pci_class(const PciObject& p, bool gpu) {
    if (p.kind != PciKind::Device) return "0x060400"; // a PCI-to-PCI bridge
    return gpu ? "0x03" : "0x02";                     // NCCL's own defaults (xml.cc)
}

// A CPU element: a NUMA node's OS index (or unknown_numa) and its PUs.
struct CpuElement {
    std::vector<std::uint32_t> pus; // logical indexes
    std::vector<std::uint32_t> top; // PCI objects directly below it
};

// Linux's node cpumap: 32-bit words in hex, "%08x", most significant first,
// as many as the machine's highest PU OS index needs. Empty when a PU has no
// OS index.
std::string cpumap(const MachineTree& tree, const std::vector<std::uint32_t>& pus) {
    std::uint32_t highest = 0;
    for (std::uint32_t l = 0; l < tree.num_pus(); ++l) {
        const std::uint32_t os = tree.object(tree.pu(l)).os_index;
        if (os == unknown_os_index) return {};
        highest = std::max(highest, os);
    }
    std::vector<std::uint32_t> words(highest / 32 + 1, 0);
    for (const std::uint32_t l : pus) {
        const std::uint32_t os = tree.object(tree.pu(l)).os_index;
        words[os / 32] |= std::uint32_t{1} << (os % 32);
    }
    std::string text;
    for (std::size_t w = words.size(); w-- > 0;)
        text += fmt::format("{}{:08x}", text.empty() ? "" : ",", words[w]);
    return text;
}

bool safe_value(std::string_view v) {
    return v.size() <= max_value_bytes && v.find_first_of("\"'<>&") == std::string_view::npos;
}

class Writer {
public:
    Writer(const MachineTree& tree, std::string_view name) : tree_(tree), name_(name) {}

    std::string text() {
        choose_devices();
        place_pci();
        std::string out = "<system version=\"1\"";
        if (!name_.empty() && safe_value(name_)) out += fmt::format(" name=\"{}\"", name_);
        out += ">\n";
        std::size_t elements = 1;
        for (const auto& [numa, cpu] : cpus_) {
            ++elements;
            out += fmt::format("  <cpu numaid=\"{}\"", numa);
            const std::string affinity = cpumap(tree_, cpu.pus);
            if (affinity.size() > max_value_bytes)
                throw InputError(fmt::format(
                    "the CPUs of NUMA node {} as NCCL's affinity mask take {} bytes, more than "
                    "the {} NCCL's parser reads",
                    numa, affinity.size(), max_value_bytes));
            if (!affinity.empty()) out += fmt::format(" affinity=\"{}\"", affinity);
            out += ">\n";
            for (const std::uint32_t p : cpu.top) elements += write_pci(out, p, 4);
            out += "  </cpu>\n";
        }
        out += "</system>\n";
        if (elements > max_elements)
            throw InputError(fmt::format("the NCCL topology file would hold {} elements, more "
                                         "than the {} NCCL's parser reads",
                                         elements, max_elements));
        return out;
    }

private:
    // The GPUs and adapters, each a PCI function: gpu_[p] for function p.
    void choose_devices() {
        const auto pci = tree_.pci();
        is_function_.assign(pci.size(), 0);
        is_gpu_.assign(pci.size(), 0);
        std::vector<std::string> no_address;
        bool any_gpu = false;
        for (const IoDevice& d : tree_.devices()) {
            if (d.kind != DeviceKind::Gpu && d.kind != DeviceKind::Nic) continue;
            if (d.pci == no_pci) {
                no_address.push_back(d.name);
                continue;
            }
            is_function_[d.pci] = 1;
            if (d.kind == DeviceKind::Gpu) {
                is_gpu_[d.pci] = 1;
                any_gpu = true;
            }
        }
        if (!no_address.empty()) {
            std::string list;
            for (const std::string& n : no_address) {
                if (!list.empty()) list += ", ";
                list += n;
            }
            throw InputError(fmt::format(
                "{} no PCI address (the export was made without hwloc's PCI discovery): NCCL's "
                "topology file places GPUs and adapters by PCI address",
                no_address.size() == 1 ? list + " has" : list + " have"));
        }
        if (!any_gpu)
            throw InputError("the machine has no GPU with a PCI address: NCCL's topology file "
                             "has nothing to place");
    }

    // Depth below the host bridge (1 for an object on the root bus), the
    // objects NCCL would make elements of, and where each one hangs.
    void place_pci() {
        const auto pci = tree_.pci();
        std::vector<std::uint32_t> depth(pci.size(), 0);
        for (std::uint32_t i = 0; i < pci.size(); ++i) {
            if (pci[i].kind == PciKind::HostBridge) continue;
            const std::uint32_t up = pci[i].parent;
            depth[i] = up == no_pci ? 1 : depth[up] + 1;
        }
        parent_.assign(pci.size(), not_kept);
        kept_.assign(pci.size(), 0);
        const auto up2 = [&](std::uint32_t i) { return pci[pci[i].parent].parent; };
        for (std::uint32_t f = 0; f < pci.size(); ++f) {
            if (!is_function_[f]) continue;
            for (std::uint32_t i = f;;) {
                if (kept_[i]) break; // the rest of the way is placed already
                kept_[i] = 1;
                if (depth[i] <= 2) { // its parent is the CPU
                    place_on_cpu(i);
                    break;
                }
                parent_[i] = up2(i);
                i = parent_[i];
            }
        }
        children_.assign(pci.size(), {});
        for (std::uint32_t i = 0; i < pci.size(); ++i)
            if (kept_[i] && parent_[i] != not_kept) children_[parent_[i]].push_back(i);
        const auto by_bus_id = [&](std::uint32_t a, std::uint32_t b) {
            return pci_bus_id(pci[a]) < pci_bus_id(pci[b]);
        };
        for (auto& c : children_) std::sort(c.begin(), c.end(), by_bus_id);
        for (auto& [numa, cpu] : cpus_) {
            std::sort(cpu.top.begin(), cpu.top.end(), by_bus_id);
            std::sort(cpu.pus.begin(), cpu.pus.end());
            cpu.pus.erase(std::unique(cpu.pus.begin(), cpu.pus.end()), cpu.pus.end());
        }
    }

    // The CPU element of PCI object `i`'s hierarchy: its locality's one NUMA
    // node, else NCCL's numaid -1 (sysfs' numa_node of a device whose local
    // CPUs span several nodes), whose affinity is the union of such
    // localities.
    void place_on_cpu(std::uint32_t i) {
        const TreeObject& loc = tree_.object(tree_.pci()[i].locality);
        std::int64_t numa = unknown_numa;
        const MemoryObject* only = nullptr;
        std::size_t count = 0;
        for (const MemoryObject& m : tree_.memory())
            if (m.type == ObjectType::NUMANode && share_pus(tree_.object(m.parent), loc)) {
                ++count;
                only = &m;
            }
        if (count == 1 && only->os_index != unknown_os_index) numa = only->os_index;
        CpuElement& cpu = cpus_[numa];
        const TreeObject& cpus = numa == unknown_numa ? loc : tree_.object(only->parent);
        for (std::uint32_t l = 0; l < cpus.pu_count; ++l) cpu.pus.push_back(cpus.first_pu + l);
        cpu.top.push_back(i);
    }

    // Element `p` and what is below it, indented by `indent`; returns the
    // elements written.
    std::size_t write_pci(std::string& out, std::uint32_t p, std::size_t indent) const {
        const PciObject& o = tree_.pci()[p];
        out += fmt::format("{:{}}<pci busid=\"{}\" class=\"{}\"", "", indent, pci_bus_id(o),
                           pci_class(o, is_gpu_[p]));
        if (o.vendor_id != 0)
            out +=
                fmt::format(" vendor=\"0x{:04x}\" device=\"0x{:04x}\"", o.vendor_id, o.device_id);
        if (children_[p].empty()) {
            out += "/>\n";
            return 1;
        }
        out += ">\n";
        std::size_t n = 1;
        for (const std::uint32_t c : children_[p]) n += write_pci(out, c, indent + 2);
        out += fmt::format("{:{}}</pci>\n", "", indent);
        return n;
    }

    const MachineTree& tree_;
    std::string_view name_;
    std::vector<char> is_function_, is_gpu_, kept_;
    std::vector<std::uint32_t> parent_;
    std::vector<std::vector<std::uint32_t>> children_;
    // By numaid, -1 (unknown_numa) last.
    struct NumaOrder {
        bool operator()(std::int64_t a, std::int64_t b) const {
            if ((a == unknown_numa) != (b == unknown_numa)) return b == unknown_numa;
            return a < b;
        }
    };
    std::map<std::int64_t, CpuElement, NumaOrder> cpus_;
};

} // namespace

std::string nccl_topology(const MachineTree& tree, std::string_view name) {
    return Writer(tree, name).text();
}

void write_nccl_topology(const MachineTree& tree, std::string_view name, std::ostream& out) {
    out << nccl_topology(tree, name);
}

void save_nccl_topology(const MachineTree& tree, std::string_view name, const std::string& path) {
    const std::string text = nccl_topology(tree, name); // a refusal writes nothing
    write_atomically(path, [&](std::ostream& out) { out << text; });
}

} // namespace nettopo
