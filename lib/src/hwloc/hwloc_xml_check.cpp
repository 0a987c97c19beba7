#include "hwloc/hwloc_xml_check.hpp"

#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fmt/format.h>
#include <optional>
#include <string>

namespace nettopo::detail {

namespace {

std::size_t line_at(std::string_view buffer, std::ptrdiff_t offset) {
    if (offset < 0) return 0;
    const auto end = buffer.begin() + std::min(static_cast<std::size_t>(offset), buffer.size());
    return 1 + static_cast<std::size_t>(std::count(buffer.begin(), end, '\n'));
}

// hwloc's reading of a type name (hwloc__type_match in traversal.c): a prefix
// of `type` of at least `min` characters, in either case, ended by the end of
// the string or by a character that is neither a letter nor '-'.
bool hwloc_type_matches(std::string_view text, std::string_view type, std::size_t min) {
    for (std::size_t i = 0;; ++i) {
        if (i == text.size()) return i >= min;
        const char c = text[i];
        if (i < type.size() && (c == type[i] || c == type[i] - 'a' + 'A')) continue;
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
        return !letter && i >= min;
    }
}

// No type hwloc tries before these (hwloc_type_sscanf) starts like them.
bool is_pu(pugi::xml_node object) {
    return hwloc_type_matches(object.attribute("type").value(), "pu", 2);
}
bool is_numa_node(pugi::xml_node object) {
    const std::string_view type = object.attribute("type").value();
    return hwloc_type_matches(type, "numanode", 2) || hwloc_type_matches(type, "node", 2);
}

// "M.m..." of a release or a format version: its first two numbers.
std::optional<HwlocXmlVersion> two_numbers(std::string_view v) {
    HwlocXmlVersion version;
    const auto [dot, ec] = std::from_chars(v.data(), v.data() + v.size(), version.major);
    if (ec != std::errc() || dot == v.data() + v.size() || *dot != '.') return std::nullopt;
    if (std::from_chars(dot + 1, v.data() + v.size(), version.minor).ec != std::errc())
        return std::nullopt;
    return version;
}

// An object with a set but not its complete_ twin.
bool lacks_complete(pugi::xml_node object, const char* set) {
    return object.attribute(set) && !object.attribute(fmt::format("complete_{}", set).c_str());
}

// The first <object> below `root` in document order for which `found` is
// true, else an empty node. A loop, not a recursion: files may nest deeper
// than a stack allows.
template <class Found> pugi::xml_node find_below(pugi::xml_node root, Found found) {
    for (pugi::xml_node n = root.first_child(); n;) {
        if (std::string_view(n.name()) == "object") {
            if (found(n)) return n;
            if (n.first_child()) {
                n = n.first_child();
                continue;
            }
        }
        while (n != root && !n.next_sibling()) n = n.parent();
        if (n == root) break;
        n = n.next_sibling();
    }
    return {};
}

// hwloc's reading of an object type name (hwloc_type_sscanf).
bool hwloc_type_known(const char* text) {
    hwloc_obj_type_t type;
    return hwloc_type_sscanf(text, &type, nullptr, 0) == 0;
}

std::size_t words(std::string_view text) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        n += text[i] != ' ' && text[i] != '\n' && text[i] != '\t' &&
             (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n' || text[i - 1] == '\t');
    return n;
}

// Why hwloc 2.9 refuses the matrix `d` (hwloc__xml_v2import_distances in
// topology-xml.c), "" when nothing here says it would.
std::string matrix_problem(pugi::xml_node d) {
    const bool hetero = std::string_view(d.name()) == "distances2hetero";
    const unsigned long nbobjs = std::strtoul(d.attribute("nbobjs").value(), nullptr, 10);
    if (nbobjs == 0 || std::strtoul(d.attribute("kind").value(), nullptr, 10) == 0 ||
        (!hetero && (!d.attribute("type") || !d.attribute("indexing"))))
        return hetero ? "lacks nbobjs or kind" : "lacks nbobjs, kind, type or indexing";
    if (!hetero && !hwloc_type_known(d.attribute("type").value()))
        return fmt::format("names the unknown type '{}'", d.attribute("type").value());
    std::size_t indexes = 0, values = 0;
    for (pugi::xml_node c : d.children()) {
        if (c.type() != pugi::node_element) continue;
        const std::string_view tag = c.name(), text = c.child_value();
        if (tag != "indexes" && tag != "u64values") return fmt::format("has a <{}>", tag);
        if (std::strtoul(c.attribute("length").value(), nullptr, 10) != text.size())
            return fmt::format("has <{}> length=\"{}\" around {} characters", tag,
                               c.attribute("length").value(), text.size());
        (tag == "indexes" ? indexes : values) += words(text);
        if (hetero && tag == "indexes")
            for (std::size_t at = 0; at < text.size();) {
                const std::size_t end = std::min(text.find(' ', at), text.size());
                const std::string_view index = text.substr(at, end - at);
                const std::string type(index.substr(0, index.find(':')));
                if (!index.empty() &&
                    (index.find(':') == std::string_view::npos || !hwloc_type_known(type.c_str())))
                    return fmt::format("names '{}', not TYPE:INDEX", index);
                at = end + 1;
            }
    }
    if (indexes != nbobjs)
        return fmt::format("names {} objects, not nbobjs=\"{}\"", indexes, nbobjs);
    if (values != std::uint64_t{nbobjs} * nbobjs)
        return fmt::format("holds {} values, not nbobjs x nbobjs = {}", values,
                           std::uint64_t{nbobjs} * nbobjs);
    return "";
}

std::string object_name(pugi::xml_node object) {
    const pugi::xml_attribute os = object.attribute("os_index");
    return os ? fmt::format("{} P#{}", object.attribute("type").value(), os.value())
              : std::string(object.attribute("type").value());
}

} // namespace

std::size_t line_of(std::string_view buffer, pugi::xml_node node) {
    return line_at(buffer, node.offset_debug());
}

HwlocXmlVersion hwloc_xml_version(pugi::xml_node topology) {
    return two_numbers(topology.attribute("version").value()).value_or(HwlocXmlVersion{});
}

bool hwloc_reads(std::string_view runtime, HwlocXmlVersion file) {
    if (file.major <= 2) return true;
    const std::optional<HwlocXmlVersion> release = two_numbers(runtime);
    if (!release) return false;
    if (release->major >= file.major) return true;
    return file.major == 3 && file.minor == 0 && release->major == 2 && release->minor >= 10;
}

void parse_xml(pugi::xml_document& doc, std::string_view buffer, const std::string& source) {
    if (auto ok = doc.load_buffer(buffer.data(), buffer.size()); !ok)
        throw InputError(source, line_at(buffer, ok.offset),
                         fmt::format("malformed XML: {}", ok.description()));
}

std::vector<std::uint32_t> declared_pus(const pugi::xml_document& doc) {
    std::vector<std::uint32_t> pus;
    for (const pugi::xpath_node& n : doc.select_nodes("//object[@type='PU']")) {
        const pugi::xml_attribute os = n.node().attribute("os_index");
        pus.push_back(os ? os.as_uint(unknown_os_index) : unknown_os_index);
    }
    return pus;
}

// hwloc checks that each set of an object comes with its complete_ twin
// (cpuset with complete_cpuset, nodeset with complete_nodeset) in hwloc 1.x
// exports only. In a version 2 export, hwloc 2.9 dereferences the missing
// twin (tests/data/hwloc-crasher*.xml; found with lstopo and variations of
// those files):
// - a NUMA node's complete_nodeset, when it propagates nodesets up the tree
//   after reading the file (hwloc-crasher.xml). A NUMA node without a
//   nodeset at all is an error hwloc reports.
// - the root's complete_cpuset when it inserts a PU, the root's
//   complete_nodeset when it inserts a NUMA node. A root without the set
//   itself is an error hwloc reports.
// Those files never load: refusing them here changes an error's wording at
// most, never a file that loads. hwloc also dereferences a missing
// complete_cpuset of an object with siblings when it checks their order
// (hwloc-crasher-siblings.xml), unless an earlier pair of siblings was out
// of order; that one is not refused here (the rule would be hwloc's sort),
// a sandbox is the answer to it (hwloc_sandbox.hpp).
void refuse_known_hwloc_crashes(const pugi::xml_document& doc, std::string_view buffer,
                                const std::string& source) {
    const pugi::xml_node topology = doc.document_element();
    if (std::string_view(topology.name()) != "topology" || hwloc_xml_version(topology).major < 2)
        return;
    const pugi::xml_node root = topology.child("object");
    if (!root) return;
    const auto refuse = [&](pugi::xml_node object, std::string_view what, const char* set) {
        throw InputError(source, line_of(buffer, object),
                         fmt::format("{} has a {} but no complete_{}: the export is malformed "
                                     "or incomplete (hwloc 2.9 crashes reading it)",
                                     what, set, set));
    };
    if (lacks_complete(root, "cpuset") && find_below(root, is_pu))
        refuse(root, "the root object " + object_name(root), "cpuset");
    if (lacks_complete(root, "nodeset") && find_below(root, is_numa_node))
        refuse(root, "the root object " + object_name(root), "nodeset");
    if (const pugi::xml_node numa = find_below(
            root, [](pugi::xml_node n) { return is_numa_node(n) && lacks_complete(n, "nodeset"); }))
        refuse(numa, object_name(numa), "nodeset");
}

void check_kept_pus(hwloc_topology_t topology, const std::vector<std::uint32_t>& declared,
                    const std::string& source) {
    // hwloc drops PUs whose cpusets contradict each other (an empty cpuset,
    // one outside its parent's), after a banner on stderr: the declared PUs
    // it has no object for.
    std::vector<std::uint32_t> kept;
    for (hwloc_obj_t pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, nullptr); pu;
         pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, pu))
        kept.push_back(pu->os_index == HWLOC_UNKNOWN_INDEX ? unknown_os_index : pu->os_index);
    if (kept.size() == declared.size()) return;
    std::sort(kept.begin(), kept.end());
    std::vector<std::uint32_t> dropped;
    for (const std::uint32_t os : declared)
        if (!std::binary_search(kept.begin(), kept.end(), os)) dropped.push_back(os);
    std::string which;
    for (std::size_t i = 0; i < dropped.size() && i < 8; ++i)
        which += fmt::format("{}{}", i ? ", P#" : ", dropping P#",
                             dropped[i] == unknown_os_index ? std::string("?")
                                                            : std::to_string(dropped[i]));
    if (dropped.size() > 8) which += fmt::format(" and {} more", dropped.size() - 8);
    throw InputError(source, 0,
                     fmt::format("hwloc kept {} of the {} PUs of this export{}: its cpusets "
                                 "are inconsistent (not merely restricted to a job's PUs)",
                                 kept.size(), declared.size(), which));
}

InputError hwloc_refusal(std::string_view buffer, const std::string& source) {
    pugi::xml_document doc;
    if (doc.load_buffer(buffer.data(), buffer.size()))
        for (pugi::xml_node d : doc.document_element().children()) {
            const std::string_view tag = d.name();
            if (tag != "distances2" && tag != "distances2hetero") continue;
            if (const std::string problem = matrix_problem(d); !problem.empty())
                return InputError(source, line_of(buffer, d),
                                  fmt::format("hwloc cannot load this XML export: its matrix "
                                              "<{} name=\"{}\"> {}",
                                              tag, d.attribute("name").value(), problem));
        }
    return InputError(source, 0, "hwloc cannot load this XML export");
}

void check_hostname(std::string_view hostname, std::string_view buffer, const std::string& source) {
    const std::string problem = name_problem(hostname);
    if (problem.empty()) return;
    // hwloc writes the HostName info once, on the root object.
    const std::size_t at = buffer.find("\"HostName\"");
    const std::size_t line =
        at == std::string_view::npos
            ? 0
            : 1 + static_cast<std::size_t>(std::count(buffer.begin(), buffer.begin() + at, '\n'));
    throw InputError(source, line, fmt::format("HostName '{}' {}", shown_name(hostname), problem));
}

} // namespace nettopo::detail
