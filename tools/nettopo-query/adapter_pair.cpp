// Adapter-level pairs (adapter_pair.hpp).
#include "nettopo-query/adapter_pair.hpp"

#include "common/json_writer.hpp"
#include "nettopo/query/adapter_distance.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <iostream>

namespace nettopo {

namespace {

struct End {
    AdapterEnd end;
    std::optional<PeId> pe; // a PE end
};

// How a path names the vertex it leaves or enters a machine by.
std::string port_name(const Cluster& c, const AdapterEnd& e, std::uint32_t port) {
    if (port == ~0u) return std::string(c.machine_name(e.machine));
    return fmt::format("{}:{}", c.machine_name(e.machine), c.attachments(e.machine)[port].device);
}

} // namespace

bool run_adapter_pair(Run& r, AdapterQuestion question) {
    if (!r.o.pairs.empty() || r.o.pes.size() != 2) return false;
    std::optional<AdapterEnd> device[2];
    for (int i = 0; i < 2; ++i) device[i] = find_adapter_end(r.cluster, r.o.pes[i]);
    if (!device[0] && !device[1]) return false;
    End ends[2];
    for (int i = 0; i < 2; ++i) {
        if (device[i]) {
            if (r.view && !r.view->contains(device[i]->machine))
                throw UsageError(fmt::format("{}: {} is not in the job's allocation", r.o.pes[i],
                                             r.cluster.machine_name(device[i]->machine)));
            ends[i].end = std::move(*device[i]);
        } else {
            const PeId p = r.pair_pe(static_cast<std::size_t>(i));
            ends[i] = {machine_end(r.cluster, r.cluster.machine_of(p)), p};
        }
    }
    const AdapterEnd &a = ends[0].end, &b = ends[1].end;
    if (a.machine == b.machine && question == AdapterQuestion::distance)
        throw UsageError(fmt::format(
            "{} and {} are on one machine: the network has no latency between them (device-matrix "
            "{} says how its devices reach each other)",
            r.o.pes[0], r.o.pes[1], r.cluster.machine_name(a.machine)));
    AdapterDistances distances(r.cluster);
    std::optional<AdapterAnswer> answer;
    std::vector<VertexId> path;
    switch (question) {
    case AdapterQuestion::hops:
        answer = distances.hops(a, b);
        break;
    case AdapterQuestion::distance:
        answer = distances.latency_ps(a, b);
        break;
    case AdapterQuestion::path:
        if (auto p = distances.path(a, b, r.o.by_hops ? PathMetric::Hops : PathMetric::Latency)) {
            answer = p->first;
            path = std::move(p->second);
        }
        break;
    }
    // The path's names: a GPU end, then the adapter it leaves by, the
    // switches, the adapter it enters by, a GPU end.
    std::vector<std::string> names;
    if (answer && question == AdapterQuestion::path) {
        const auto is_adapter = [&](const End& e, std::uint32_t port) {
            return port != ~0u && e.end.label == port_name(r.cluster, e.end, port);
        };
        if (!ends[0].pe && !is_adapter(ends[0], answer->a_port)) names.push_back(a.label);
        for (std::size_t i = 0; i < path.size(); ++i) {
            if (i == 0 && path.size() > 1)
                names.push_back(port_name(r.cluster, a, answer->a_port));
            else if (i + 1 == path.size() && path.size() > 1)
                names.push_back(port_name(r.cluster, b, answer->b_port));
            else
                names.emplace_back(r.cluster.vertex_name(path[i]));
        }
        if (!ends[1].pe && !is_adapter(ends[1], answer->b_port)) names.push_back(b.label);
    }
    if (!r.o.json) {
        if (!answer) {
            std::cout << "unreachable\n";
        } else if (question == AdapterQuestion::hops) {
            std::cout << answer->value << '\n';
        } else if (question == AdapterQuestion::distance) {
            std::cout << format_number(picoseconds_to_ns(answer->value)) << '\n';
        } else {
            for (std::size_t i = 0; i < names.size(); ++i) std::cout << (i ? " " : "") << names[i];
            std::cout << '\n';
        }
        return true;
    }
    JsonWriter j(std::cout);
    j.begin_object();
    for (int i = 0; i < 2; ++i) {
        j.key(i == 0 ? "a" : "b");
        if (ends[i].pe)
            r.naming.pe_json(j, *ends[i].pe);
        else
            j.value(ends[i].end.label);
    }
    j.key(question == AdapterQuestion::hops       ? "hops"
          : question == AdapterQuestion::distance ? "latency_ns"
                                                  : "path");
    if (!answer) {
        j.null();
    } else if (question == AdapterQuestion::hops) {
        j.value(static_cast<std::uint64_t>(answer->value));
    } else if (question == AdapterQuestion::distance) {
        j.value(picoseconds_to_ns(answer->value));
    } else {
        j.begin_array();
        for (const std::string& n : names) j.value(n);
        j.end_array();
    }
    if (answer && a.machine != b.machine) {
        j.key("adapters").begin_array();
        j.value(port_name(r.cluster, a, answer->a_port));
        j.value(port_name(r.cluster, b, answer->b_port));
        j.end_array();
    }
    j.end_object().line();
    return true;
}

} // namespace nettopo
