// Whether a batch of distance questions should build a distance index or
// search: the rule the tools apply (issue 14's "fastest exact answer").
//
// Auto, in this order:
// - the family's closed form when the cluster still is the family it was
//   generated as: checking the family costs about one search, and every
//   answer after it is O(1), so it pays from the first question;
// - the general index when the batch is known and large enough: building it
//   costs about one search of the folded core per core vertex (the dense
//   table's fill; labels and the row cache cost less), or per 64 terminals
//   when only the terminals' table fits the budget (its bit-parallel fill),
//   against one search of the whole network per question, so it is built when
//       questions x (V + E) >= core searches x (core V + core E);
// - a search per question otherwise, and when the size of the batch is not
//   known in advance (a co-process reading questions as they come).
// Always builds the index (closed form, else general) whatever the batch;
// Never searches.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace nettopo {

enum class IndexUse : std::uint8_t { Auto, Always, Never };

// "auto", "always", "never"; ValueError otherwise.
IndexUse parse_index_use(std::string_view text);

// The index the rule picks for `questions` machine-pair questions (nullopt:
// not known in advance), or nullptr to search.
std::unique_ptr<DistanceIndex> index_for_batch(const Cluster& cluster, IndexUse use,
                                               std::optional<std::uint64_t> questions,
                                               const DistanceIndexOptions& options = {});

// Where a batch's distances come from: an index kept with the cluster (read
// from its image) answers every batch at no further cost, unless searching
// is forced; else index_for_batch's choice, built for this batch and owned
// here. `index` is nullptr when the batch searches.
struct BatchIndex {
    std::unique_ptr<DistanceIndex> owned;
    const DistanceIndex* index = nullptr;
};
BatchIndex choose_batch_index(const Cluster& cluster, IndexUse use,
                              std::optional<std::uint64_t> questions, const DistanceIndex* kept,
                              const DistanceIndexOptions& options = {});

} // namespace nettopo
