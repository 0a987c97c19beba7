// The text description of a cluster, one statement per line, '#' comments:
//
//   name     <cluster name>
//   machine  <name> <hwloc synthetic description> [node=<type>] [lat.<type>=<ns>]...
//   machines <prefix>[<a>-<b>] <synthetic description> [options as for machine]
//   switch   <name>
//   link     <endpoint> <endpoint> <latency-ns> [bandwidth=<Gbit/s>] [count=<n>]
//
// See share/doc/description-format.md for the full grammar.
#pragma once

#include "nettopo/cluster.hpp"
#include "nettopo/cluster_builder.hpp"
#include "nettopo/progress.hpp"

#include <istream>
#include <string>

namespace nettopo {

struct LoadOptions {
    BuildOptions build;
    NodeLevel node_level;         // applies where the input does not choose one
    Progress* progress = nullptr; // told how far reading has come, if set
};

// Errors are InputError with source_name and the line.
Cluster read_description(std::istream& in, const std::string& source_name,
                         const LoadOptions& options = {});

} // namespace nettopo
