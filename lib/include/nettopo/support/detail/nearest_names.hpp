// Names near a name that nothing has: what a message about an unknown name
// suggests instead ("did you mean node013?"). Made for error paths: one pass
// over the known names with a bounded edit distance that gives up early, no
// index to build, fast enough over a million names (a few tens of
// milliseconds).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

// How far apart two names are, for suggesting one for the other: their
// Damerau-Levenshtein distance (optimal string alignment) counted in half
// edits. Inserting, deleting or substituting a character, or swapping two
// adjacent ones, costs 2; a substitution that changes only the case or
// swaps look-alikes (0 O, 1 l I, 2 Z, 5 S, 8 B) costs 1, so that "node0l3"
// is 1 from "node013" and 2 from "node003". Returns the distance when it is
// at most `bound`, else bound + 1, after at most min(|a|, |b|) * (bound + 1)
// steps (a band of the table), fewer when every alignment passes the bound
// early. Deterministic, no allocation for names of up to 256 bytes.
std::size_t name_distance(std::string_view a, std::string_view b, std::size_t bound);

// The names nearest a wanted one among names offered one by one.
class NearestNames {
public:
    // At most `count` names, none further than `bound` half edits
    // (name_distance).
    NearestNames(std::string_view wanted, std::size_t count, std::size_t bound);
    // At most `count` names no further from `wanted` than a typo:
    // typo_bound(wanted).
    NearestNames(std::string_view wanted, std::size_t count);

    // The bound of a typo in `wanted`, in half edits: a third of its length
    // in edits, at least one, and less than replacing the name whole (a
    // one-character name only matches a case change or a look-alike).
    static std::size_t typo_bound(std::string_view wanted);

    void offer(std::string_view name);

    // The names offered at the least distance found (all of them equally
    // near), at most `count`, in natural order (parse.hpp): the same answer
    // whatever the order of the offers. Empty when none was within the bound.
    const std::vector<std::string>& names() const { return nearest_; }

private:
    std::string wanted_;
    std::size_t count_, bound_;
    std::vector<std::string> nearest_;
};

// "a", "a or b", "a, b or c": names in a message, quoted as they are.
std::string or_list(const std::vector<std::string>& names);

} // namespace nettopo
