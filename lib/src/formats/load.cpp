#include "nettopo/formats/load.hpp"

#include "formats/readers.hpp"
#include "hwloc/hwloc_buffer.hpp"
#include "hwloc/hwloc_xml_check.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <pugixml.hpp>
#include <sstream>
#include <vector>

namespace nettopo {

namespace {

// Name of the root element, skipping the XML declaration, comments and a
// DOCTYPE; empty when the text does not start like XML.
std::string_view xml_root_name(std::string_view s) {
    std::size_t i = 0;
    if (s.starts_with("\xEF\xBB\xBF")) i = 3;
    for (;;) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i >= s.size() || s[i] != '<') return {};
        if (s.compare(i, 4, "<!--") == 0) {
            const auto end = s.find("-->", i);
            if (end == std::string_view::npos) return {};
            i = end + 3;
        } else if (s.compare(i, 2, "<?") == 0 || s.compare(i, 2, "<!") == 0) {
            const auto end = s.find('>', i);
            if (end == std::string_view::npos) return {};
            i = end + 1;
        } else {
            std::size_t j = i + 1;
            while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])) && s[j] != '>' &&
                   s[j] != '/')
                ++j;
            return s.substr(i + 1, j - i - 1);
        }
    }
}

// The value of attribute `name` in the start tag that begins at `tag`, or "".
std::string_view attribute(std::string_view tag, std::string_view name) {
    tag = tag.substr(0, tag.find('>'));
    for (std::size_t at = tag.find(name); at != std::string_view::npos;
         at = tag.find(name, at + 1)) {
        std::size_t i = at + name.size();
        while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
        if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1])) || i >= tag.size() ||
            tag[i] != '=')
            continue;
        ++i;
        while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
        if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) return {};
        const std::size_t end = tag.find(tag[i], i + 1);
        return end == std::string_view::npos ? std::string_view() : tag.substr(i + 1, end - i - 1);
    }
    return {};
}

bool is_number(std::string_view word) {
    return !word.empty() && word.find_first_not_of("0123456789") == std::string_view::npos;
}

// Other programs' files that load_cluster does not read, each with the
// Remedy naming the library's reader of it.
enum class Foreign { none, ibnetdiscover, slurm_conf, slurm_yaml };

// Which of them a file's first statement (its words) begins, if any: an
// ibnetdiscover topology file ("vendid=0x2c9", "Switch 36 \"S-..."), its -p
// port report ("SW 1 36 0x..."), its -s route trace ("DR path ..."); a Slurm
// topology.conf (SwitchName=, BlockName=, BlockSizes=, any case) or
// topology.yaml ("- topology: name").
Foreign foreign_statement(const std::vector<std::string_view>& words) {
    const std::string_view first = words[0];
    const auto word = [&](std::size_t i) { return i < words.size() ? words[i] : ""; };
    // "key=value" in one word (ibnetdiscover), or "key = value" (Slurm).
    const std::size_t equals = first.find('=');
    const std::string_view key = first.substr(0, equals);
    const bool assigns = equals != std::string_view::npos || word(1).starts_with('=');
    if (first == "DR" && word(1) == "path") return Foreign::ibnetdiscover;
    if (equals != std::string_view::npos && first.substr(equals + 1).starts_with("0x"))
        for (const char* k : {"vendid", "devid", "sysimgguid", "switchguid", "caguid", "rtguid"})
            if (key == k) return Foreign::ibnetdiscover;
    if ((first == "Switch" || first == "Ca" || first == "Rt") && is_number(word(1)) &&
        (word(2).starts_with("\"S-") || word(2).starts_with("\"H-") || word(2).starts_with("\"R-")))
        return Foreign::ibnetdiscover;
    if ((first == "SW" || first == "CA" || first == "RT") && is_number(word(1)) &&
        is_number(word(2)) && word(3).starts_with("0x"))
        return Foreign::ibnetdiscover;
    if (assigns)
        for (const char* k : {"SwitchName", "BlockName", "BlockSizes"})
            if (iequals(key, k)) return Foreign::slurm_conf;
    if ((first == "-" ? word(1) : first) == "topology:") return Foreign::slurm_yaml;
    return Foreign::none;
}

// Refuses `text` when it is another program's file rather than a
// description, recognised by its first statement (the first line with
// something but a '#' comment, as the description reads it) when that
// statement cannot begin a description. Lines such files may begin with that
// say nothing yet (YAML's "---" and directives, ibnetdiscover -g's chassis
// headers) are passed over. Only ever turns a description's syntax error into
// a better one: "FILE:LINE: this is an ibnetdiscover dump, not a cluster
// topology".
void refuse_foreign_text(std::string_view text, const std::string& source) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    std::vector<std::string_view> words;
    std::size_t number = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        const std::string_view line = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++number;
        words.clear();
        for_each_token(line.substr(0, line.find('#')),
                       [&](std::string_view w) { words.push_back(w); });
        if (words.empty()) continue;
        const std::string_view first = words[0];
        if (first == "---" || first.starts_with('%') || first == "Chassis" ||
            first == "Hostname:" || (first == "Non-Chassis" && words.size() > 1))
            continue;
        const auto refuse = [&](const char* what, Remedy remedy) {
            throw InputError(source, number,
                             fmt::format("this is {}, not a cluster topology", what), remedy);
        };
        switch (foreign_statement(words)) {
        case Foreign::none:
            return;
        case Foreign::ibnetdiscover:
            refuse("an ibnetdiscover dump", Remedy::read_as_ibnetdiscover);
            return;
        case Foreign::slurm_conf:
            refuse("a Slurm topology.conf", Remedy::read_as_slurm);
            return;
        case Foreign::slurm_yaml:
            refuse("a Slurm topology.yaml", Remedy::read_as_slurm);
            return;
        }
    }
}

InputKind kind_of(std::string_view buffer, const std::string& source) {
    if (looks_like_image(buffer)) return InputKind::Image;
    const std::string_view root = xml_root_name(buffer);
    if (root.empty()) {
        refuse_foreign_text(buffer, source);
        return InputKind::Description;
    }
    if (root == "nettopo") return InputKind::Archive;
    if (root == "topology") return InputKind::HwlocXml;
    if (root == "topologydiff") {
        const std::string_view reference = attribute(
            buffer.substr(static_cast<std::size_t>(root.data() - buffer.data())), "refname");
        throw InputError(
            source, 0,
            fmt::format("this is an hwloc topology diff{}, not a whole export",
                        reference.empty() ? std::string() : fmt::format(" against {}", reference)),
            Remedy::read_as_host_export);
    }
    throw InputError(source, 0,
                     fmt::format("unrecognised XML document <{}>: expected a nettopo "
                                 "archive <nettopo> or an hwloc export <topology>",
                                 root));
}

Cluster one_machine(HwlocMachine m, std::string description, std::string fallback_name,
                    const LoadOptions& options) {
    std::string name = m.hostname.empty() ? std::move(fallback_name) : m.hostname;
    ClusterBuilder b(name);
    const TypeId t =
        b.add_type(MachineType(std::move(description), std::move(m.tree), options.node_level,
                               options.level_latencies.applied_to(LevelLatencies::defaults())));
    b.set_identities(b.add_machine(name, t), std::move(m.identities));
    return std::move(b).build(options.build);
}

} // namespace

const char* to_string(InputKind kind) {
    switch (kind) {
    case InputKind::Archive:
        return "nettopo archive";
    case InputKind::Description:
        return "topology description";
    case InputKind::HwlocXml:
        return "hwloc XML export";
    case InputKind::Image:
        return "nettopo binary image";
    }
    return "?";
}

// The first bytes of a file, enough to tell an image: "" for stdin, what
// cannot be read, and anything but a regular file, since reading a pipe's
// (`-i <(...)`, a FIFO, /dev/stdin) head would take those bytes from the
// reading that follows; an image in a pipe is then refused by its content.
static std::string file_head(const std::string& path, std::size_t bytes = 8) {
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_regular_file(path, ec)) return {};
    std::ifstream in(path, std::ios::binary);
    std::string head(bytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(bytes));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head;
}

InputKind detect_input_kind(const std::string& path) {
    // An image is recognised without reading it whole.
    if (looks_like_image(file_head(path))) return InputKind::Image;
    return kind_of(read_all(path), path);
}

// What lstopo -i takes for a synthetic description rather than a file: a
// word naming no file, with a type:count in it and no directory in it.
static bool names_synthetic(const std::string& path) {
    std::error_code ec;
    return path != "-" && path.find(':') != std::string::npos &&
           path.find('/') == std::string::npos && !std::filesystem::exists(path, ec);
}

Cluster load_cluster(const std::string& path, const LoadOptions& options) {
    if (names_synthetic(path)) {
        MachineTree tree = [&] {
            try {
                return tree_from_synthetic(path, options.hwloc_sandbox);
            } catch (const InputError& e) {
                throw InputError(fmt::format("'{}': no such file, nor an hwloc synthetic "
                                             "description: {}",
                                             path, e.what()));
            }
        }();
        HwlocMachine machine;
        machine.tree = std::move(tree);
        return one_machine(std::move(machine), path, "synthetic", options);
    }
    if (looks_like_image(file_head(path)))
        return read_image(path, options.build.allow_disconnected, ImageIndex::skip,
                          options.level_latencies, options.node_level)
            .cluster;
    const std::string source = path == "-" ? "<stdin>" : path;
    std::string buffer = read_all(path);
    switch (kind_of(buffer, source)) {
    case InputKind::Image:
        throw InputError(source, 0, "a nettopo binary image is read from a file, not a pipe");
    case InputKind::Archive: {
        Cluster c = detail::read_archive_buffer(std::move(buffer), source, options);
        if (options.progress) options.progress->finish();
        return c;
    }
    case InputKind::HwlocXml: {
        // pugixml first: hwloc's parser only says "failed", we want the line.
        pugi::xml_document doc;
        detail::parse_xml(doc, buffer, source);
        const std::string converted = detail::converted_for_hwloc(doc, buffer, source);
        detail::check_export_before_hwloc(doc, buffer, source);
        HwlocMachine machine = detail::load_checked_hwloc_xml(
            converted.empty() ? buffer : converted, source, options.hwloc_sandbox, options.pu_scope,
            detail::declared_pus(doc));
        detail::check_hostname(machine.hostname, buffer, source);
        const std::string stem = file_stem(source);
        // The node level is checked when the type is built (a NUMA
        // locality must be one PU range): the error names the export.
        try {
            return one_machine(std::move(machine), hwloc_type_description(source), stem, options);
        } catch (const InputError& e) {
            if (!e.file().empty()) throw;
            throw InputError(source, 0, e);
        }
    }
    case InputKind::Description: {
        std::istringstream in(buffer);
        Cluster c = read_description(in, source, options);
        if (options.progress) options.progress->finish();
        return c;
    }
    }
    throw Error("unreachable input kind");
}

LoadedTopology load_topology(const std::string& path, const LoadOptions& options) {
    const bool allow = options.build.allow_disconnected;
    if (names_synthetic(path) || path == "-") return {load_cluster(path, options), nullptr, {}, {}};
    if (looks_like_image(file_head(path))) {
        Image image =
            read_image(path, allow, ImageIndex::read, options.level_latencies, options.node_level);
        return {std::move(image.cluster), std::move(image.index), path, {}};
    }
    std::error_code ec;
    const std::string sibling = sibling_image_path(path);
    // Only a nettopo archive has an image beside it (its root element is in its first lines).
    if (sibling == path || !std::filesystem::is_regular_file(sibling, ec) ||
        xml_root_name(file_head(path, 4096)) != "nettopo")
        return {load_cluster(path, options), nullptr, {}, {}};
    const ImageHeader header = read_image_header(sibling);
    if (header.current && header.source && *header.source == file_stamp(path)) {
        Image image = read_image(sibling, allow, ImageIndex::read, options.level_latencies,
                                 options.node_level);
        return {std::move(image.cluster), std::move(image.index), sibling, {}};
    }
    LoadedTopology t{load_cluster(path, options), nullptr, {}, {}};
    if (header.current && header.has_index &&
        header.network_checksum == network_checksum(t.cluster.network())) {
        t.kept_index = read_image_index(sibling, t.cluster, header.network_checksum);
        t.image = sibling;
    } else {
        t.stale_image = sibling;
    }
    return t;
}

Cluster discover_cluster(const LoadOptions& options) {
    return one_machine(discover_this_machine(options.pu_scope), "this machine", "localhost",
                       options);
}

} // namespace nettopo
