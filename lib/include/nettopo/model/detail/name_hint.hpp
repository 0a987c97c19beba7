// What an error about a machine name the cluster does not have can add to
// help: the nearest names it has ("did you mean node013?"), or all of them
// as a hostlist when they fold into a few ranges ("known machines:
// node[001-128]"). One wording for every such error, of the library and of
// the tools. For error paths: two passes over the machines' names (their
// runs, then bounded edit distances, support/nearest_names.hpp), about a
// tenth of a second for a million machines; thread-safe, no state.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <span>
#include <string>
#include <string_view>

namespace nettopo {

// The hint for one name:
//  - a name numbered as a run of the cluster's names but past it ("node200"
//    for node[001-128]): "known machines: node[001-128]", when the names fold
//    into at most 4 hostlist items, else the names of its prefix when they
//    fold into at most 8 ranges and the number of the others:
//    "known machines: fourmi[001-029,031-068] and 55 more";
//  - a number of such a run written with another padding ("node13"): "did
//    you mean node013?";
//  - else the up to 3 names nearest it within a typo
//    (NearestNames::typo_bound), all equally near, in natural order: "did you
//    mean node013?", "did you mean n1, n2 or n3?";
//  - else the hostlist of the cluster's names when short, as above;
//  - else "".
std::string machine_name_hint(const Cluster& c, std::string_view name);

// The hint for several names none of which the cluster has (a hostlist):
// machine_name_hint of the one name; for several, the hostlist of the
// cluster's names when short, else "".
std::string machine_names_hint(const Cluster& c, std::span<const std::string> names);

// "no machine named 'NAME'", then "; " and machine_name_hint(c, name) when
// there is one: "no machine named 'node0l3'; did you mean node013?".
std::string no_machine_named(const Cluster& c, std::string_view name);

// The same for a name of a machine or a switch: "no machine or switch named
// 'NAME'", the nearest names taken among the machines' and the switches'.
std::string no_machine_or_switch_named(const Cluster& c, std::string_view name);

// `message`, then "; " and `hint` when there is one.
std::string with_hint(std::string message, const std::string& hint);

} // namespace nettopo
