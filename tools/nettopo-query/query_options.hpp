// nettopo-query's options: what the command line gave, before anything is read.
#pragma once

#include "common/dot_writer.hpp"
#include "nettopo-query/distribute_command.hpp"
#include "nettopo-query/job_options.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo {

struct Options {
    std::string input, node_level = "auto", pairs, name;
    std::string index_use = "auto"; // --index: auto, always, never
    std::string output, format;     // draw and export: -o FILE, export --format
    std::string expected;           // diff: the cluster expected
    std::string machine;            // export --format synthetic: whose type
    std::string highlight;          // draw --highlight: path:A,B or a hostlist
    std::string collapse = "auto";  // draw --collapse: auto or a count
    bool json = false, allow_disconnected = false, all = false, by_hops = false;
    bool no_io = false; // show --no-io
    bool allowed_only = false, quiet = false;
    bool physical = false, mask = false; // -p; cpuset-of --mask
    JobOptions job;                      // --nodes, --hostfile, --job
    std::vector<std::string> latencies;  // --latency TYPE=NS
    std::vector<std::string> pes;        // the two PEs of a pair query, as PeNaming reads them
    std::string pe;                      // the PE of a single-PE query
    std::uint64_t index = 0;             // the node of a single-node query
    std::uint64_t k = 0;
    DistributeRequest distribute;    // distribute N [--policy] [--rankfile] [--slurm]
    std::string index_kind = "auto"; // index: --kind
    std::string device_kind;         // nearest-device: --kind
    std::uint64_t budget_mb = 512;   // index: --budget-mb
};

} // namespace nettopo
