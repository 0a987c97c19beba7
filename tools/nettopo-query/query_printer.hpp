// Prints query results in nettopo-query's two output modes. Text: one value
// per line for scalars, lists on one line separated by spaces, "unreachable"
// for unreachable pairs. JSON: one object per result line, keyed by the query
// name (distance: latency_ns), null for unreachable. Both are stable: scripts
// depend on them; PEs and nodes are named as the PeNaming says (cluster or
// allocation ids, logical or -p HOST:OS); share/schema/query-*.schema.json pin the JSON.
#pragma once

#include "nettopo-query/pe_naming.hpp"
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
    QueryPrinter(std::ostream& out, bool json, const PeNaming& naming)
        : out_(out), json_(json), cluster_(naming.cluster()), naming_(naming) {}

    void count(std::string_view key, std::uint64_t value);
    void machine_of(PeId pe);
    void node_of(PeId pe);
    void pes_of_machine(MachineId m); // in a view: the view's PEs
    void pes_of_node(NodeId n);
    void pes_around(std::string_view key, PeId pe, std::span<const PeId> pes);
    void neighbors(VertexId v);
    void proximity(PeId a, PeId b);
    void ancestor(PeId a, PeId b);
    void hops(PeId a, PeId b, std::optional<std::uint32_t> h);
    void distance(PeId a, PeId b, std::optional<double> d);
    void path(PeId a, PeId b, const std::optional<std::vector<VertexId>>& p);
    void nearest(PeId pe, std::uint32_t k, std::span<const NearPe> found);
    // The OS indexes of a set of PUs of one machine: a list ("0-3,8") or a
    // hex mask as hwloc prints cpusets; the text line starts with the
    // machine's name when `with_host` (an argument naming several machines).
    // JSON also names the PE or node asked about, if any. InputError when
    // the source gave no OS indexes.
    void cpuset(const PuSet& set, bool mask, bool with_host);

private:
    template <class F>
    void pair_result(PeId a, PeId b, std::string_view key, F&& write_json, const std::string& text);
    std::ostream& out_;
    bool json_;
    std::string pes_text(PeRange r) const;
    void pes_json(JsonWriter& j, PeRange r) const;
    const Cluster& cluster_;
    const PeNaming& naming_;
};

// Reads "A B" PE pairs, one per line ('#' comments and blank lines skipped),
// each PE as `naming` reads it. Bad lines and PEs out of range are
// InputError with source and line.
std::vector<std::pair<PeId, PeId>> read_pe_pairs(std::istream& in, const std::string& source,
                                                 const PeNaming& naming);
// The same, handing each pair over as soon as its line is read: a program
// can write a pair and read the answer before writing the next.
void for_each_pe_pair(std::istream& in, const std::string& source, const PeNaming& naming,
                      const std::function<void(PeId, PeId)>& f);
// All pairs of a file, checked before any is answered.
std::vector<std::pair<PeId, PeId>> read_pe_pairs_file(const std::string& path,
                                                      const PeNaming& naming);

} // namespace nettopo
