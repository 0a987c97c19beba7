// The differences between an expected cluster and today's (diff_clusters),
// as the tools print them. Text: one line per difference, "<what>: <where>
// [: <expected> -> <actual>]", then a summary line ("3 differences: 1 link
// missing, 1 link slower, 1 host missing", or "no differences"). JSON: one
// object per difference, then one summary object. Both are stable: CI jobs
// read them.
#pragma once

#include "nettopo/fabric/rails.hpp"
#include "nettopo/model/cluster_diff.hpp"

#include <ostream>
#include <string>

namespace nettopo {

// "link slower: mirage006 -- S-0008f10500108c9e: bandwidth 32 -> 8 Gbit/s"
std::string difference_text(const ClusterDifference& d);
// The same; an adapter moved between leaves that the expected cluster's
// `rails` give to different rails says so: "adapter moved: n3:mlx5_2 port 1:
// leaf3 -> leaf7 (from a leaf of rail 2 to a leaf of rail 6)".
std::string difference_text(const ClusterDifference& d, const Rails* rails);
// "3 differences: 1 link missing, 1 link slower, 1 host missing"; "no differences".
std::string diff_summary_text(const ClusterDiff& diff);

void write_diff_text(const ClusterDiff& diff, std::ostream& out, const Rails* rails = nullptr);
void write_diff_json(const ClusterDiff& diff, std::ostream& out);

} // namespace nettopo
