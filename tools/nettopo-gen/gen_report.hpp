// What nettopo-gen --json prints: what was generated (the family and its
// parameters, the machine inside, the counts) and where it went, one JSON
// object on one line (share/schema/gen.schema.json).
#pragma once

#include "nettopo/families/family.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/query/summary.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace nettopo {

struct GenReport {
    const Family& family;
    const Cluster& cluster;
    std::string preset;                    // "tree-M", or empty for a family given by its options
    std::string output;                    // the file written
    bool description = false;              // --describe: the text description, not an archive
    bool verified = false;                 // --verify passed
    std::optional<ClusterSummary> summary; // --summary
};

void write_gen_report_json(const GenReport& r, std::ostream& out);

} // namespace nettopo
