// Reader of the nettopo XML archive. Every error names the file and line.
#include "formats/readers.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/detail/huge_pages.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "support/name_runs.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <iterator>
#include <limits>
#include <optional>
#include <pugixml.hpp>

namespace nettopo {

namespace {

class ArchiveReader {
public:
    ArchiveReader(std::string buffer, const std::string& source, const LoadOptions& options)
        : buffer_(std::move(buffer)), source_(source), progress_(options.progress),
          node_level_(options.node_level), level_latencies_(options.level_latencies),
          limits_(options.build.limits) {}

    Cluster read() {
        // pugixml parses the buffer in place (no copy of a 66 MB archive,
        // issue 25), which overwrites some bytes with terminators: where the
        // lines end is noted before, for the messages.
        newlines_.assign(buffer_.size() / 64 + 1, 0);
        for (const char *p = buffer_.data(), *end = p + buffer_.size();
             (p = static_cast<const char*>(
                  std::memchr(p, '\n', static_cast<std::size_t>(end - p))));
             ++p) {
            const auto at = static_cast<std::size_t>(p - buffer_.data());
            newlines_[at / 64] |= std::uint64_t{1} << (at % 64);
        }
        const pugi::xml_parse_result ok =
            doc_.load_buffer_inplace(buffer_.data(), buffer_.size(), pugi::parse_default);
        if (!ok)
            throw InputError(source_, line_at(static_cast<std::size_t>(ok.offset)),
                             fmt::format("malformed XML: {}", ok.description()));
        const pugi::xml_node root = doc_.document_element();
        if (std::string_view(root.name()) != "nettopo")
            fail(root, fmt::format("not a nettopo archive: the root element is <{}>", root.name()));
        const std::uint64_t version = number(root, "version");
        if (version > archive_version)
            fail(root, fmt::format("archive format version {} is newer than this nettopo reads "
                                   "(version {}); upgrade nettopo",
                                   version, archive_version));
        if (version == 0) fail(root, "archive format version must be >= 1");

        const std::string_view name = root.attribute("name").value();
        located(root, [&] { check_name("cluster name", name); });
        ClusterBuilder builder{std::string(name)};
        if (const pugi::xml_attribute family = root.attribute("family")) {
            try {
                builder.set_family(family_from_spec(family.value())->spec());
            } catch (const UsageError& e) {
                fail(root, fmt::format("family=\"{}\": {}", family.value(), e.what()));
            }
        }
        builder.set_limits(limits_);
        check_declared_sizes(root, builder);
        read_types(child(root, "types"), builder, version);
        read_machines(child(root, "machines"), builder, version);
        read_switches(child(root, "switches"), builder);
        read_links(child(root, "links"), builder, version);
        Cluster cluster = build(std::move(builder));
        if (const pugi::xml_node ids = root.child("identities")) {
            if (version < 4) fail(ids, "<identities> needs archive format version 4");
            read_identities(ids, cluster);
        }
        if (const pugi::xml_node cables = root.child("attachments")) {
            if (version < 5) fail(cables, "<attachments> needs archive format version 5");
            read_attachments(cables, cluster);
        }
        return cluster;
    }

private:
    Cluster build(ClusterBuilder&& builder) const {
        try {
            // Whatever was accepted when the archive was written is loaded
            // back; connectivity is a check of assembly, not of reading.
            return std::move(builder).build(
                BuildOptions{.allow_disconnected = true, .limits = limits_});
        } catch (const DuplicateLinkError& e) {
            auto vertex = [&](const DuplicateLinkError::End& end) {
                return end.is_switch ? num_machines_ + end.index : std::uint64_t{end.index};
            };
            throw InputError(source_, line_of_link(e.later()),
                             fmt::format("duplicate link between vertices {} and {}", vertex(e.a()),
                                         vertex(e.b())));
        } catch (const DuplicateNameError& e) {
            const auto& where = e.later().is_switch ? switch_elements_ : machine_elements_;
            const auto it =
                std::upper_bound(where.begin(), where.end(), e.later().index,
                                 [](std::uint64_t i, const Declared& d) { return i < d.first; });
            fail((it - 1)->element, e.what());
        } catch (const InputError& e) {
            throw InputError(source_, 0, e);
        }
    }

    // <identities>: per machine by name, each identity naming its device.
    void read_identities(pugi::xml_node list, Cluster& cluster) const {
        std::vector<std::vector<DeviceIdentity>> by_machine(cluster.num_machines());
        for (pugi::xml_node e : list.children()) {
            if (std::string_view(e.name()) != "machine")
                fail(e, fmt::format("unexpected <{}> inside <identities>", e.name()));
            const std::string_view name = text(e, "name");
            const std::optional<MachineId> m = cluster.find_machine(name);
            if (!m)
                fail(e, fmt::format("identities of machine '{}', which the archive lacks",
                                    shown_name(name)));
            if (!by_machine[m->value].empty())
                fail(e, fmt::format("a second <machine name=\"{}\"> in <identities>",
                                    shown_name(name)));
            const MachineTree& tree = cluster.type(cluster.type_of(*m)).tree();
            for (pugi::xml_node i : e.children()) {
                if (std::string_view(i.name()) != "identity")
                    fail(i, fmt::format("unexpected <{}> inside <machine>", i.name()));
                const std::string_view device = text(i, "device");
                const std::optional<std::uint32_t> d = tree.find_device(device);
                if (!d || tree.devices()[*d].name != device)
                    fail(i, fmt::format("device=\"{}\": machine '{}' has no such device",
                                        shown_name(device), shown_name(name)));
                DeviceIdentity id{*d, text(i, "view"), text(i, "name"), text(i, "value")};
                if (const std::string problem = identity_problem(id); !problem.empty())
                    fail(i, fmt::format("the identity {}", problem));
                by_machine[m->value].push_back(std::move(id));
            }
        }
        std::vector<std::uint64_t> offsets(by_machine.size() + 1, 0);
        std::vector<DeviceIdentity> all;
        for (std::size_t m = 0; m < by_machine.size(); ++m) {
            offsets[m + 1] = offsets[m] + by_machine[m].size();
            for (DeviceIdentity& d : by_machine[m]) all.push_back(std::move(d));
        }
        if (!all.empty()) cluster.set_identity_parts(std::move(offsets), std::move(all));
    }

    // <attachments>: per machine by name, each adapter naming the vertex
    // its cable reaches.
    void read_attachments(pugi::xml_node list, Cluster& cluster) const {
        std::vector<std::vector<Attachment>> by_machine(cluster.num_machines());
        for (pugi::xml_node e : list.children()) {
            if (std::string_view(e.name()) != "machine")
                fail(e, fmt::format("unexpected <{}> inside <attachments>", e.name()));
            const std::string_view name = text(e, "name");
            const std::optional<MachineId> m = cluster.find_machine(name);
            if (!m)
                fail(e, fmt::format("attachments of machine '{}', which the archive lacks",
                                    shown_name(name)));
            if (!by_machine[m->value].empty())
                fail(e, fmt::format("a second <machine name=\"{}\"> in <attachments>",
                                    shown_name(name)));
            for (pugi::xml_node i : e.children()) {
                if (std::string_view(i.name()) != "adapter")
                    fail(i, fmt::format("unexpected <{}> inside <machine>", i.name()));
                Attachment a;
                a.device = text(i, "device");
                a.port = static_cast<std::uint32_t>(optional_number(i, "port", 0, 0xffffffffu));
                if (const pugi::xml_attribute g = i.attribute("guid")) {
                    const std::string_view v = g.value();
                    const auto guid = v.starts_with("0x") ? parse_hex(v.substr(2)) : std::nullopt;
                    if (!guid)
                        fail(i, fmt::format("guid=\"{}\" is not a hexadecimal GUID (0x...)",
                                            shown_name(v)));
                    a.guid = *guid;
                }
                const std::string_view to = text(i, "to");
                const std::optional<VertexId> peer = cluster.find_vertex(to);
                if (!peer)
                    fail(i, fmt::format("to=\"{}\": the archive has no such machine or switch",
                                        shown_name(to)));
                a.peer = *peer;
                // The model's checks (set_attachment_parts), with this element's line.
                if (a.device.empty()) fail(i, "device=\"\": an adapter's device name is empty");
                located(i, [&] { check_name("device name", a.device); });
                const auto near = cluster.network().neighbors(cluster.vertex(*m));
                if (std::find(near.begin(), near.end(), a.peer) == near.end())
                    fail(i, fmt::format("to=\"{}\": machine '{}' has no link to it", shown_name(to),
                                        shown_name(name)));
                std::vector<Attachment>& mine = by_machine[m->value];
                if (std::any_of(mine.begin(), mine.end(), [&](const Attachment& b) {
                        return b.device == a.device && b.port == a.port;
                    }))
                    fail(i, fmt::format("adapter {} port {} of machine '{}' a second time",
                                        shown_name(a.device), a.port, shown_name(name)));
                mine.push_back(std::move(a));
            }
        }
        std::vector<std::uint64_t> offsets(by_machine.size() + 1, 0);
        std::vector<Attachment> all;
        for (std::size_t m = 0; m < by_machine.size(); ++m) {
            offsets[m + 1] = offsets[m] + by_machine[m].size();
            for (Attachment& a : by_machine[m]) all.push_back(std::move(a));
        }
        if (all.empty()) return;
        try {
            cluster.set_attachment_parts(std::move(offsets), std::move(all));
        } catch (const ValueError& e) {
            fail(list, e.what());
        }
    }

    // 1 + the newlines before `offset`, as the text was read.
    std::size_t line_at(std::size_t offset) const {
        offset = std::min(offset, buffer_.size());
        std::size_t line = 1;
        for (std::size_t w = 0; w < offset / 64; ++w) line += std::popcount(newlines_[w]);
        if (offset % 64)
            line +=
                std::popcount(newlines_[offset / 64] & ((std::uint64_t{1} << (offset % 64)) - 1));
        return line;
    }
    std::size_t line_of(pugi::xml_node n) const {
        return line_at(static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, n.offset_debug())));
    }
    [[noreturn]] void fail(pugi::xml_node n, const std::string& msg) const {
        throw InputError(source_, line_of(n), msg);
    }
    // Library errors carry no location; give them the element's line.
    template <class F> void located(pugi::xml_node n, F&& f) const {
        try {
            f();
        } catch (const InputError& e) {
            fail(n, e.what());
        }
    }
    pugi::xml_node child(pugi::xml_node n, const char* name) const {
        pugi::xml_node c = n.child(name);
        if (!c) fail(n, fmt::format("<{}> has no <{}> element", n.name(), name));
        return c;
    }
    const char* text(pugi::xml_node n, const char* attr) const {
        pugi::xml_attribute a = n.attribute(attr);
        if (!a) fail(n, fmt::format("<{}> lacks the attribute '{}'", n.name(), attr));
        return a.value();
    }
    std::uint64_t number(pugi::xml_node n, const char* attr, std::uint64_t max = ~0ull) const {
        const char* v = text(n, attr);
        const auto x = parse_uint(v);
        if (!x || *x > max)
            fail(n, fmt::format("attribute {}=\"{}\" of <{}> is not an integer in 0..{}", attr, v,
                                n.name(), max));
        return *x;
    }
    std::uint64_t optional_number(pugi::xml_node n, const char* attr, std::uint64_t fallback,
                                  std::uint64_t max = ~0ull) const {
        return n.attribute(attr) ? number(n, attr, max) : fallback;
    }
    ObjectType object_type(pugi::xml_node n) const {
        const char* v = text(n, "type");
        const auto t = parse_object_type(v);
        if (!t) fail(n, fmt::format("unknown object type '{}'", v));
        return *t;
    }
    // The counts the lists declare bound what they hold (check_count): held
    // to the limits before a single name is expanded. Finding A2 (issue
    // 15): a 719-byte archive declaring a run of 4,294,967,294 switches.
    void check_declared_sizes(pugi::xml_node root, const ClusterBuilder& builder) const {
        const pugi::xml_node machines = child(root, "machines"), switches = child(root, "switches"),
                             links = child(root, "links");
        const std::uint64_t vertices =
            saturating_add(number(machines, "count"), number(switches, "count"));
        try {
            builder.require_room_for_vertices(vertices);
        } catch (const InputError& e) {
            throw InputError(source_, line_of(machines), e);
        }
        try {
            require_within_limit(number(links, "count"), limits_.max_links, "links",
                                 Remedy::raise_link_limit);
        } catch (const InputError& e) {
            throw InputError(source_, line_of(links), e);
        }
    }

    void check_count(pugi::xml_node n, std::uint64_t found) const {
        const std::uint64_t declared = number(n, "count");
        if (declared != found)
            fail(n,
                 fmt::format("<{}> declares count=\"{}\" but holds {}", n.name(), declared, found));
    }

    void read_objects(pugi::xml_node e, MachineTree::Builder& b, ObjectId parent) const {
        const ObjectType type = object_type(e);
        if (is_memory(type)) fail(e, "memory objects are written as <memory>, not <object>");
        ObjectId id;
        try {
            id = b.add(type, parent,
                       static_cast<std::uint32_t>(
                           optional_number(e, "os", unknown_os_index, unknown_os_index)),
                       optional_number(e, "size", 0));
        } catch (const InputError& err) {
            fail(e, err.what());
        }
        if (const pugi::xml_attribute cache = e.attribute("cache")) {
            const std::string_view v = cache.value();
            if (v != "data" && v != "unified")
                fail(e, fmt::format("cache=\"{}\" (expected data or unified)", v));
            if (!is_data_or_unified_cache(type))
                fail(e, fmt::format("cache=\"{}\" on a {} (only L5 to L1 have it)", v,
                                    to_string(type)));
            if (v == "data") b.mark_data_cache(id);
        }
        for (pugi::xml_node c : e.children()) {
            const std::string_view name = c.name();
            if (name == "object") {
                read_objects(c, b, id);
            } else if (name == "memory") {
                const ObjectType mt = object_type(c);
                if (!is_memory(mt)) fail(c, fmt::format("<memory> of type {}", to_string(mt)));
                b.add_memory(mt, id,
                             static_cast<std::uint32_t>(
                                 optional_number(c, "os", unknown_os_index, unknown_os_index)),
                             optional_number(c, "size", 0));
            } else {
                fail(c, fmt::format("unexpected <{}> inside <object>", c.name()));
            }
        }
    }

    void read_types(pugi::xml_node types, ClusterBuilder& builder, std::uint64_t version) {
        std::uint64_t n = 0;
        for (pugi::xml_node t : types.children("type")) {
            if (number(t, "id") != n) fail(t, fmt::format("expected type id=\"{}\"", n));
            NodeLevel request;
            if (std::string_view r = text(t, "node-request"); r != "auto") {
                request.type = parse_object_type(r);
                if (!request.type) fail(t, fmt::format("unknown node-request '{}'", r));
            }
            LevelLatencies lat = LevelLatencies::defaults();
            const pugi::xml_node latencies = child(t, "latencies");
            for (pugi::xml_attribute a : latencies.attributes()) {
                const auto type = parse_object_type(a.name());
                const auto v = parse_double(a.value());
                if (!type || is_memory(*type))
                    fail(latencies, fmt::format("unknown level '{}' in <latencies>", a.name()));
                if (!v || *v < 0)
                    fail(latencies, fmt::format("bad latency {}=\"{}\"", a.name(), a.value()));
                lat[*type] = *v;
            }
            // What a <type> may hold: a later version's element is refused,
            // not dropped.
            for (pugi::xml_node c : t.children()) {
                const std::string_view name = c.name();
                if (c.type() == pugi::node_element && name != "latencies" &&
                    name != "numa-distances" && name != "cpu-kinds" && name != "io" &&
                    name != "object")
                    fail(c, fmt::format("unexpected <{}> inside <type>", name));
            }
            // The caller's latencies win over the archive's, as over a
            // description's lat. options.
            lat = level_latencies_.applied_to(lat);
            MachineTree::Builder b;
            const pugi::xml_node root = child(t, "object");
            read_objects(root, b, ObjectId());
            if (const pugi::xml_node nd = t.child("numa-distances"))
                b.set_numa_distances(numa_distances(nd, version));
            if (const pugi::xml_node kinds = t.child("cpu-kinds"))
                read_cpu_kinds(kinds, b, version);
            if (const pugi::xml_node io = t.child("io")) read_io(io, root, version, b);
            MachineTree tree;
            try {
                tree = std::move(b).finish();
            } catch (const InputError& err) {
                fail(root, err.what());
            }
            // The format's rule (archive-format.md): PUs are the leaves,
            // every other object has a PU below it but a Group holding only
            // memory (hwloc's CPU-less Group above a CPU-less NUMA node). An
            // object with no PU would get a PE range that wraps (finding A1).
            for (const TreeObject& o : tree.objects())
                if (o.type != ObjectType::PU && o.type != ObjectType::Group && o.pu_count == 0)
                    fail(root, fmt::format("a {} of type {} has no PU below it (every object "
                                           "but a PU, or a Group holding only memory, has one)",
                                           to_string(o.type), n));
            // Building the type checks its node level (a NUMA locality must
            // be one PU range): an error there names this <type> too.
            std::optional<MachineType> type;
            located(t,
                    [&] { type.emplace(text(t, "description"), std::move(tree), request, lat); });
            if (std::string_view level = text(t, "node-level");
                level != to_string(type->node_type()))
                fail(t, fmt::format("node-level=\"{}\" does not match the tree and node-request "
                                    "(which give {})",
                                    level, to_string(type->node_type())));
            // A node level asked for on the command line applies where the
            // archive's was automatic, as it would for a description.
            if (!request.type && node_level_.type)
                located(t, [&] {
                    type = MachineType(type->description(), type->tree(), node_level_, lat);
                });
            located(t, [&] { type_ids_.push_back(builder.add_type(std::move(*type))); });
            ++n;
        }
        check_count(types, n);
        num_types_ = n;
    }

    // Expands <single name=.../> and <plural prefix first count width/> elements.
    // Where each element's declarations start, to point a duplicate name
    // found by the builder back at the element that repeats it.
    struct Declared {
        std::uint64_t first;
        pugi::xml_node element;
    };

    // add(e, name) adds one name, add_run(e, prefix, first, count, width) a run.
    template <class F, class G>
    std::uint64_t read_names(pugi::xml_node list, const char* single, const char* plural, F add,
                             G add_run, std::vector<Declared>& where) {
        std::uint64_t total = 0;
        for (pugi::xml_node e : list.children()) {
            where.push_back({total, e});
            if (std::string_view(e.name()) == single) {
                add(e, std::string_view(text(e, "name")));
                ++total;
            } else if (std::string_view(e.name()) == plural) {
                detail::NameRun r;
                r.numbered = true;
                r.prefix = text(e, "prefix");
                r.first_number = number(e, "first");
                const std::uint64_t count = number(e, "count", max_id_count - 1);
                // Check the run against its parent's total before expanding it.
                if (total + count > number(list, "count"))
                    fail(e, fmt::format("this run of {} names exceeds <{}> count=\"{}\"", count,
                                        list.name(), number(list, "count")));
                r.width = static_cast<int>(number(e, "width", 18));
                if (count > 0) add_run(e, r.prefix, r.first_number, count, r.width);
                total += count;
            } else {
                fail(e, fmt::format("unexpected <{}> in <{}>", e.name(), list.name()));
            }
        }
        check_count(list, total);
        return total;
    }

    // forwards="yes|no" (version 3; absent: yes). An older version cannot
    // hold it: an archive that says version 2 is read by nettopos that would
    // take its end hosts for routers.
    // <io> (version 4): PCI objects and devices; references are checked
    // here, where the line is known.
    void read_io(pugi::xml_node io, pugi::xml_node root, std::uint64_t version,
                 MachineTree::Builder& b) const {
        if (version < 4)
            fail(io, fmt::format("<io> needs archive format version 4 (this archive says "
                                 "version {})",
                                 version));
        // The CPU-side objects, which localities index in pre-order.
        std::uint64_t objects = 0;
        std::vector<pugi::xml_node> stack{root};
        while (!stack.empty()) {
            const pugi::xml_node o = stack.back();
            stack.pop_back();
            ++objects;
            for (pugi::xml_node c : o.children("object")) stack.push_back(c);
        }
        std::uint64_t pci = 0;
        std::vector<std::string> names;
        for (pugi::xml_node e : io.children()) {
            const std::string_view tag = e.name();
            if (tag == "interconnect") {
                b.add_interconnect(interconnect(e, names, pci, objects));
                continue;
            }
            const std::uint64_t locality = number(e, "locality", objects - 1);
            if (tag == "pci") {
                const std::string_view kind = text(e, "kind");
                PciObject p{kind == "host-bridge" ? PciKind::HostBridge
                            : kind == "bridge"    ? PciKind::Bridge
                                                  : PciKind::Device,
                            static_cast<std::uint32_t>(
                                optional_number(e, "parent", no_pci, pci == 0 ? 0 : pci - 1)),
                            ObjectId(static_cast<std::uint32_t>(locality))};
                if (kind != "host-bridge" && kind != "bridge" && kind != "device")
                    fail(e, fmt::format("unknown PCI kind '{}' (expected host-bridge, bridge or "
                                        "device)",
                                        kind));
                if (e.attribute("parent") && pci == 0)
                    fail(e, "the first PCI object cannot have a parent");
                read_pci_address(e, p);
                b.add_pci(p);
                ++pci;
            } else if (tag == "device") {
                const auto kind = device_kind_from(text(e, "kind"));
                if (!kind)
                    fail(e, fmt::format("unknown device kind '{}' (expected gpu, nic, storage or "
                                        "other)",
                                        text(e, "kind")));
                IoDevice d{*kind,
                           text(e, "name"),
                           {},
                           static_cast<std::uint32_t>(
                               optional_number(e, "pci", no_pci, pci == 0 ? no_pci : pci - 1)),
                           ObjectId(static_cast<std::uint32_t>(locality)),
                           e.attribute("vendor").value(),
                           e.attribute("model").value(),
                           e.attribute("subtype").value()};
                if (e.attribute("pci") && pci == 0) fail(e, "pci= names no PCI object");
                if (d.name.empty()) fail(e, "a device needs a name");
                if (std::find(names.begin(), names.end(), d.name) != names.end())
                    fail(e, fmt::format("a second device called '{}'", d.name));
                names.push_back(d.name);
                for (pugi::xml_node n : e.children("name")) d.names.emplace_back(n.child_value());
                b.add_device(std::move(d));
            } else {
                fail(e, fmt::format("unexpected <{}> inside <io>", e.name()));
            }
        }
    }

    // busid="DDDD:BB:DD.F" and id="VVVV:DDDD:CCCC" (hex), as written.
    void read_pci_address(pugi::xml_node e, PciObject& p) const {
        unsigned domain = 0, bus = 0, dev = 0, func = 0, vendor = 0, device = 0;
        char tail = 0;
        const char* busid = text(e, "busid");
        if (std::sscanf(busid, "%x:%x:%x.%x%c", &domain, &bus, &dev, &func, &tail) != 4 ||
            bus > 0xff || dev > 0x1f || func > 7)
            fail(e, fmt::format("bad busid \"{}\" (expected DDDD:BB:DD.F)", busid));
        p.domain = domain;
        p.bus = static_cast<std::uint8_t>(bus);
        p.dev = static_cast<std::uint8_t>(dev);
        p.func = static_cast<std::uint8_t>(func);
        if (p.kind == PciKind::HostBridge) return;
        const char* id = text(e, "id");
        if (std::sscanf(id, "%x:%x%c", &vendor, &device, &tail) != 2 || vendor > 0xffff ||
            device > 0xffff)
            fail(e, fmt::format("bad id \"{}\" (expected VENDOR:DEVICE in hex)", id));
        p.vendor_id = static_cast<std::uint16_t>(vendor);
        p.device_id = static_cast<std::uint16_t>(device);
    }

    // <interconnect kind="NVLinkBandwidth" link-mbps="25000"> with one
    // <endpoint device="gpu0"/> (or pci="I", object="I") per row, then
    // <values> (version 4, inside <io>, after the devices it names).
    Interconnect interconnect(pugi::xml_node e, const std::vector<std::string>& devices,
                              std::uint64_t pci, std::uint64_t objects) const {
        const auto kind = interconnect_kind_from(text(e, "kind"));
        if (!kind)
            fail(e, fmt::format("unknown interconnect kind '{}' (expected NVLinkBandwidth, "
                                "XGMIBandwidth, XGMIHops or XeLinkBandwidth)",
                                text(e, "kind")));
        Interconnect m{*kind, {}, {}, optional_number(e, "link-mbps", 0)};
        if (m.kind == InterconnectKind::NvlinkBandwidth && m.link_mbps == 0)
            fail(e, "an NVLinkBandwidth <interconnect> needs link-mbps, the bandwidth of one link");
        for (pugi::xml_node p : e.children()) {
            const std::string_view tag = p.name();
            if (tag == "values") continue;
            if (tag != "endpoint")
                fail(p, fmt::format("unexpected <{}> inside <interconnect>", tag));
            InterconnectEndpoint ep{EndpointKind::Cpu, 0};
            if (const pugi::xml_attribute d = p.attribute("device")) {
                const auto at = std::find(devices.begin(), devices.end(), d.value());
                if (at == devices.end())
                    fail(p, fmt::format("device=\"{}\" names no <device> before it", d.value()));
                ep = {EndpointKind::Device, static_cast<std::uint32_t>(at - devices.begin())};
            } else if (p.attribute("pci")) {
                if (pci == 0) fail(p, "pci= names no PCI object");
                ep = {EndpointKind::Pci, static_cast<std::uint32_t>(number(p, "pci", pci - 1))};
            } else {
                ep.index = static_cast<std::uint32_t>(number(p, "object", objects - 1));
            }
            if (std::find(m.endpoints.begin(), m.endpoints.end(), ep) != m.endpoints.end())
                fail(p, "an <endpoint> named twice in one <interconnect>");
            m.endpoints.push_back(ep);
        }
        const std::size_t n = m.endpoints.size();
        if (n < 2) fail(e, "an <interconnect> needs at least two <endpoint> elements");
        m.values = whole_numbers(child(e, "values"));
        if (m.values.size() != n * n)
            fail(e.child("values"), fmt::format("<values> holds {} values for {} endpoints "
                                                "(expected {})",
                                                m.values.size(), n, n * n));
        return m;
    }

    // Whitespace-separated whole numbers, the text of `e`.
    std::vector<std::uint64_t> whole_numbers(pugi::xml_node e) const {
        std::vector<std::uint64_t> values;
        const std::string_view body = e.child_value();
        const char* p = body.data();
        const char* const end = p + body.size();
        const auto is_space = [](char c) {
            return c == ' ' || c == '\n' || c == '\t' || c == '\r';
        };
        for (;;) {
            while (p != end && is_space(*p)) ++p;
            if (p == end) break;
            std::uint64_t v = 0;
            const auto [next, ec] = std::from_chars(p, end, v);
            if (ec != std::errc() || (next != end && !is_space(*next)))
                fail(e, fmt::format("<{}> holds something that is not a whole number", e.name()));
            values.push_back(v);
            p = next;
        }
        return values;
    }

    // <numa-distances count="N">N*N relative values</numa-distances>
    // (version 4); their number against the tree's NUMA nodes is checked
    // when the tree is built.
    std::vector<std::uint64_t> numa_distances(pugi::xml_node e, std::uint64_t version) const {
        if (version < 4)
            fail(e, fmt::format("<numa-distances> needs archive format version 4 (this archive "
                                "says version {})",
                                version));
        const std::uint64_t n = number(e, "count", 1u << 12);
        const std::vector<std::uint64_t> values = whole_numbers(e);
        if (values.size() != n * n)
            fail(e, fmt::format("<numa-distances count=\"{}\"> holds {} values (expected {})", n,
                                values.size(), n * n));
        return values;
    }

    // <cpu-kinds count="K"><kind efficiency="E" pus="0-3"><info name=""
    // value=""/>...</kind>...</cpu-kinds> (version 4), after the tree's
    // objects: a kind names PUs by logical index.
    void read_cpu_kinds(pugi::xml_node e, MachineTree::Builder& b, std::uint64_t version) const {
        if (version < 4)
            fail(e, fmt::format("<cpu-kinds> needs archive format version 4 (this archive says "
                                "version {})",
                                version));
        std::uint64_t n = 0;
        for (pugi::xml_node k : e.children()) {
            if (k.type() != pugi::node_element) continue;
            if (std::string_view(k.name()) != "kind")
                fail(k, fmt::format("unexpected <{}> inside <cpu-kinds>", k.name()));
            CpuKind kind;
            if (const pugi::xml_attribute a = k.attribute("efficiency")) {
                const auto v = parse_uint(a.value());
                if (!v || *v > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
                    fail(k, fmt::format("efficiency=\"{}\" is not a rank (a whole number from 0; "
                                        "the attribute is left out when hwloc could not rank "
                                        "the kinds)",
                                        a.value()));
                kind.efficiency = static_cast<std::int32_t>(*v);
            }
            for (pugi::xml_node i : k.children()) {
                if (i.type() != pugi::node_element) continue;
                if (std::string_view(i.name()) != "info")
                    fail(i, fmt::format("unexpected <{}> inside <kind>", i.name()));
                kind.infos.push_back({text(i, "name"), text(i, "value")});
            }
            const char* pus = text(k, "pus");
            std::vector<std::uint32_t> list;
            try {
                list = parse_cpu_list(pus, b.num_pus());
            } catch (const InputError& err) {
                fail(k, fmt::format("pus=\"{}\" of CPU kind #{} is not a list of the type's {} "
                                    "PUs (by logical index): {}",
                                    pus, n, b.num_pus(), err.what()));
            }
            located(k, [&] { b.add_cpu_kind(std::move(kind), list); });
            ++n;
        }
        check_count(e, n);
        located(e, [&] { b.check_cpu_kinds(); });
    }

    bool forwards(pugi::xml_node e, std::uint64_t version) const {
        const pugi::xml_attribute a = e.attribute("forwards");
        if (!a) return true;
        if (version < 3)
            fail(e, fmt::format("attribute forwards=\"{}\" needs archive format version 3 (this "
                                "archive says version {})",
                                a.value(), version));
        const std::string_view v = a.value();
        if (v != "yes" && v != "no")
            fail(e, fmt::format("attribute forwards=\"{}\" of <{}> is neither \"yes\" nor \"no\"",
                                v, e.name()));
        return v == "yes";
    }

    void read_machines(pugi::xml_node machines, ClusterBuilder& builder, std::uint64_t version) {
        // Runs are expanded name by name: refuse first what would overflow
        // 32-bit PE ids, rather than after billions of names.
        std::uint64_t pes = 0;
        for (pugi::xml_node e : machines.children("machines")) {
            if (num_types_ == 0) fail(e, "no <type> is declared");
            const auto t = static_cast<std::uint32_t>(number(e, "type", num_types_ - 1));
            pes += number(e, "count", max_id_count - 1) * builder.type(type_ids_[t]).num_pus();
            if (pes >= max_id_count)
                fail(e, fmt::format("the machines declared so far have {} PEs, past the limit of "
                                    "32-bit PE ids",
                                    pes));
        }
        num_machines_ = read_names(
            machines, "machine", "machines",
            [&](pugi::xml_node e, std::string_view name) {
                if (num_types_ == 0) fail(e, "no <type> is declared");
                const auto t = number(e, "type", num_types_ - 1);
                const bool forwarding = forwards(e, version);
                try {
                    const MachineId m = builder.add_machine(name, type_ids_[t]);
                    if (!forwarding) builder.set_forwards(m, false);
                } catch (const InputError& err) {
                    fail(e, err.what());
                }
            },
            // A run's type and forwarding are read once, where its first
            // name would read them.
            [&](pugi::xml_node e, std::string_view prefix, std::uint64_t first, std::uint64_t count,
                int width) {
                if (num_types_ == 0) fail(e, "no <type> is declared");
                const auto t = number(e, "type", num_types_ - 1);
                const bool forwarding = forwards(e, version);
                try {
                    const std::uint32_t from = builder.num_machines();
                    builder.add_machines(prefix, first, count, width, type_ids_[t]);
                    if (!forwarding)
                        for (std::uint32_t m = from; m < builder.num_machines(); ++m)
                            builder.set_forwards(MachineId(m), false);
                } catch (const InputError& err) {
                    fail(e, err.what());
                }
            },
            machine_elements_);
    }

    void read_switches(pugi::xml_node switches, ClusterBuilder& builder) {
        num_switches_ = read_names(
            switches, "switch", "switches",
            [&](pugi::xml_node e, std::string_view name) {
                try {
                    builder.add_switch(name);
                } catch (const InputError& err) {
                    fail(e, err.what());
                }
            },
            [&](pugi::xml_node e, std::string_view prefix, std::uint64_t first, std::uint64_t count,
                int width) {
                try {
                    builder.add_switches(prefix, first, count, width);
                } catch (const InputError& err) {
                    fail(e, err.what());
                }
            },
            switch_elements_);
    }

    // The blank-separated fields of the line at p (spaces, tabs, carriage
    // returns, as for_each_token splits), up to 6: enough to tell a line of
    // more than 5. Leaves p at the line's newline (or the end): one pass.
    struct Fields {
        std::string_view f[6];
        std::size_t size = 0;
    };
    static Fields split_line(const char*& p, const char* end) {
        Fields out;
        for (;;) {
            while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
            if (p == end || *p == '\n') return out;
            const char* start = p;
            while (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') ++p;
            if (out.size < 6)
                out.f[out.size++] = std::string_view(start, static_cast<std::size_t>(p - start));
        }
    }
    // A line that is exactly "A B" (digits, one space, digits, at most 9
    // digits each, no other blank) ends at its newline or the end: then
    // p is left there, as split_line leaves it. Anything else leaves p
    // alone, for split_line.
    static bool two_numbers_line(const char*& p, const char* end, std::uint64_t& a,
                                 std::uint64_t& b) {
        const char* q = p;
        const auto digits = [&](std::uint64_t& v) {
            const char* const first = q;
            v = 0;
            while (q < end && *q >= '0' && *q <= '9' && q - first < 9)
                v = v * 10 + static_cast<std::uint64_t>(*q++ - '0');
            return q != first && (q == end || *q < '0' || *q > '9');
        };
        if (!digits(a) || q == end || *q != ' ') return false;
        ++q;
        if (!digits(b) || (q != end && *q != '\n')) return false;
        p = q;
        return true;
    }

    // A token of decimal digits, as parse_uint reads it, but saturated at
    // 2^63 instead of refused past 2^64: each caller refuses far less anyway.
    static std::optional<std::uint64_t> link_number(std::string_view t) {
        std::uint64_t v = 0;
        for (const char c : t) {
            if (c < '0' || c > '9') return std::nullopt;
            v = v < (std::uint64_t{1} << 59) ? v * 10 + static_cast<std::uint64_t>(c - '0')
                                             : std::uint64_t{1} << 63;
        }
        return v;
    }

    // Version 1: every line is "A B LATENCY_NS BANDWIDTH_GBPS MULTIPLICITY".
    // Version 2: a line may leave out trailing fields, which then repeat the
    // previous line's; the first line gives all five.
    //
    // One pass over the text, straight into the flat array of links the
    // network keeps (issue 25): each line's fields are checked as add_link
    // would check them, in the same order, so the first bad line is the one
    // named; the builder then takes the array whole.
    void read_links(pugi::xml_node links, ClusterBuilder& builder, std::uint64_t version) {
        const std::string_view body = links.child_value();
        const pugi::xml_node text_node = links.first_child();
        links_body_ = body;
        links_first_line_ = text_node ? line_of(text_node) : line_of(links);
        std::size_t line = links_first_line_;
        const std::uint64_t vertices = num_machines_ + num_switches_;
        std::uint64_t count = 0;
        std::vector<Link> parsed;
        // The declared count is checked once the links are read; until then
        // reserve no more than the text could hold (a link takes >= 4 bytes).
        reserve_huge_pages(parsed, static_cast<std::size_t>(std::min<std::uint64_t>(
                                       number(links, "count", max_id_count), body.size() / 4)));
        const bool short_lines = version >= 2;
        double lat = 0, bw = 0;
        std::uint64_t mult = 0;
        const char* pos = body.data();
        const char* const body_end = body.data() + body.size();
        ProgressTicker tick(progress_, "reading the links", body.size());
        auto bad = [&](const std::string& msg) { throw InputError(source_, line, msg); };
        for (;;) {
            tick(static_cast<std::size_t>(pos - body.data()));
            std::uint64_t short_a = 0, short_b = 0;
            if (short_lines && count != 0 && two_numbers_line(pos, body_end, short_a, short_b)) {
                // Most lines of a written archive: "A B", the rest repeated.
                // The same checks as below, in the same order.
                if (short_a >= vertices || short_b >= vertices)
                    bad(fmt::format("link endpoints must be vertex indexes below {}", vertices));
                if (count + 1 > limits_.max_links) {
                    try {
                        require_within_limit(count + 1, limits_.max_links, "links",
                                             Remedy::raise_link_limit);
                    } catch (const InputError& err) {
                        bad(err.what());
                    }
                }
                if (short_a == short_b) bad("a link cannot join a vertex to itself");
                parsed.push_back({VertexId(static_cast<std::uint32_t>(short_a)),
                                  VertexId(static_cast<std::uint32_t>(short_b)), lat, bw,
                                  static_cast<std::uint32_t>(mult)});
                ++count;
                if (pos == body_end) break;
                ++pos;
                ++line;
                continue;
            }
            const Fields f = split_line(pos, body_end);
            if (f.size != 0) {
                if (!short_lines && f.size != 5)
                    bad("expected a link as 'A B LATENCY_NS BANDWIDTH_GBPS MULTIPLICITY'");
                if (f.size < 2 || f.size > 5)
                    bad("expected a link as 'A B [LATENCY_NS [BANDWIDTH_GBPS [MULTIPLICITY]]]'");
                if (count == 0 && f.size != 5)
                    bad("the first link must give all five fields: "
                        "'A B LATENCY_NS BANDWIDTH_GBPS MULTIPLICITY'");
                const auto a = link_number(f.f[0]), b = link_number(f.f[1]);
                if (!a || !b || *a >= vertices || *b >= vertices)
                    bad(fmt::format("link endpoints must be vertex indexes below {}", vertices));
                // Fields left out repeat the previous link's, which were checked then.
                if (f.size > 2) {
                    const auto v = parse_double(f.f[2]);
                    if (!v) bad("bad latency, bandwidth or multiplicity");
                    lat = *v;
                }
                if (f.size > 3) {
                    const auto v = parse_double(f.f[3]);
                    if (!v) bad("bad latency, bandwidth or multiplicity");
                    bw = *v;
                }
                if (f.size > 4) {
                    const auto v = link_number(f.f[4]);
                    if (!v || *v >= max_id_count) bad("bad latency, bandwidth or multiplicity");
                    mult = *v;
                }
                try {
                    if (f.size > 2)
                        ClusterBuilder::check_link_values(lat, bw,
                                                          static_cast<std::uint32_t>(mult));
                    require_within_limit(count + 1, limits_.max_links, "links",
                                         Remedy::raise_link_limit);
                } catch (const InputError& err) {
                    bad(err.what());
                }
                if (*a == *b) bad("a link cannot join a vertex to itself");
                parsed.push_back({VertexId(static_cast<std::uint32_t>(*a)),
                                  VertexId(static_cast<std::uint32_t>(*b)), lat, bw,
                                  static_cast<std::uint32_t>(mult)});
                ++count;
            }
            if (pos == body_end) break;
            ++pos;
            ++line;
        }
        check_count(links, count);
        try {
            builder.add_links(std::move(parsed));
        } catch (const InputError& err) {
            throw InputError(source_, line_of(links), err);
        }
    }

    // The line of the link declared n-th (from 0), found again in the text:
    // only a duplicate link asks, so no line is kept per link.
    std::size_t line_of_link(std::size_t n) const {
        std::size_t line = links_first_line_, seen = 0;
        const char* pos = links_body_.data();
        const char* const body_end = links_body_.data() + links_body_.size();
        for (;;) {
            if (split_line(pos, body_end).size != 0 && seen++ == n) return line;
            if (pos == body_end) return line;
            ++pos;
            ++line;
        }
    }

    std::string buffer_;
    std::vector<std::uint64_t> newlines_; // bit i: byte i of the text read was a newline
    const std::string& source_;
    Progress* progress_;
    NodeLevel node_level_;
    LevelLatencyOverrides level_latencies_;
    Limits limits_;
    std::vector<TypeId> type_ids_; // archive type id -> the builder's (types may merge)
    std::string_view links_body_;  // the text of <links>, for line_of_link
    std::size_t links_first_line_ = 0;
    pugi::xml_document doc_;
    std::uint64_t num_types_ = 0, num_machines_ = 0, num_switches_ = 0;
    std::vector<Declared> machine_elements_, switch_elements_;
};

} // namespace

namespace detail {
Cluster read_archive_buffer(std::string buffer, const std::string& source_name,
                            const LoadOptions& options) {
    return ArchiveReader(std::move(buffer), source_name, options).read();
}
} // namespace detail

Cluster read_archive(std::istream& in, const std::string& source_name, Progress* progress) {
    LoadOptions options;
    options.progress = progress;
    return read_archive(in, source_name, options);
}

Cluster read_archive(std::istream& in, const std::string& source_name, const LoadOptions& options) {
    std::string buffer{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return detail::read_archive_buffer(std::move(buffer), source_name, options);
}

} // namespace nettopo
