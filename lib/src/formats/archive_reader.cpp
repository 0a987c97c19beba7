// Reader of the nettopo XML archive. Every error names the file and line.
#include "formats/readers.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "support/name_runs.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <optional>
#include <pugixml.hpp>

namespace nettopo {

namespace {

class ArchiveReader {
public:
    ArchiveReader(std::string_view buffer, const std::string& source, const LoadOptions& options)
        : buffer_(buffer), source_(source), progress_(options.progress),
          node_level_(options.node_level), limits_(options.build.limits) {}

    Cluster read() {
        const pugi::xml_parse_result ok =
            doc_.load_buffer(buffer_.data(), buffer_.size(), pugi::parse_default);
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
        read_types(child(root, "types"), builder);
        read_machines(child(root, "machines"), builder, version);
        read_switches(child(root, "switches"), builder);
        read_links(child(root, "links"), builder, version);
        try {
            // Whatever was accepted when the archive was written is loaded
            // back; connectivity is a check of assembly, not of reading.
            return std::move(builder).build(
                BuildOptions{.allow_disconnected = true, .limits = limits_});
        } catch (const DuplicateLinkError& e) {
            auto vertex = [&](const DuplicateLinkError::End& end) {
                return end.is_switch ? num_machines_ + end.index : std::uint64_t{end.index};
            };
            throw InputError(source_, link_lines_[e.later()],
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

private:
    std::size_t line_at(std::size_t offset) const {
        offset = std::min(offset, buffer_.size());
        return 1 + static_cast<std::size_t>(
                       std::count(buffer_.begin(), buffer_.begin() + offset, '\n'));
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

    void read_types(pugi::xml_node types, ClusterBuilder& builder) {
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
            MachineTree::Builder b;
            const pugi::xml_node root = child(t, "object");
            read_objects(root, b, ObjectId());
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

    template <class F>
    std::uint64_t read_names(pugi::xml_node list, const char* single, const char* plural, F add,
                             std::vector<Declared>& where) {
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
                for (std::uint64_t i = 0; i < count; ++i) add(e, run_name(r, r.first_number + i));
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
            switch_elements_);
    }

    // Version 1: every line is "A B LATENCY_NS BANDWIDTH_GBPS MULTIPLICITY".
    // Version 2: a line may leave out trailing fields, which then repeat the
    // previous line's; the first line gives all five.
    void read_links(pugi::xml_node links, ClusterBuilder& builder, std::uint64_t version) {
        const std::string_view body = links.child_value();
        const pugi::xml_node text_node = links.first_child();
        std::size_t line = text_node ? line_of(text_node) : line_of(links);
        const std::uint64_t vertices = num_machines_ + num_switches_;
        std::uint64_t count = 0;
        std::vector<std::string_view> f;
        // The declared count is checked once the links are read; until then
        // reserve no more than the text could hold (a link takes >= 4 bytes).
        link_lines_.reserve(static_cast<std::size_t>(
            std::min<std::uint64_t>(number(links, "count", max_id_count), body.size() / 4)));
        const bool short_lines = version >= 2;
        double lat = 0, bw = 0;
        std::uint64_t mult = 0;
        std::size_t pos = 0;
        ProgressTicker tick(progress_, "reading the links", body.size());
        while (pos <= body.size()) {
            tick(pos);
            std::size_t end = body.find('\n', pos);
            if (end == std::string_view::npos) end = body.size();
            f.clear();
            for_each_token(body.substr(pos, end - pos),
                           [&](std::string_view t) { f.push_back(t); });
            if (!f.empty()) {
                auto bad = [&](const std::string& msg) { throw InputError(source_, line, msg); };
                if (!short_lines && f.size() != 5)
                    bad("expected a link as 'A B LATENCY_NS BANDWIDTH_GBPS MULTIPLICITY'");
                if (f.size() < 2 || f.size() > 5)
                    bad("expected a link as 'A B [LATENCY_NS [BANDWIDTH_GBPS [MULTIPLICITY]]]'");
                if (count == 0 && f.size() != 5)
                    bad("the first link must give all five fields: "
                        "'A B LATENCY_NS BANDWIDTH_GBPS MULTIPLICITY'");
                const auto a = parse_uint(f[0]), b = parse_uint(f[1]);
                if (!a || !b || *a >= vertices || *b >= vertices)
                    bad(fmt::format("link endpoints must be vertex indexes below {}", vertices));
                // Fields left out repeat the previous link's.
                if (f.size() > 2) {
                    const auto v = parse_double(f[2]);
                    if (!v) bad("bad latency, bandwidth or multiplicity");
                    lat = *v;
                }
                if (f.size() > 3) {
                    const auto v = parse_double(f[3]);
                    if (!v) bad("bad latency, bandwidth or multiplicity");
                    bw = *v;
                }
                if (f.size() > 4) {
                    const auto v = parse_uint(f[4]);
                    if (!v || *v >= max_id_count) bad("bad latency, bandwidth or multiplicity");
                    mult = *v;
                }
                auto endpoint = [&](std::uint64_t v) {
                    return v < num_machines_
                               ? ClusterBuilder::Endpoint{false, static_cast<std::uint32_t>(v)}
                               : ClusterBuilder::Endpoint{
                                     true, static_cast<std::uint32_t>(v - num_machines_)};
                };
                try {
                    builder.add_link(endpoint(*a), endpoint(*b), lat, bw,
                                     static_cast<std::uint32_t>(mult));
                } catch (const InputError& err) {
                    bad(err.what());
                }
                link_lines_.push_back(line); // the builder finds duplicates; this locates them
                ++count;
            }
            pos = end + 1;
            ++line;
        }
        check_count(links, count);
    }

    std::string_view buffer_;
    const std::string& source_;
    Progress* progress_;
    NodeLevel node_level_;
    Limits limits_;
    std::vector<TypeId> type_ids_;        // archive type id -> the builder's (types may merge)
    std::vector<std::size_t> link_lines_; // line of each link, in declaration order
    pugi::xml_document doc_;
    std::uint64_t num_types_ = 0, num_machines_ = 0, num_switches_ = 0;
    std::vector<Declared> machine_elements_, switch_elements_;
};

} // namespace

namespace detail {
Cluster read_archive_buffer(std::string_view buffer, const std::string& source_name,
                            const LoadOptions& options) {
    return ArchiveReader(buffer, source_name, options).read();
}
} // namespace detail

Cluster read_archive(std::istream& in, const std::string& source_name, Progress* progress) {
    LoadOptions options;
    options.progress = progress;
    return read_archive(in, source_name, options);
}

Cluster read_archive(std::istream& in, const std::string& source_name, const LoadOptions& options) {
    const std::string buffer{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return detail::read_archive_buffer(buffer, source_name, options);
}

} // namespace nettopo
