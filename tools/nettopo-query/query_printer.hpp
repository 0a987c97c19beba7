// Prints query results in nettopo-query's two output modes. Text: one value
// per line for scalars, lists on one line separated by spaces, "unreachable"
// for unreachable pairs. JSON: one object per result line, keyed by the query
// name (distance: latency_ns), null for unreachable. Both are stable: scripts
// depend on them; share/schema/query-*.schema.json pin the JSON.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/query_engine.hpp"

#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nettopo {

class QueryPrinter {
public:
    QueryPrinter(std::ostream& out, bool json, const Cluster& cluster)
        : out_(out), json_(json), cluster_(cluster) {}

    void count(std::string_view key, std::uint64_t value);
    void machine_of(PeId pe);
    void node_of(PeId pe);
    void pes_of_machine(MachineId m);
    void pes_of_node(NodeId n);
    void pes_around(std::string_view key, PeId pe, std::span<const PeId> pes);
    void neighbors(VertexId v);
    void proximity(PeId a, PeId b);
    void ancestor(PeId a, PeId b);
    void hops(PeId a, PeId b, std::optional<std::uint32_t> h);
    void distance(PeId a, PeId b, std::optional<double> d);
    void path(PeId a, PeId b, const std::optional<std::vector<VertexId>>& p);
    void nearest(PeId pe, std::uint32_t k, std::span<const NearPe> found);

private:
    template <class F>
    void pair_result(PeId a, PeId b, std::string_view key, F&& write_json, const std::string& text);
    std::ostream& out_;
    bool json_;
    const Cluster& cluster_;
};

// Reads "A B" PE pairs, one per line ('#' comments and blank lines skipped).
// Bad lines and PEs out of range are InputError with source and line.
std::vector<std::pair<PeId, PeId>> read_pe_pairs(std::istream& in, const std::string& source,
                                                 const Cluster& cluster);
// The same, handing each pair over as soon as its line is read: a program
// can write a pair and read the answer before writing the next.
void for_each_pe_pair(std::istream& in, const std::string& source, const Cluster& cluster,
                      const std::function<void(PeId, PeId)>& f);
// All pairs of a file, checked before any is answered.
std::vector<std::pair<PeId, PeId>> read_pe_pairs_file(const std::string& path,
                                                      const Cluster& cluster);

} // namespace nettopo
