// The rules are those of hwloc 3's exporter with HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V2
// (hwloc/topology-xml.c, master of 2026-08), applied to what hwloc 3's importer
// makes of a 3.0 file; tests/unit/hwloc/test_hwloc3.cpp checks them against
// hwloc's own conversion pair (tests/hwloc/xml/cxlmem+dax.v3.xml -> .v2.xml).
#include "hwloc/hwloc3_to_v2.hpp"

#include "hwloc/hwloc_xml_check.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <fmt/format.h>
#include <hwloc.h>
#include <iterator>
#include <limits>
#include <optional>
#include <vector>

namespace nettopo::detail {

namespace {

// hwloc 3.0's OS device types, one bit each (hwloc_obj_osdev_types_e). The
// converter writes hwloc 2's format whatever hwloc it is built with, so these
// and the 2.x values below are spelled out, not taken from hwloc.h.
constexpr unsigned long osdev_storage = 1ul << 0, osdev_memory = 1ul << 1, osdev_gpu = 1ul << 2,
                        osdev_coproc = 1ul << 3, osdev_network = 1ul << 4,
                        osdev_openfabrics = 1ul << 5, osdev_dma = 1ul << 6;

// hwloc 2's one OS device type (hwloc_obj_osdev_type_e: Block 0, GPU 1,
// Network 2, OpenFabrics 3, DMA 4, CoProcessor 5) for hwloc 3's bits, chosen
// as hwloc 3's v2 export chooses it: the first of these the device is. So a
// DAX or CXL memory device is the Block device 2.x called it, an InfiniBand
// adapter (Network and OpenFabrics) the OpenFabrics one, a CUDA device (GPU
// and co-processor) the co-processor, an NVML or RSMI device (co-processor
// and GPU since 3.0) the GPU. Empty: no type bit, and hwloc writes none.
std::string_view v2_osdev_type(unsigned long types, std::string_view name,
                               std::string_view subtype) {
    if (types & (osdev_storage | osdev_memory)) return "0";
    if (types & osdev_openfabrics) return "3";
    if (types & osdev_network) return subtype == "BXI" ? "3" : "2"; // BXI was OpenFabrics in 2.x
    if (types & osdev_dma) return "4";
    if (types & osdev_coproc)
        return name.starts_with("nvml") || name.starts_with("rsmi") ? "1" : "5";
    if (types & osdev_gpu) return "1";
    return {};
}

// The Backend info a 2.x GPU or co-processor carried itself; 3.0 keeps
// backends in the topology's infos only.
std::string_view backend_of(std::string_view subtype) {
    for (const std::string_view known : {"CUDA", "NVML", "OpenCL", "RSMI", "LevelZero"})
        if (subtype == known) return known;
    return subtype == "Display" ? "GL" : "";
}

// The subtype hwloc 3 gives a NUMA node without one from the kinds of its
// memory tier (memattrs.c): HBM 1, DRAM 2, GPU memory 4, SPM 8, NVM 16, each
// alone or with CXL 32 (CXL alone is CXL-DRAM); none for other mixes.
std::string tier_subtype(unsigned long kinds) {
    constexpr unsigned long cxl = 32;
    const auto single = [](unsigned long k) -> std::string_view {
        switch (k) {
        case 1:
            return "HBM";
        case 2:
            return "DRAM";
        case 4:
            return "GPUMemory";
        case 8:
            return "SPM";
        case 16:
            return "NVM";
        default:
            return "";
        }
    };
    if (!(kinds & cxl)) return std::string(single(kinds));
    const std::string_view rest = (kinds & ~cxl) == 0 ? "DRAM" : single(kinds & ~cxl);
    return rest.empty() ? std::string() : fmt::format("CXL-{}", rest);
}

// hwloc 3.0's HOPS distance kind (the XGMIHops matrix), which 2.x wrote as a latency.
constexpr unsigned long kind_hops = 1ul << 5, kind_latency = 1ul << 2;

// C's strtoul/atoi as hwloc reads numbers: leading digits (after spaces and a
// sign), 0 when there are none; the caller's fallback when the value is absent.
unsigned long leading_number(const char* text, int base) {
    return std::strtoul(text, nullptr, base);
}

// A set of indexes written as hwloc writes bitmaps: 32-bit groups in hex, the
// last holding bits 0-31, an empty group 0, a first "0xf...f" setting every
// bit above the others ("0x000000f0", "0x00000001,,0x0", "0xf...f,0x1").
struct IndexSet {
    std::vector<std::uint32_t> groups; // lowest first
    bool infinite = false;
    bool has(unsigned long index) const {
        const unsigned long group = index / 32;
        if (group >= groups.size()) return infinite;
        return (groups[group] >> (index % 32) & 1u) != 0;
    }
};

std::optional<IndexSet> read_index_set(std::string_view text) {
    IndexSet set;
    if (text.starts_with("0xf...f")) {
        text.remove_prefix(7);
        set.infinite = true;
        if (text.empty()) return set;
        if (text.front() != ',') return std::nullopt;
        text.remove_prefix(1);
    }
    std::vector<std::uint32_t> highest_first;
    for (;;) {
        const std::size_t comma = text.find(',');
        std::string_view group = text.substr(0, comma);
        std::uint32_t value = 0;
        if (group.starts_with("0x") || group.starts_with("0X")) group.remove_prefix(2);
        if (!group.empty()) {
            const char* end = group.data() + group.size();
            const auto [stop, ec] = std::from_chars(group.data(), end, value, 16);
            if (ec != std::errc() || stop != end) return std::nullopt;
        }
        highest_first.push_back(value);
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    set.groups.assign(highest_first.rbegin(), highest_first.rend());
    return set;
}

// Whether a 3.0 export holds element `child` in element `parent`, as hwloc
// 3's importer reads them; anything else is unknown to the conversion.
bool holds(std::string_view parent, std::string_view child) {
    const auto any_of = [&](std::initializer_list<std::string_view> names) {
        return std::find(names.begin(), names.end(), child) != names.end();
    };
    if (parent == "topology")
        return any_of({"object", "distances2", "distances2hetero", "support", "memattr", "cpukind",
                       "info", "memtier", "pci_locality"});
    if (parent == "object") return any_of({"object", "info", "userdata"});
    if (parent == "distances2" || parent == "distances2hetero")
        return any_of({"indexes", "u64values", "info"});
    if (parent == "memattr") return child == "memattr_value";
    if (parent == "cpukind" || parent == "memtier") return child == "info";
    return false;
}

// The elements whose text hwloc reads (a distance matrix's numbers, userdata).
bool has_text(std::string_view name) {
    return name == "indexes" || name == "u64values" || name == "userdata";
}

// Appends `text` escaped as hwloc's exporter escapes it. Other control
// characters are dropped: XML 1.0 cannot hold them, and hwloc never wrote one.
void append_escaped(std::string& out, std::string_view text) {
    for (const char c : text) {
        switch (c) {
        case '\n':
            out += "&#10;";
            break;
        case '\r':
            out += "&#13;";
            break;
        case '\t':
            out += "&#9;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        default:
            if (static_cast<unsigned char>(c) >= 0x20) out += c;
        }
    }
}

struct Info {
    std::string name, value;
};

struct MemoryTier {
    IndexSet nodes;
    unsigned long kinds = 0;
};

class Converter {
public:
    Converter(std::string_view buffer, const std::string& source)
        : buffer_(buffer), source_(source) {}

    std::string convert(pugi::xml_node topology) {
        version_ = topology.attribute("version").value();
        read_topology_level(topology);
        out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
               "<topology version=\"2.0\">\n";
        for (pugi::xml_node e = topology.first_child(); e; e = e.next_sibling()) {
            if (e.type() != pugi::node_element) continue;
            const std::string_view name = e.name();
            if (name == "object")
                write_objects(e);
            else if (name != "info" && name != "memtier" && name != "pci_locality")
                write_plain(e, 1); // what hwloc 2.x reads as 3.0 writes it
        }
        out_ += "</topology>\n";
        return std::move(out_);
    }

private:
    [[noreturn]] void refuse(pugi::xml_node at, std::string_view problem) const {
        throw InputError(source_, line_of(buffer_, at),
                         fmt::format("{}; {}", problem, reexport_as_v2()));
    }
    // "a <memtier> without a nodeset": what is wrong with an element it consumes.
    [[noreturn]] void refuse_malformed(pugi::xml_node at, std::string_view what) const {
        refuse(at, fmt::format("{} in this hwloc {} export", what, version_));
    }

    void check_children(pugi::xml_node e) const {
        for (pugi::xml_node c = e.first_child(); c; c = c.next_sibling())
            if (c.type() == pugi::node_element && !holds(e.name(), c.name()))
                refuse(c, fmt::format("unknown element <{}> in <{}> of this hwloc {} export: "
                                      "nettopo converts such exports to hwloc 2.x's form and "
                                      "cannot tell what it means there",
                                      c.name(), e.name(), version_));
    }

    // What moves from the topology's level onto objects: its infos (onto the
    // root), memory tiers (onto NUMA nodes), page sizes (infos, onto NUMA
    // nodes); pci_locality is checked and left out (2.x has the I/O tree's
    // place for it).
    void read_topology_level(pugi::xml_node topology) {
        check_children(topology);
        bool root = false;
        for (pugi::xml_node e = topology.first_child(); e; e = e.next_sibling()) {
            if (e.type() != pugi::node_element) continue;
            const std::string_view name = e.name();
            if (!root && name != "object")
                refuse_malformed(e, fmt::format("<{}> before the root <object>", name));
            if (name == "object") {
                if (root) refuse_malformed(e, "a second root <object>");
                root = true;
            } else if (name == "info") {
                check_children(e);
                const pugi::xml_attribute n = e.attribute("name"), v = e.attribute("value");
                if (n && v) topology_infos_.push_back({n.value(), v.value()});
            } else if (name == "memtier") {
                check_children(e);
                const std::optional<IndexSet> nodes =
                    read_index_set(e.attribute("nodeset").value());
                if (!e.attribute("nodeset") || !nodes)
                    refuse_malformed(e, "a <memtier> without a nodeset");
                tiers_.push_back({*nodes, leading_number(e.attribute("kinds").value(), 10)});
            } else if (name == "pci_locality") {
                check_children(e);
                for (const char* needed : {"cpuset", "domain", "bus_min", "bus_max"})
                    if (!e.attribute(needed))
                        refuse_malformed(e, fmt::format("a <pci_locality> without {}", needed));
            }
        }
        if (!root) refuse_malformed(topology, "no root <object>");
        // hwloc 3 takes the first (hwloc_get_info_by_name).
        const auto sizes = std::find_if(topology_infos_.begin(), topology_infos_.end(),
                                        [](const Info& i) { return i.name == "PageSizes"; });
        if (sizes != topology_infos_.end()) page_sizes_ = sizes->value;
    }

    // Two spaces a level, as hwloc indents, up to a depth no machine reaches
    // (nettopo's trees stop at 64 levels): the text of a file nested deeper
    // stays linear in its size.
    void indent(std::size_t depth) { out_.append(2 * std::min<std::size_t>(depth, 100), ' '); }
    void attribute(std::string_view name, std::string_view value) {
        out_ += ' ';
        out_ += name;
        out_ += "=\"";
        append_escaped(out_, value);
        out_ += '"';
    }
    void info(std::string_view name, std::string_view value, std::size_t depth) {
        indent(depth);
        out_ += "<info";
        attribute("name", name);
        attribute("value", value);
        out_ += "/>\n";
    }
    void close(std::string_view name, std::size_t depth) {
        indent(depth);
        fmt::format_to(std::back_inserter(out_), "</{}>\n", name);
    }

    // An element other than an object, its attributes and children as they
    // are but for the 3.0 distance kind; its depth is bounded (check_children).
    void write_plain(pugi::xml_node e, std::size_t depth) {
        check_children(e);
        const std::string_view name = e.name();
        const bool distances = name == "distances2" || name == "distances2hetero";
        indent(depth);
        out_ += '<';
        out_ += name;
        for (const pugi::xml_attribute a : e.attributes()) {
            const std::string_view value = a.value();
            unsigned long kind = 0;
            if (distances && std::string_view(a.name()) == "kind" &&
                std::from_chars(value.data(), value.data() + value.size(), kind).ptr ==
                    value.data() + value.size() &&
                (kind & kind_hops))
                attribute("kind", std::to_string((kind & ~kind_hops) | kind_latency));
            else
                attribute(a.name(), value);
        }
        std::string text;
        if (has_text(name))
            for (pugi::xml_node c = e.first_child(); c; c = c.next_sibling())
                if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata)
                    text += c.value();
        // 2.x reads no info in a matrix; 3.0 ignores it.
        const auto kept = [&](pugi::xml_node c) {
            return c.type() == pugi::node_element &&
                   !(distances && std::string_view(c.name()) == "info");
        };
        bool children = false;
        for (pugi::xml_node c = e.first_child(); c && !children; c = c.next_sibling())
            children = kept(c);
        if (!children && text.empty()) {
            out_ += "/>\n";
            return;
        }
        out_ += '>';
        append_escaped(out_, text);
        if (children) {
            out_ += '\n';
            for (pugi::xml_node c = e.first_child(); c; c = c.next_sibling())
                if (kept(c)) write_plain(c, depth + 1);
            indent(depth);
        }
        fmt::format_to(std::back_inserter(out_), "</{}>\n", name);
    }

    static pugi::xml_node object_after(pugi::xml_node n) {
        for (; n; n = n.next_sibling())
            if (n.type() == pugi::node_element && std::string_view(n.name()) == "object") return n;
        return {};
    }

    // The tree of objects, depth first in document order, without recursion:
    // files may nest deeper than a stack allows.
    void write_objects(pugi::xml_node root) {
        std::size_t depth = 1;
        pugi::xml_node o = root;
        for (;;) {
            if (open_object(o, depth, o == root)) {
                o = object_after(o.first_child());
                ++depth;
                continue;
            }
            for (;;) {
                if (o == root) return;
                if (const pugi::xml_node next = object_after(o.next_sibling())) {
                    o = next;
                    break;
                }
                o = o.parent();
                --depth;
                close("object", depth);
            }
        }
    }

    // The first tier holding NUMA node `os_index`, as hwloc 3 marks a node.
    const MemoryTier* tier_of(unsigned long os_index, std::size_t& index) const {
        for (index = 0; index < tiers_.size(); ++index)
            if (tiers_[index].nodes.has(os_index)) return &tiers_[index];
        return nullptr;
    }

    // Writes object `o`'s start tag, attributes and children other than
    // objects; true when it has child objects (its end tag is then left to
    // write_objects).
    bool open_object(pugi::xml_node o, std::size_t depth, bool root) {
        check_children(o);
        hwloc_obj_type_t type = HWLOC_OBJ_TYPE_MAX; // unknown: hwloc 2.x says so
        if (hwloc_type_sscanf(o.attribute("type").value(), &type, nullptr, 0) != 0)
            type = HWLOC_OBJ_TYPE_MAX;
        const bool numa = type == HWLOC_OBJ_NUMANODE, osdev = type == HWLOC_OBJ_OS_DEVICE;
        const bool cache = type != HWLOC_OBJ_TYPE_MAX &&
                           (hwloc_obj_type_is_cache(type) || type == HWLOC_OBJ_MEMCACHE);
        const std::string_view name = o.attribute("name").value();
        const std::string_view subtype = o.attribute("subtype").value();

        std::size_t tier_index = 0;
        const MemoryTier* tier = nullptr;
        if (numa) {
            const pugi::xml_attribute os = o.attribute("os_index");
            // hwloc's unknown index, (unsigned)-1, when absent.
            tier = tier_of(os ? leading_number(os.value(), 10) : 0xfffffffful, tier_index);
        }
        std::string new_subtype;
        if (tier && !o.attribute("subtype")) new_subtype = tier_subtype(tier->kinds);

        indent(depth);
        out_ += "<object";
        // 3.0 writes each object's gp_index twice, as gp_index and as id
        // "obj<N>", and reads both, the last one counting; 2.x knows gp_index only.
        std::string gp_index;
        bool has_gp_index = false;
        for (const pugi::xml_attribute a : o.attributes()) {
            const std::string_view n = a.name(), v = a.value();
            if (n == "gp_index" || (n == "id" && v.starts_with("obj"))) {
                gp_index = n == "id" ? v.substr(3) : v;
                has_gp_index = true;
            }
        }
        bool gp_index_written = false;
        for (const pugi::xml_attribute a : o.attributes()) {
            const std::string_view n = a.name(), v = a.value();
            if (n == "gp_index" || n == "id") {
                if (has_gp_index && !gp_index_written) attribute("gp_index", gp_index);
                gp_index_written = true;
            } else if (n == "cache_inclusive") {
                // an info in 2.x, below
            } else if (n == "osdev_type" && osdev) {
                const std::string_view v2 =
                    v2_osdev_type(leading_number(a.value(), 10), name, subtype);
                if (!v2.empty()) attribute(n, v2);
            } else {
                // hwloc writes the subtype before the type's own attributes.
                if (!new_subtype.empty() && n == "local_memory") {
                    attribute("subtype", new_subtype);
                    new_subtype.clear();
                }
                attribute(n, v);
            }
        }
        if (!new_subtype.empty()) attribute("subtype", new_subtype);

        const pugi::xml_node first_object = object_after(o.first_child());
        const auto not_object = [](pugi::xml_node c) {
            return c.type() == pugi::node_element && std::string_view(c.name()) != "object";
        };
        bool other_children = false;
        for (pugi::xml_node c = o.first_child(); c; c = c.next_sibling())
            other_children |= not_object(c);
        std::vector<Info> added;
        if (root) {
            added = topology_infos_;
            if (tiers_.size() > 1)
                added.push_back({"MemoryTiersNr", std::to_string(tiers_.size())});
        }
        if (cache) {
            // C's atoi of the value, as hwloc reads it; 0 is not written.
            const long inclusive =
                std::clamp<long>(std::strtol(o.attribute("cache_inclusive").value(), nullptr, 10),
                                 std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
            if (inclusive != 0) added.push_back({"Inclusive", std::to_string(inclusive)});
        }
        // A node in no tier has tier -1 in hwloc 3, which its v2 export
        // writes as 4294967295: left out instead.
        if (tier && tiers_.size() > 1) added.push_back({"MemoryTier", std::to_string(tier_index)});
        if (osdev && !backend_of(subtype).empty()) {
            bool has_backend = false;
            for (const pugi::xml_node i : o.children("info"))
                has_backend |= std::string_view(i.attribute("name").value()) == "Backend";
            if (!has_backend) added.push_back({"Backend", std::string(backend_of(subtype))});
        }
        const bool page_types = numa && !page_sizes_.empty();

        if (!first_object && !other_children && added.empty() && !page_types) {
            out_ += "/>\n";
            return false;
        }
        out_ += ">\n";
        // hwloc's order: page types, infos (the object's, then the added
        // ones), userdata.
        if (page_types) write_page_types(depth + 1);
        for (const pugi::xml_node i : o.children("info")) write_plain(i, depth + 1);
        for (const Info& i : added) info(i.name, i.value, depth + 1);
        for (pugi::xml_node c = o.first_child(); c; c = c.next_sibling())
            if (not_object(c) && std::string_view(c.name()) != "info") write_plain(c, depth + 1);
        if (first_object) return true;
        close("object", depth);
        return false;
    }

    // 2.x's page_type children of a NUMA node, one per size of the
    // topology's PageSizes info ("4096,2097152"), sizes cut to 21 characters
    // and counts 0 as hwloc 3 writes them.
    void write_page_types(std::size_t depth) {
        std::string_view sizes = page_sizes_;
        for (;;) {
            const std::size_t comma = sizes.find(',');
            indent(depth);
            out_ += "<page_type";
            attribute("size", sizes.substr(0, std::min<std::size_t>(comma, 21)));
            attribute("count", "0");
            out_ += "/>\n";
            if (comma == std::string_view::npos) break;
            sizes.remove_prefix(comma + 1);
            if (sizes.empty()) break;
        }
    }

    std::string_view buffer_;
    const std::string& source_;
    std::string version_;
    std::vector<Info> topology_infos_;
    std::vector<MemoryTier> tiers_;
    std::string page_sizes_; // the PageSizes info, "" when none
    std::string out_;
};

} // namespace

std::string hwloc3_to_v2(const pugi::xml_document& doc, std::string_view buffer,
                         const std::string& source) {
    return Converter(buffer, source).convert(doc.document_element());
}

std::string reexport_as_v2() {
    return "re-export it in hwloc's 2.x format: with hwloc 3, `lstopo --export-xml-flags v2 "
           "FILE.xml`, or HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V2 from a program";
}

} // namespace nettopo::detail
