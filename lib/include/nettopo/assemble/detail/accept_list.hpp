// A site's known exceptions to its topology check (`nettopo-discover --check
// --accept FILE`): a real cluster has quirks (service hosts without an
// export, a cable left on another rail on purpose) that must not fail every
// CI run, while anything new still does.
//
// The file: one pattern a line ('*' any run, '?' one character:
// glob.hpp), matched against each problem *item*; blank lines and lines
// starting with '#' are skipped, and " #" starts a comment after a pattern.
// An item is one host, adapter or leaf of a problem: "NAME: NOUN WHAT" for
// a mismatch between the sources ("mds01: host in the fabric without an
// hwloc export, left out"), a rail problem's own text ("ion2102 HCA-3 (rail
// 2) is cabled to leaf ..."), any other problem's line.
#pragma once

#include "nettopo/assemble/detail/check_report.hpp"

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace nettopo {

struct AcceptPattern {
    std::string pattern;
    std::size_t line = 0; // in the file, from 1
};

struct AcceptList {
    std::string source; // the file, for messages
    std::vector<AcceptPattern> patterns;
};

// Reads an accept file (the format above). InputError(file, line) for a
// line holding a control character. O(size).
AcceptList read_accept_list(std::istream& in, const std::string& source);

// Moves every problem item a pattern matches out of the report's problems
// into r.accepted ("ITEM (FILE line N)"), and lists the patterns that
// matched none in r.unused_accepts ("FILE line N: PATTERN"). An issue
// whose names are all accepted is gone; partly accepted, it keeps the
// others. O(items x patterns x length).
void accept_problems(CheckReport& r, const AcceptList& list);

} // namespace nettopo
