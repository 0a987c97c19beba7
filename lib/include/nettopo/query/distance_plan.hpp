/// \file
/// The one front door to machine-to-machine distances: plan_distances says
/// what will answer a cluster's hop counts and latencies, with the memory it
/// will hold and what building it costs; build_distances carries the plan
/// out. Every caller (QueryEngine, the tools' --index, the C API, Python, the
/// communication model, the exports, nettopo-bench) decides here.
///
/// The plan, for kind Auto, in this order:
/// - an index kept with the cluster (policy.kept, read from its image)
///   answers at no further cost, unless use is Never;
/// - Never: a search per question (BFS hops, Dijkstra latencies);
/// - the family's closed form when the cluster still is the family it was
///   generated as: checking the family costs about one search and every
///   answer after it is O(1), so it pays from the first question;
/// - Always: the general index (a dense table of the folded core while it
///   fits the memory budget, else of its terminals when the core has one link
///   latency, else pruned landmark labels, else a cache of rows);
/// - Auto: the general index when the questions are known and building it
///   costs less than searching for them,
///       questions x (V + 2E) >= core searches x (core V + 2 core E),
///   else a search per question (also when the number of questions is not
///   known: QueryEngine then applies this rule to the questions asked so far).
/// A forced kind is that kind or a UsageError saying why it cannot be built.
///
/// \cost Planning folds the network once (O(V + E)) and, for a family, checks
/// it (O(E), the closed form is then built by the plan itself); building
/// costs what the plan says: plan.build_searches() searches of O(V + E)
/// (Dijkstra: O((V + E) log V)) each.
/// \threads The free functions may be called from several threads at once
/// on one const cluster; a DistancePlan is one thread's at a time.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/distance_index.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace nettopo {

/// Whether questions build an index.
enum class IndexUse : std::uint8_t {
    Auto,   ///< build when the questions would pay for it (ski rental)
    Always, ///< build at once
    Never,  ///< search every question (a kept index is not used)
};

/// What plan_distances may choose from, and for how many questions.
struct DistancePolicy {
    IndexUse use = IndexUse::Auto; ///< whether to build an index
    /// Machine-pair questions to be asked; nullopt when not known in advance
    /// (a co-process reading questions as they come).
    std::optional<std::uint64_t> questions;
    DistanceIndexKind kind = DistanceIndexKind::Auto; ///< a forced kind
    /// Largest memory the index may hold (tables, labels, cached rows).
    std::size_t memory_budget_bytes = std::size_t{512} << 20;
    unsigned threads = 0;         ///< searches run in parallel while filling; 0: all cores
    Progress* progress = nullptr; ///< told of the build's progress; null: none
    /// An index kept with the cluster (read from its image): answers unless
    /// use is Never or another kind is forced.
    std::shared_ptr<const DistanceIndex> kept;
};

namespace detail {
struct PlanState;
}

/// What will answer, decided by plan_distances. Move-only: it may hold what
/// planning already built (a closed form, the folded network).
///
/// \cost Its accessors, constructors and moves are O(1) and throw nothing.
class DistancePlan {
public:
    /// An empty plan of kind Search, to assign to; build_distances refuses
    /// it (UsageError), as a plan already carried out.
    DistancePlan();
    DistancePlan(DistancePlan&&) noexcept;            ///< moves what it holds
    DistancePlan& operator=(DistancePlan&&) noexcept; ///< moves what it holds
    ~DistancePlan();                                  ///< frees what it holds

    /// Search when every question searches. The index built may fall back
    /// along the general index's order when the plan's kind cannot be
    /// completed (terminal codes run out; labels exceed the budget): its
    /// kind() says what answers.
    DistanceIndexKind kind() const { return kind_; }
    /// Memory the index will hold, estimated (labels and the row cache: at
    /// most the budget); 0 for a search.
    std::size_t memory_bytes() const { return memory_bytes_; }
    /// Estimated work still to build it, in searches of the whole network
    /// (0 when the plan already built it or the index is kept).
    double build_searches() const { return build_searches_; }
    /// Why, in a few words: "closed form of fat-tree --k 32 --n 4", ...
    const std::string& reason() const { return reason_; }

private:
    friend DistancePlan plan_distances(const Cluster&, const DistancePolicy&);
    friend std::shared_ptr<const DistanceIndex> build_distances(const Cluster&, DistancePlan);
    friend std::unique_ptr<DistanceIndex> build_distance_index(const Cluster&, DistancePolicy);
    DistanceIndexKind kind_ = DistanceIndexKind::Search;
    std::size_t memory_bytes_ = 0;
    double build_searches_ = 0;
    std::string reason_;
    std::unique_ptr<detail::PlanState> state_;
};

/// Decides what answers the distances of `cluster` under `policy` (see the
/// file's comment): O(V + E), plus the check of a family (O(E)). Throws
/// UsageError when a forced kind cannot be built within the budget (or
/// ClosedForm for a cluster without a usable family), std::bad_alloc.
DistancePlan plan_distances(const Cluster& cluster, const DistancePolicy& policy = {});

/// Carries the plan out: never null (a plan to search gives kind Search, a
/// thread-safe search behind the DistanceIndex interface). The cluster must
/// be the one planned for, and outlive the index. Costs what the plan says
/// (plan.build_searches() searches, on policy.threads threads) and holds
/// about plan.memory_bytes(). Throws UsageError when a forced kind proves
/// impossible while building (terminal codes run out, labels or one row
/// pass the budget) and for a plan carried out before (or default-made);
/// std::bad_alloc; what policy.progress throws. The index answers from
/// several threads at once.
std::shared_ptr<const DistanceIndex> build_distances(const Cluster& cluster, DistancePlan plan);

/// plan_distances then build_distances, building an index whatever the
/// questions (use Always; a forced kind stays forced; policy.kept is not
/// looked at), owned by the caller: for a program that wants the index
/// itself (to keep it in an image). Costs and throws as plan_distances and
/// build_distances.
std::unique_ptr<DistanceIndex> build_distance_index(const Cluster& cluster,
                                                    DistancePolicy policy = {});

} // namespace nettopo
