// Per-host hwloc exports of a cluster: full exports and topology diffs.
//
// Every file is read and parsed with pugixml here, in the calling thread
// (malformed XML with its line, the kind of document, a diff's refname, the
// PUs an export declares, what hwloc is known to crash on); all hwloc work
// (loading an export, loading and applying a diff, converting) runs as one
// parse per file: in the calling thread, or in the caller's sandbox.
//
// hwloc 1.x diffs: the diffs netloc's gatherer wrote (avakas) come from hwloc
// 1.x, whose depths differ from hwloc 2's: NUMA nodes were a level of the main
// tree (depth 1 on avakas, hwloc 2: HWLOC_TYPE_DEPTH_NUMANODE), and the
// virtual depths of I/O objects were -3 bridges, -4 PCI devices, -5 OS
// devices (hwloc 2: -4, -5, -6). hwloc 2.9 applies their depths as they are
// and fails (hwloc-patch too, on every avakas diff). A diff marked as hwloc
// 1.x (DOCTYPE "hwloc.dtd") against an hwloc 1.x export has its depths
// translated to hwloc 2's before hwloc applies it: each hwloc 1.x level is
// read from the reference's XML, and a depth is translated only when the
// level's type is found at exactly one hwloc 2 depth holding as many objects
// (indexes are kept). hwloc still checks every change's old value against
// the object it lands on, so a wrong translation fails instead of changing
// the wrong object.
#include "nettopo/hwloc/host_exports.hpp"

#include "hwloc/hwloc_buffer.hpp"
#include "hwloc/hwloc_convert.hpp"
#include "hwloc/hwloc_xml_check.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <hwloc.h>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace nettopo {

namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// hwloc 1.x levels of a reference export.

struct V1Level {
    std::optional<hwloc_obj_type_t> type; // hwloc 2 type; none if unknown or mixed
    std::uint32_t count = 0;
    bool unique = false; // the only hwloc 1.x level of its type
};

struct V1Layout {
    std::vector<V1Level> levels; // by hwloc 1.x depth
    std::uint32_t bridges = 0, pci_devices = 0, os_devices = 0;
    bool misc = false; // Misc objects may have been levels in hwloc 1.x: no guess
};

bool is_io(std::string_view type) {
    return type == "Bridge" || type == "PCIDev" || type == "OSDev";
}

std::optional<hwloc_obj_type_t> v2_type(pugi::xml_node object) {
    const std::string_view t = object.attribute("type").value();
    if (t == "Machine") return HWLOC_OBJ_MACHINE;
    if (t == "NUMANode") return HWLOC_OBJ_NUMANODE;
    if (t == "Socket" || t == "Package") return HWLOC_OBJ_PACKAGE;
    if (t == "Group") return HWLOC_OBJ_GROUP;
    if (t == "Core") return HWLOC_OBJ_CORE;
    if (t == "PU") return HWLOC_OBJ_PU;
    if (t == "Cache") {
        const unsigned depth = object.attribute("depth").as_uint();
        const bool instruction = object.attribute("cache_type").as_uint() == 2;
        static constexpr hwloc_obj_type_t data[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                                    HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE,
                                                    HWLOC_OBJ_L5CACHE};
        static constexpr hwloc_obj_type_t code[] = {HWLOC_OBJ_L1ICACHE, HWLOC_OBJ_L2ICACHE,
                                                    HWLOC_OBJ_L3ICACHE};
        if (instruction && depth >= 1 && depth <= 3) return code[depth - 1];
        if (!instruction && depth >= 1 && depth <= 5) return data[depth - 1];
    }
    return std::nullopt;
}

// Runs on any file, before hwloc has checked it: bounded like every other tree walk.
void count_io(pugi::xml_node object, V1Layout& out, std::size_t depth = 0) {
    const std::string_view t = object.attribute("type").value();
    if (t == "Bridge") ++out.bridges;
    if (t == "PCIDev") ++out.pci_devices;
    if (t == "OSDev") ++out.os_devices;
    if (depth >= max_tree_depth) return;
    for (pugi::xml_node c : object.children("object")) count_io(c, out, depth + 1);
}

void walk_v1(pugi::xml_node object, std::size_t depth, V1Layout& out) {
    const std::string_view t = object.attribute("type").value();
    if (is_io(t)) return count_io(object, out);
    if (t == "Misc") {
        out.misc = true;
        return;
    }
    if (depth >= max_tree_depth) return; // hwloc refuses such a tree anyway
    if (depth >= out.levels.size()) out.levels.resize(depth + 1);
    V1Level& level = out.levels[depth];
    const auto type = v2_type(object);
    if (level.count == 0)
        level.type = type;
    else if (level.type != type)
        level.type.reset();
    ++level.count;
    for (pugi::xml_node c : object.children("object")) walk_v1(c, depth + 1, out);
}

V1Layout v1_layout(const pugi::xml_document& doc) {
    V1Layout out;
    for (pugi::xml_node root : doc.document_element().children("object")) walk_v1(root, 0, out);
    for (V1Level& level : out.levels)
        level.unique = level.type && std::count_if(out.levels.begin(), out.levels.end(),
                                                   [&](const V1Level& other) {
                                                       return other.type == level.type;
                                                   }) == 1;
    return out;
}

// The hwloc 2 depth of an hwloc 1.x depth in the loaded `topo`, or none.
std::optional<int> v2_depth(hwloc_topology_t topo, int depth, const V1Layout& v1) {
    const auto holding = [&](int d, std::uint32_t count) -> std::optional<int> {
        if (hwloc_get_nbobjs_by_depth(topo, d) != count) return std::nullopt;
        return d;
    };
    switch (depth) {
    case -3:
        return holding(HWLOC_TYPE_DEPTH_BRIDGE, v1.bridges);
    case -4:
        return holding(HWLOC_TYPE_DEPTH_PCI_DEVICE, v1.pci_devices);
    case -5:
        return holding(HWLOC_TYPE_DEPTH_OS_DEVICE, v1.os_devices);
    case 0:
        return 0; // the root in both
    default:
        break;
    }
    if (depth < 0 || v1.misc || static_cast<std::size_t>(depth) >= v1.levels.size())
        return std::nullopt;
    const V1Level& level = v1.levels[static_cast<std::size_t>(depth)];
    if (!level.unique) return std::nullopt;
    const int d = hwloc_get_type_depth(topo, *level.type);
    if (d == HWLOC_TYPE_DEPTH_UNKNOWN || d == HWLOC_TYPE_DEPTH_MULTIPLE) return std::nullopt;
    return holding(d, level.count);
}

void translate_v1_depths(hwloc_topology_t topo, hwloc_topology_diff_t diff, const V1Layout& v1) {
    for (; diff; diff = diff->generic.next) {
        if (diff->generic.type != HWLOC_TOPOLOGY_DIFF_OBJ_ATTR) continue;
        if (const auto d = v2_depth(topo, diff->obj_attr.obj_depth, v1))
            diff->obj_attr.obj_depth = *d;
    }
}

// ---------------------------------------------------------------------------
// The files, read and parsed once each (a reference serves many diffs).

struct XmlFile {
    std::string path;
    std::string buffer;
    std::string converted; // what hwloc reads instead of `buffer` (converted_for_hwloc), if any
    bool diff = false;
    std::vector<std::uint32_t> declared_pus; // an export's PU objects (their OS indexes)
    std::optional<V1Layout> v1_layout;       // an hwloc 1.x export's levels
    std::string refname;                     // a diff's
    bool v1_diff = false;                    // a diff written by hwloc 1.x
    // The text hwloc reads (NUL-terminated, as hwloc wants it).
    const std::string& hwloc_text() const { return converted.empty() ? buffer : converted; }
};

std::unique_ptr<XmlFile> parse_file(const std::string& path) {
    auto file = std::make_unique<XmlFile>();
    file->path = path;
    file->buffer = read_all(path);
    pugi::xml_document doc;
    detail::parse_xml(doc, file->buffer, path);
    const pugi::xml_node root = doc.document_element();
    const std::string_view name = root.name();
    if (name == "topology") {
        file->converted = detail::converted_for_hwloc(doc, file->buffer, path);
        detail::check_export_before_hwloc(doc, file->buffer, path);
        file->declared_pus = detail::declared_pus(doc);
        // hwloc 2 exports say version="2.0", hwloc 3 ones "3.0"; hwloc 1.x
        // ones have no version.
        if (detail::hwloc_xml_version(root).major < 2) file->v1_layout = v1_layout(doc);
    } else if (name == "topologydiff") {
        file->diff = true;
        file->refname = root.attribute("refname").value();
        // hwloc 1.x writes <!DOCTYPE topologydiff SYSTEM "hwloc.dtd">, hwloc 2
        // "hwloc2-diff.dtd".
        const std::string_view text = file->buffer;
        file->v1_diff = text.substr(0, text.find("<topologydiff")).find("\"hwloc.dtd\"") !=
                        std::string_view::npos;
    } else {
        throw InputError(path, 0,
                         fmt::format("unrecognised XML document <{}>: expected an hwloc export "
                                     "<topology> or an hwloc topology diff <topologydiff>",
                                     name));
    }
    return file;
}

// The files diffs refer to, read once each and kept while any diff may need
// them. Other exports are read, loaded and dropped: holding every buffer
// would grow the process with the cluster (and make each fork of a sandbox
// slower).
class Files {
public:
    const XmlFile& get(const std::string& path) {
        std::unique_ptr<XmlFile>& slot = files_[key(path)];
        if (!slot) slot = parse_file(path);
        return *slot;
    }
    const XmlFile* find(const std::string& path) const {
        const auto it = files_.find(key(path));
        return it == files_.end() ? nullptr : it->second.get();
    }

private:
    static std::string key(const std::string& path) {
        return fs::path(path).lexically_normal().string();
    }
    std::unordered_map<std::string, std::unique_ptr<XmlFile>> files_;
};

// ---------------------------------------------------------------------------
// Loading: hwloc's work in one parse per file.

HwlocMachine load_export(const XmlFile& file, const HwlocSandbox* sandbox, PuScope scope) {
    return detail::load_checked_hwloc_xml(file.hwloc_text(), file.path, sandbox, scope,
                                          file.declared_pus);
}

struct DiffDeleter {
    void operator()(hwloc_topology_diff_u* d) const { hwloc_topology_diff_destroy(d); }
};

// The diff is applied to the whole reference (its objects' depths and
// indexes are the whole machine's); the allowed part is taken afterwards.
HwlocMachine apply_diff(const XmlFile& diff, const XmlFile& ref, const HwlocSandbox* sandbox,
                        PuScope scope) {
    HwlocMachine m = detail::run_hwloc(sandbox, diff.path, [&] {
        detail::Topology topo = detail::make_topology();
        // Diffs change I/O objects too (addresses, GUIDs of OS devices): keep
        // them for the diff to find; the tree leaves them out anyway.
        hwloc_topology_set_io_types_filter(topo.get(), HWLOC_TYPE_FILTER_KEEP_ALL);
        if (hwloc_topology_set_xmlbuffer(topo.get(), ref.hwloc_text().c_str(),
                                         static_cast<int>(ref.hwloc_text().size() + 1)) != 0 ||
            hwloc_topology_load(topo.get()) != 0)
            throw InputError(ref.path, 0, "hwloc cannot load this XML export");
        // The PUs come from the reference: a diff changes attributes only.
        detail::check_kept_pus(topo.get(), ref.declared_pus, ref.path);
        hwloc_topology_diff_t raw = nullptr;
        char* refname = nullptr;
        const int loaded = hwloc_topology_diff_load_xmlbuffer(
            diff.buffer.c_str(), static_cast<int>(diff.buffer.size() + 1), &raw, &refname);
        std::free(refname);
        const std::unique_ptr<hwloc_topology_diff_u, DiffDeleter> changes(raw);
        if (loaded != 0) throw InputError(diff.path, 0, "hwloc cannot load this topology diff");
        if (diff.v1_diff && ref.v1_layout) translate_v1_depths(topo.get(), raw, *ref.v1_layout);
        if (const int applied = hwloc_topology_diff_apply(topo.get(), raw, 0); applied < 0) {
            int total = 0;
            for (hwloc_topology_diff_t d = raw; d; d = d->generic.next) ++total;
            throw InputError(
                diff.path, 0,
                fmt::format("cannot be applied to its reference {}: hwloc rejects change {} of {} "
                            "(the reference has no such object, or not the old value the change "
                            "expects){}",
                            ref.path, -applied, total,
                            diff.v1_diff && !ref.v1_layout
                                ? "; this diff is hwloc 1.x's and its reference an hwloc 2 "
                                  "export, whose depths differ"
                                : ""));
        }
        try {
            return detail::machine_of(topo.get(), scope);
        } catch (const InputError& e) {
            throw InputError(diff.path, 0, e.what());
        }
    });
    return m;
}

HwlocMachine load_diff(const XmlFile& diff, Files& files, const HwlocSandbox* sandbox,
                       PuScope scope) {
    if (diff.refname.empty())
        throw InputError(diff.path, 0,
                         "this topology diff has no refname: its reference host is unknown");
    const std::string ref_path = (fs::path(diff.path).parent_path() / diff.refname).string();
    std::error_code ec;
    if (!fs::is_regular_file(ref_path, ec))
        throw InputError(diff.path, 0,
                         fmt::format("its reference {} is missing: a topology diff needs its "
                                     "reference host's full export beside it",
                                     ref_path));
    const XmlFile& ref = files.get(ref_path);
    if (ref.diff)
        throw InputError(diff.path, 0,
                         fmt::format("its reference {} is itself a topology diff, not a full "
                                     "hwloc export",
                                     ref_path));
    return apply_diff(diff, ref, sandbox, scope);
}

// ---------------------------------------------------------------------------

// "dir/node003.diff.xml" -> "node003", "dir/node001.xml" -> "node001".
std::string host_stem(const std::string& path) {
    const std::string_view name = file_name(path);
    for (std::string_view suffix : {".diff.xml", ".xml"})
        if (name.ends_with(suffix) && name.size() > suffix.size())
            return std::string(name.substr(0, name.size() - suffix.size()));
    return file_stem(name);
}

// Files as given, directories replaced by their *.xml (as the shell's glob:
// hidden files left out), sorted by name.
std::vector<std::string> list_files(const std::vector<std::string>& paths) {
    std::vector<std::string> files;
    for (const std::string& path : paths) {
        std::error_code ec;
        if (!fs::is_directory(path, ec)) {
            files.push_back(path);
            continue;
        }
        std::vector<std::string> inside;
        fs::directory_iterator it(path, ec);
        for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
            const std::string name = it->path().filename().string();
            std::error_code file_ec;
            if (name.ends_with(".xml") && !name.starts_with('.') && it->is_regular_file(file_ec))
                inside.push_back(it->path().string());
        }
        if (ec)
            throw InputError(path, 0, fmt::format("cannot list this directory: {}", ec.message()));
        if (inside.empty()) throw InputError(path, 0, "no .xml file in this directory");
        std::sort(inside.begin(), inside.end());
        files.insert(files.end(), inside.begin(), inside.end());
    }
    return files;
}

// What a file's stem must look like to name a host: letters, digits, '-',
// '_' and '.', starting with a letter or digit (RFC 1123 and the '_' sites use).
bool is_host_name(std::string_view s) {
    const auto alnum = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    if (s.empty() || s.size() > 253 || !alnum(s.front())) return false;
    return std::all_of(s.begin(), s.end(),
                       [&](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

// Names every host by `naming`; throws InputError naming both files when two
// hosts end with one name.
void name_hosts(std::vector<HostExport>& hosts, HostNaming naming) {
    for (HostExport& h : hosts) {
        h.name = naming == HostNaming::file_name || h.export_hostname.empty() ? host_stem(h.source)
                                                                              : h.export_hostname;
        if (const std::string problem = name_problem(h.name); !problem.empty())
            throw InputError(
                h.source, 0,
                fmt::format("host name '{}' (from the file name) {}", shown_name(h.name), problem));
    }
    const auto twice = [](const HostExport& here, const HostExport& first, std::string_view why) {
        return InputError(here.source, 0,
                          fmt::format("host '{}' is described twice: here and in {}{}", here.name,
                                      first.source, why));
    };
    // Exports that claim one HostName (in the order of the files): named
    // after their files when those tell the hosts apart.
    if (naming == HostNaming::automatic) {
        std::unordered_map<std::string_view, std::vector<std::size_t>> claims;
        for (std::size_t i = 0; i < hosts.size(); ++i)
            if (!hosts[i].export_hostname.empty()) claims[hosts[i].export_hostname].push_back(i);
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            const auto it = claims.find(hosts[i].export_hostname);
            if (it == claims.end() || it->second.size() < 2 || it->second.front() != i) continue;
            const std::vector<std::size_t>& claimants = it->second;
            std::unordered_map<std::string, std::size_t> by_stem;
            for (const std::size_t k : claimants) {
                const std::string stem = host_stem(hosts[k].source);
                if (!is_host_name(stem))
                    throw twice(hosts[k], hosts[claimants[k == claimants[0] ? 1 : 0]],
                                fmt::format(" (both exports give it as their HostName, and the "
                                            "file name '{}' is no host name)",
                                            stem));
                if (const auto [at, fresh] = by_stem.try_emplace(stem, k); !fresh)
                    throw twice(hosts[k], hosts[at->second],
                                fmt::format(" (both exports give it as their HostName, and "
                                            "both file names name '{}')",
                                            stem));
            }
            for (const auto& [stem, k] : by_stem) {
                hosts[k].name = stem;
                hosts[k].renamed = true;
            }
        }
    }
    std::unordered_map<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < hosts.size(); ++i)
        if (const auto [it, fresh] = by_name.try_emplace(hosts[i].name, i); !fresh)
            throw twice(hosts[i], hosts[it->second], "");
}

// hwloc loads its plugins (libxml2, PCI, OpenCL, GL: about twenty shared
// libraries) at the first hwloc_topology_init of a process and unloads them at
// the last destroy. A topology initialised here, never loaded, keeps them
// loaded from one file to the next (and a sandbox's forked children inherit
// them) instead of loading them again for each file (about 3 ms).
class KeepHwlocPlugins {
public:
    KeepHwlocPlugins() {
        hwloc_topology_t t = nullptr;
        if (hwloc_topology_init(&t) == 0) topology_.reset(t);
    }

private:
    detail::Topology topology_;
};

} // namespace

std::vector<HostExport> load_host_exports(const std::vector<std::string>& paths,
                                          const HwlocSandbox* sandbox,
                                          const HostExportOptions& options) {
    const std::vector<std::string> files = list_files(paths);
    const KeepHwlocPlugins plugins;
    Files references;
    std::vector<HostExport> hosts;
    hosts.reserve(files.size());
    for (const std::string& path : files) {
        try {
            std::unique_ptr<XmlFile> own; // unless a diff already made it a reference
            const XmlFile* found = references.find(path);
            if (!found) own = parse_file(path);
            const XmlFile& file = found ? *found : *own;
            HwlocMachine m = file.diff ? load_diff(file, references, sandbox, options.pu_scope)
                                       : load_export(file, sandbox, options.pu_scope);
            detail::check_hostname(m.hostname, file.buffer, path);
            hosts.push_back(HostExport{{},
                                       std::move(m.tree),
                                       path,
                                       std::move(m.hostname),
                                       std::move(m.allowed),
                                       false,
                                       std::move(m.identities)});
        } catch (const InputError& e) {
            // One truncated export must not stop a whole cluster's assembly.
            if (!options.unreadable) throw;
            options.unreadable->emplace_back(host_stem(path), e.what());
        }
    }
    name_hosts(hosts, options.naming);
    return hosts;
}

} // namespace nettopo
