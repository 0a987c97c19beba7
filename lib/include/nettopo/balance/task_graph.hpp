/// \file
/// Communication between the tasks of an application: an undirected graph
/// whose edge weights are bytes exchanged per iteration (both directions
/// together), stored as CSR so placement loops walk a task's partners in
/// one flat slice.
/// \threads A TaskGraph is immutable once made: const calls from several
/// threads at once are safe.
/// \cost Const calls are O(1), allocation-free and throw nothing
/// (total_bytes: O(degree)); making one is O(tasks + edges log edges) and
/// throws as the constructor says, or std::bad_alloc.
#pragma once

#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace nettopo {

/// Two tasks that talk, and how much.
struct TaskEdge {
    TaskId a;                                         ///< one task
    TaskId b;                                         ///< the other
    double bytes = 0;                                 ///< per iteration, a->b and b->a together
    bool operator==(const TaskEdge&) const = default; ///< same tasks, same bytes
};

/// The tasks' communication graph (see the file's comment).
class TaskGraph {
public:
    TaskGraph() = default; ///< no task
    /// Self-loops are dropped and parallel edges merged (bytes added); edges
    /// keep their first appearance's order in edges(). Throws UsageError for
    /// an endpoint >= num_tasks or negative or non-finite bytes.
    TaskGraph(std::uint32_t num_tasks, std::span<const TaskEdge> edges);

    /// Tasks (ids 0..num_tasks()-1).
    std::uint32_t num_tasks() const { return num_tasks_; }
    /// Edges, after merging.
    std::size_t num_edges() const { return edges_.size(); }
    /// The edges, each once.
    std::span<const TaskEdge> edges() const { return edges_; }
    /// Partners of t in increasing id order, with the bytes at the same positions.
    std::span<const TaskId> partners(TaskId t) const { return slice(targets_, t); }
    /// Bytes per iteration with each partner of `t`.
    std::span<const double> bytes(TaskId t) const { return slice(bytes_, t); }
    /// Sum of bytes(t): how much t talks per iteration.
    double total_bytes(TaskId t) const;

private:
    template <class T> std::span<const T> slice(const std::vector<T>& a, TaskId t) const {
        return {a.data() + offsets_[t.value], a.data() + offsets_[t.value + 1]};
    }
    std::uint32_t num_tasks_ = 0;
    std::vector<TaskEdge> edges_;
    std::vector<std::uint32_t> offsets_{0};
    std::vector<TaskId> targets_;
    std::vector<double> bytes_;
};

} // namespace nettopo
