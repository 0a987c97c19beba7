// Communication between the tasks of an application: an undirected graph
// whose edge weights are bytes exchanged per iteration (both directions
// together), stored as CSR so placement loops walk a task's partners in
// one flat slice.
#pragma once

#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace nettopo {

struct TaskEdge {
    TaskId a, b;
    double bytes = 0; // per iteration, a->b and b->a together
    bool operator==(const TaskEdge&) const = default;
};

class TaskGraph {
public:
    TaskGraph() = default;
    // Self-loops are dropped and parallel edges merged (bytes added); edges
    // keep their first appearance's order in edges(). Throws UsageError for
    // an endpoint >= num_tasks or negative or non-finite bytes.
    TaskGraph(std::uint32_t num_tasks, std::span<const TaskEdge> edges);

    std::uint32_t num_tasks() const { return num_tasks_; }
    std::size_t num_edges() const { return edges_.size(); }
    std::span<const TaskEdge> edges() const { return edges_; }
    // Partners of t in increasing id order, with the bytes at the same positions.
    std::span<const TaskId> partners(TaskId t) const { return slice(targets_, t); }
    std::span<const double> bytes(TaskId t) const { return slice(bytes_, t); }
    // Sum of bytes(t): how much t talks per iteration.
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
