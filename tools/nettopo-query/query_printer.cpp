#include "nettopo-query/query_printer.hpp"

#include "common/json_writer.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <string>

namespace nettopo {

std::string QueryPrinter::pes_text(PeRange r) const {
    std::string s;
    for (std::uint32_t i = 0; i < r.count; ++i) {
        if (i) s += ' ';
        s += naming_.pe_text(r[i]);
    }
    return s;
}

void QueryPrinter::pes_json(JsonWriter& j, PeRange r) const {
    j.begin_array();
    for (std::uint32_t i = 0; i < r.count; ++i) naming_.pe_json(j, r[i]);
    j.end_array();
}

void QueryPrinter::count(std::string_view key, std::uint64_t value) {
    if (!json_) {
        out_ << value << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().field(key, value).end_object().line();
}

void QueryPrinter::machine_of(PeId pe) {
    const std::string_view m = cluster_.machine_name(cluster_.machine_of(pe));
    if (!json_) {
        out_ << m << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().key("pe");
    naming_.pe_json(j, pe);
    j.field("machine", m).end_object().line();
}

void QueryPrinter::node_of(PeId pe) {
    const std::uint32_t n = naming_.node_number(cluster_.node_of(pe));
    if (!json_) {
        out_ << n << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().key("pe");
    naming_.pe_json(j, pe);
    j.field("node", n).end_object().line();
}

void QueryPrinter::pes_of_machine(MachineId m) {
    const PeRange r = cluster_.pes_of_machine(m);
    if (!json_) {
        out_ << pes_text(r) << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().field("machine", cluster_.machine_name(m)).key("pes");
    pes_json(j, r);
    j.end_object().line();
}

void QueryPrinter::pes_of_node(NodeId n) {
    const PeRange r = cluster_.pes_of_node(n);
    if (!json_) {
        out_ << pes_text(r) << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().field("node", naming_.node_number(n)).key("pes");
    pes_json(j, r);
    j.end_object().line();
}

void QueryPrinter::pes_around(std::string_view key, PeId pe, std::span<const PeId> pes) {
    if (!json_) {
        std::string s;
        for (std::size_t i = 0; i < pes.size(); ++i) {
            if (i) s += ' ';
            s += naming_.pe_text(pes[i]);
        }
        out_ << s << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().key("pe");
    naming_.pe_json(j, pe);
    j.key(key).begin_array();
    for (PeId p : pes) naming_.pe_json(j, p);
    j.end_array().end_object().line();
}

void QueryPrinter::neighbors(VertexId v) {
    const Network& net = cluster_.network();
    const auto to = net.neighbors(v);
    const auto links = net.neighbor_links(v);
    if (!json_) {
        for (std::size_t i = 0; i < to.size(); ++i)
            out_ << cluster_.vertex_name(to[i]) << ' '
                 << format_number(net.links()[links[i]].latency_ns) << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().field("name", cluster_.vertex_name(v)).key("neighbors").begin_array();
    for (std::size_t i = 0; i < to.size(); ++i) {
        const Link& l = net.links()[links[i]];
        j.begin_object().field("name", cluster_.vertex_name(to[i]));
        j.field("kind", net.is_machine(to[i]) ? "machine" : "switch");
        j.field("latency_ns", l.latency_ns);
        j.key("bandwidth_gbps");
        l.bandwidth_gbps > 0 ? j.value(l.bandwidth_gbps) : j.null();
        j.field("cables", l.multiplicity).end_object();
    }
    j.end_array().end_object().line();
}

template <class F>
void QueryPrinter::pair_result(PeId a, PeId b, std::string_view key, F&& write_json,
                               const std::string& text) {
    if (!json_) {
        out_ << text << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().key("a");
    naming_.pe_json(j, a);
    j.key("b");
    naming_.pe_json(j, b);
    j.key(key);
    write_json(j);
    j.end_object().line();
}

void QueryPrinter::proximity(PeId a, PeId b) {
    const int p = static_cast<int>(cluster_.proximity(a, b));
    pair_result(
        a, b, "proximity", [&](JsonWriter& j) { j.value(p); }, std::to_string(p));
}

void QueryPrinter::ancestor(PeId a, PeId b) {
    const auto anc = cluster_.common_ancestor(a, b);
    const std::string text =
        anc ? (anc->type == ObjectType::Machine
                   ? std::string("Machine")
                   : fmt::format("{} L#{}",
                                 cluster_.machine_type(anc->machine).tree().level_name(anc->object),
                                 anc->logical_index))
            : "none";
    pair_result(
        a, b, "ancestor",
        [&](JsonWriter& j) {
            if (!anc) {
                j.null();
                return;
            }
            j.begin_object().field("machine", cluster_.machine_name(anc->machine));
            j.field("type", to_string(anc->type)).field("logical_index", anc->logical_index);
            j.field("depth", anc->depth).end_object();
        },
        text);
}

void QueryPrinter::hops(PeId a, PeId b, std::optional<std::uint32_t> h) {
    pair_result(
        a, b, "hops", [&](JsonWriter& j) { j.value(h); }, h ? std::to_string(*h) : "unreachable");
}

void QueryPrinter::distance(PeId a, PeId b, std::optional<double> d) {
    pair_result(
        a, b, "latency_ns", [&](JsonWriter& j) { j.value(d); },
        d ? format_number(*d) : "unreachable");
}

void QueryPrinter::path(PeId a, PeId b, const std::optional<std::vector<VertexId>>& p) {
    std::string text = p ? "" : "unreachable";
    if (p)
        for (std::size_t i = 0; i < p->size(); ++i)
            text += fmt::format("{}{}", i ? " " : "", cluster_.vertex_name((*p)[i]));
    pair_result(
        a, b, "path",
        [&](JsonWriter& j) {
            if (!p) {
                j.null();
                return;
            }
            j.begin_array();
            for (VertexId v : *p) j.value(cluster_.vertex_name(v));
            j.end_array();
        },
        text);
}

void QueryPrinter::nearest(PeId pe, std::uint32_t k, std::span<const NearPe> found) {
    if (!json_) {
        for (const NearPe& n : found)
            out_ << naming_.pe_text(n.pe) << ' ' << format_number(n.distance_ns) << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object().key("pe");
    naming_.pe_json(j, pe);
    j.field("k", k).key("nearest").begin_array();
    for (const NearPe& n : found) {
        j.begin_object().key("pe");
        naming_.pe_json(j, n.pe);
        j.field("latency_ns", n.distance_ns).end_object();
    }
    j.end_array().end_object().line();
}

void QueryPrinter::cpuset(const PuSet& of, bool mask, bool with_host) {
    std::vector<std::uint32_t> os_indexes;
    os_indexes.reserve(of.pes.count);
    for (std::uint32_t i = 0; i < of.pes.count; ++i)
        os_indexes.push_back(naming_.os_index(of.pes[i]));
    const std::string set = mask ? format_cpu_mask(os_indexes) : format_cpu_list(os_indexes);
    const std::string_view machine = cluster_.machine_name(of.machine);
    if (!json_) {
        if (with_host) out_ << machine << ' ';
        out_ << set << '\n';
        return;
    }
    JsonWriter j(out_);
    j.begin_object();
    if (of.pe) {
        j.key("pe");
        naming_.pe_json(j, *of.pe);
    }
    if (of.node) j.field("node", naming_.node_number(*of.node));
    j.field("machine", machine).field(mask ? "cpuset_mask" : "cpuset", set).end_object().line();
}

void for_each_pe_pair(std::istream& in, const std::string& source, const PeNaming& naming,
                      const std::function<void(PeId, PeId)>& f) {
    const Cluster& cluster = naming.cluster();
    const bool plain = !naming.view() && !naming.physical();
    std::string line, why;
    std::vector<std::string_view> t;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        std::string_view content(line);
        content = content.substr(0, content.find('#'));
        t.clear();
        for_each_token(content, [&](std::string_view s) { t.push_back(s); });
        if (t.empty()) continue;
        if (t.size() != 2) throw InputError(source, n, "expected two PE indexes 'A B'");
        PeId ab[2];
        for (int i = 0; i < 2; ++i) {
            if (!plain) { // allocation ids or HOST:OS, as the command line takes them
                const auto p = naming.parse_pe(t[i], why);
                if (!p) throw InputError(source, n, why);
                ab[i] = *p;
                continue;
            }
            const auto v = parse_uint(t[i]);
            if (!v) throw InputError(source, n, fmt::format("'{}' is not a PE index", t[i]));
            if (*v >= cluster.num_pes())
                throw InputError(source, n,
                                 fmt::format("PE {} does not exist (the cluster has {} PEs)", *v,
                                             cluster.num_pes()));
            ab[i] = PeId(static_cast<std::uint32_t>(*v));
        }
        f(ab[0], ab[1]);
    }
}

std::vector<std::pair<PeId, PeId>> read_pe_pairs(std::istream& in, const std::string& source,
                                                 const PeNaming& naming) {
    std::vector<std::pair<PeId, PeId>> pairs;
    for_each_pe_pair(in, source, naming, [&](PeId a, PeId b) { pairs.emplace_back(a, b); });
    return pairs;
}

std::vector<std::pair<PeId, PeId>> read_pe_pairs_file(const std::string& path,
                                                      const PeNaming& naming) {
    std::ifstream file(path);
    if (!file)
        throw InputError(path, 0,
                         fmt::format("cannot read the pairs file: {}", std::strerror(errno)));
    return read_pe_pairs(file, path, naming);
}

} // namespace nettopo
