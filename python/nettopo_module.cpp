// The Python module `nettopo`: nettopo.load(path) gives a Topology whose
// methods are the thesis' queries (Tables 5 and 6), answered as nettopo-query
// answers them, plus pair queries in bulk on NumPy arrays answered through
// the distance index with the GIL released, a machine's devices
// (device_queries.cpp) and a job's allocation and placement (job_queries.cpp).
#include "module_parts.hpp"
#include "nettopo/model/machine_type.hpp"
#include "nettopo/tree/object_type.hpp"
#include "pair_batch.hpp"
#include "topology.hpp"

#include <filesystem>
#include <memory>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <string>

namespace py = pybind11;

namespace {

using namespace nettopo;
using python::Topology;

LoadOptions load_options(const std::string& node_level, bool allow_disconnected) {
    LoadOptions options;
    const auto level = node_level_from(node_level);
    if (!level)
        throw UsageError("unknown node level '" + node_level + "' (expected " +
                         std::string(node_level_choices) + ")");
    options.node_level = *level;
    options.build.allow_disconnected = allow_disconnected;
    return options;
}

py::list pe_list(PeRange r) {
    py::list pes;
    for (std::uint32_t i = 0; i < r.count; ++i) pes.append(r.first + i);
    return pes;
}

py::list pe_list(const std::vector<PeId>& v) {
    py::list pes;
    for (PeId p : v) pes.append(p.value);
    return pes;
}

py::str name(std::string_view s) {
    return py::str(s.data(), s.size());
}

// The pairs of a batch query: any (n, 2) array-like of integer PE ids, as a
// C-contiguous int64 array (uint64 kept as it is: its large values would
// wrap in int64 and be reported as negative).
struct Pairs {
    py::array array;
    bool is_unsigned = false;
    std::size_t rows = 0;
};

Pairs as_pairs(const py::object& object) {
    const py::array a = py::module_::import("numpy").attr("asarray")(object);
    const bool empty_list = a.ndim() == 1 && a.size() == 0; // [] or np.array([])
    if (!empty_list && (a.ndim() != 2 || a.shape(1) != 2))
        throw py::value_error("pairs: expected an array of shape (n, 2), got shape " +
                              py::str(a.attr("shape")).cast<std::string>());
    const char kind = a.dtype().kind();
    if (a.size() != 0 && kind != 'i' && kind != 'u')
        throw py::type_error("pairs: expected integer PE ids, got dtype " +
                             py::str(a.dtype()).cast<std::string>());
    const std::size_t rows = empty_list ? 0 : static_cast<std::size_t>(a.shape(0));
    constexpr int flags = py::array::c_style | py::array::forcecast;
    if (kind == 'u' && a.itemsize() == 8)
        return {py::array_t<std::uint64_t, flags>::ensure(a), true, rows};
    return {py::array_t<std::int64_t, flags>::ensure(a), false, rows};
}

// Checks every id, then runs answer(ids, index, out) with the GIL released.
// The index is built (once per topology) only for queries that need it, and
// only after the ids are known to be good.
template <class Out, class Answer>
py::array_t<Out> batch(Topology& t, const py::object& pairs, bool needs_index, Answer answer) {
    const Pairs p = as_pairs(pairs);
    py::array_t<Out> result(static_cast<py::ssize_t>(p.rows));
    const std::span<Out> out(result.mutable_data(), p.rows);
    const void* data = p.array.data();
    if (p.rows == 0) return result;
    {
        const py::gil_scoped_release release;
        const auto run = [&](auto type) {
            using Id = decltype(type);
            const std::span<const Id> ids(static_cast<const Id*>(data), 2 * p.rows);
            python::check_pairs(t.cluster(), ids);
            const DistanceIndex* index = needs_index ? &t.index() : nullptr;
            answer(ids, index, out);
        };
        p.is_unsigned ? run(std::uint64_t{}) : run(std::int64_t{});
    }
    return result;
}

void bind_counts(py::class_<Topology>& c) {
    c.def_property_readonly(
         "name", [](const Topology& t) { return t.cluster().name(); }, "The topology's name.")
        .def_property_readonly(
            "source", [](const Topology& t) { return t.source(); }, "The file it was loaded from.")
        .def_property_readonly(
            "family", [](const Topology& t) { return t.cluster().family(); },
            "The generated family it was built from ('fat-tree --k 4 --n 3'), '' when none.")
        .def_property_readonly(
            "num_pes", [](const Topology& t) { return t.cluster().num_pes(); }, "Number of PEs.")
        .def_property_readonly(
            "num_machines", [](const Topology& t) { return t.cluster().num_machines(); },
            "Number of machines.")
        .def_property_readonly(
            "num_nodes", [](const Topology& t) { return t.cluster().num_nodes(); },
            "Number of nodes.")
        .def_property_readonly(
            "num_switches", [](const Topology& t) { return t.cluster().num_switches(); },
            "Number of switches.")
        .def_property_readonly(
            "num_links", [](const Topology& t) { return t.cluster().num_net_links(); },
            "Number of network links.")
        .def_property_readonly(
            "machines",
            [](const Topology& t) {
                py::list names;
                for (std::uint32_t m = 0; m < t.cluster().num_machines(); ++m)
                    names.append(name(t.cluster().machine_name(MachineId(m))));
                return names;
            },
            "Machine names, in machine id order.");
}

void bind_structure(py::class_<Topology>& c) {
    c.def(
         "machine_of",
         [](const Topology& t, std::int64_t pe) {
             const Cluster& k = t.cluster();
             return name(k.machine_name(k.machine_of(python::checked_pe(k, pe))));
         },
         py::arg("pe"), "Name of the PE's machine.")
        .def(
            "node_of",
            [](const Topology& t, std::int64_t pe) {
                return t.cluster().node_of(python::checked_pe(t.cluster(), pe)).value;
            },
            py::arg("pe"), "The PE's node.")
        .def(
            "pes_of_machine",
            [](const Topology& t, const std::string& machine) {
                return pe_list(t.cluster().pes_of_machine(t.cluster().require_machine(machine)));
            },
            py::arg("machine"), "PEs of the machine of that name.")
        .def(
            "pes_of_node",
            [](const Topology& t, std::int64_t node) {
                return pe_list(t.cluster().pes_of_node(python::checked_node(t.cluster(), node)));
            },
            py::arg("node"), "PEs of a node.")
        .def(
            "on_same_machine",
            [](const Topology& t, std::int64_t pe) {
                return pe_list(t.cluster().on_same_machine(python::checked_pe(t.cluster(), pe)));
            },
            py::arg("pe"), "The other PEs of the PE's machine.")
        .def(
            "on_same_node",
            [](const Topology& t, std::int64_t pe) {
                return pe_list(t.cluster().on_same_node(python::checked_pe(t.cluster(), pe)));
            },
            py::arg("pe"), "The other PEs of the PE's node.")
        .def(
            "neighbors",
            [](const Topology& t, const std::string& vertex) {
                const Cluster& k = t.cluster();
                const VertexId v = k.require_vertex(vertex);
                const auto to = k.network().neighbors(v);
                const auto links = k.network().neighbor_links(v);
                py::list out;
                for (std::size_t i = 0; i < to.size(); ++i)
                    out.append(py::make_tuple(name(k.vertex_name(to[i])),
                                              k.network().links()[links[i]].latency_ns));
                return out;
            },
            py::arg("name"),
            "Machines and switches adjacent to a machine or switch: [(name, latency_ns)].")
        .def(
            "forwards",
            [](const Topology& t, const std::string& vertex) {
                const Cluster& k = t.cluster();
                return k.network().forwards(k.require_vertex(vertex));
            },
            py::arg("name"),
            "Whether paths may pass through a machine or switch: switches always; machines "
            "unless they are end hosts (hosts of a real fabric do not forward traffic).")
        .def(
            "proximity",
            [](const Topology& t, std::int64_t a, std::int64_t b) {
                const Cluster& k = t.cluster();
                return static_cast<int>(
                    k.proximity(python::checked_pe(k, a), python::checked_pe(k, b)));
            },
            py::arg("a"), py::arg("b"),
            "3 same PE, 2 same node, 1 same machine, 0 different machines.")
        .def(
            "common_ancestor",
            [](const Topology& t, std::int64_t a, std::int64_t b) -> py::object {
                const Cluster& k = t.cluster();
                const auto anc =
                    k.common_ancestor(python::checked_pe(k, a), python::checked_pe(k, b));
                if (!anc) return py::none();
                return py::module_::import("nettopo").attr("Ancestor")(
                    name(k.machine_name(anc->machine)), name(to_string(anc->type)),
                    anc->logical_index, anc->depth);
            },
            py::arg("a"), py::arg("b"),
            "Deepest object containing both PEs, as Ancestor(machine, type, logical_index, "
            "depth), numbered as hwloc numbers levels (depth: of its level, 0 the Machine); "
            "None for PEs of two machines.");
}

// One-off network queries search like nettopo-query (no index); the engine
// is not thread-safe, so these keep the GIL.
void bind_network(py::class_<Topology>& c) {
    c.def(
         "hops",
         [](Topology& t, std::int64_t a, std::int64_t b) {
             const Cluster& k = t.cluster();
             return t.engine().hop_count(python::checked_pe(k, a), python::checked_pe(k, b));
         },
         py::arg("a"), py::arg("b"),
         "Fewest network links between the PEs' machines (0 inside one); None if unreachable.")
        .def(
            "distance",
            [](Topology& t, std::int64_t a, std::int64_t b) {
                const Cluster& k = t.cluster();
                return t.engine().distance(python::checked_pe(k, a), python::checked_pe(k, b));
            },
            py::arg("a"), py::arg("b"),
            "Latency between two PEs in ns: 0 for the same PE, the meeting level's latency "
            "inside a machine, else the least total link latency; None if unreachable.")
        .def(
            "path",
            [](Topology& t, std::int64_t a, std::int64_t b, bool by_hops) -> py::object {
                const Cluster& k = t.cluster();
                const auto p = t.engine().path(python::checked_pe(k, a), python::checked_pe(k, b),
                                               by_hops ? PathMetric::Hops : PathMetric::Latency);
                if (!p) return py::none();
                py::list names;
                for (VertexId v : *p) names.append(name(k.vertex_name(v)));
                return names;
            },
            py::arg("a"), py::arg("b"), py::kw_only(), py::arg("by_hops") = false,
            "Machines and switches on one shortest path (least latency, or fewest hops); "
            "None if unreachable.")
        .def(
            "nearest",
            [](Topology& t, std::int64_t pe, std::int64_t k) {
                const Cluster& cluster = t.cluster();
                const std::uint32_t capped = python::capped_k(k, cluster.num_pes());
                const PeId p = python::checked_pe(cluster, pe);
                py::list out;
                for (const NearPe& n : t.engine().nearest(p, capped))
                    out.append(py::make_tuple(n.pe.value, n.distance_ns));
                return out;
            },
            py::arg("pe"), py::arg("k"),
            "The k PEs closest to pe (pe excluded), ties by PE id: [(pe, distance_ns)].");
}

void bind_batches(py::class_<Topology>& c) {
    c.def(
         "distances",
         [](Topology& t, const py::object& pairs) {
             return batch<double>(t, pairs, true,
                                  [&](auto ids, const DistanceIndex* index, std::span<double> out) {
                                      python::distances_ns(t.cluster(), *index, ids, out);
                                  });
         },
         py::arg("pairs"),
         "distance() of every row of an (n, 2) integer array: float64 (n,), NaN if "
         "unreachable. Through the distance index, built on first use.")
        .def(
            "hop_counts",
            [](Topology& t, const py::object& pairs) {
                return batch<std::int64_t>(
                    t, pairs, true,
                    [&](auto ids, const DistanceIndex* index, std::span<std::int64_t> out) {
                        python::hop_counts(t.cluster(), *index, ids, out);
                    });
            },
            py::arg("pairs"),
            "hops() of every row of an (n, 2) integer array: int64 (n,), -1 if unreachable. "
            "Through the distance index, built on first use.")
        .def(
            "proximities",
            [](Topology& t, const py::object& pairs) {
                return batch<std::int8_t>(
                    t, pairs, false,
                    [&](auto ids, const DistanceIndex*, std::span<std::int8_t> out) {
                        python::proximities(t.cluster(), ids, out);
                    });
            },
            py::arg("pairs"), "proximity() of every row of an (n, 2) integer array: int8 (n,).")
        .def(
            "build_index",
            [](Topology& t) {
                const py::gil_scoped_release release;
                return t.index().description();
            },
            "Builds the distance index of the batch queries now (they build it on first use) "
            "and says what kind was built.");
}

} // namespace

PYBIND11_MODULE(nettopo, m) {
    m.doc() = "nettopo: cluster topologies (machines, nodes, PEs and the network) and the "
              "queries of the Net Topo thesis. t = nettopo.load(path).";

    // nettopo.Error for bad input (file:line in the message); bad ids are
    // IndexError and other bad requests ValueError. Later translators are
    // tried first.
    py::register_exception<Error>(m, "Error");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const python::IdError& e) {
            PyErr_SetString(PyExc_IndexError, e.what());
        } catch (const UsageError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });

    m.attr("Ancestor") = py::module_::import("collections")
                             .attr("namedtuple")("Ancestor", "machine type logical_index depth");

    py::class_<Topology> topology(m, "Topology",
                                  "A loaded cluster. PEs and nodes are ids from 0, machines "
                                  "and switches are names.");
    bind_counts(topology);
    bind_structure(topology);
    bind_network(topology);
    bind_batches(topology);
    python::bind_devices(topology);
    python::bind_jobs(m, topology);
    topology.def("__repr__", [](const Topology& t) {
        const Cluster& k = t.cluster();
        return "<nettopo.Topology '" + k.name() + "': " + std::to_string(k.num_machines()) +
               " machines, " + std::to_string(k.num_pes()) + " PEs, " +
               std::to_string(k.num_switches()) + " switches>";
    });

    m.def(
        "load",
        [](const std::filesystem::path& path, const std::string& node_level,
           bool allow_disconnected) {
            const LoadOptions options = load_options(node_level, allow_disconnected);
            const py::gil_scoped_release release;
            return std::make_unique<Topology>(path.string(), options);
        },
        py::arg("path"), py::kw_only(), py::arg("node_level") = "auto",
        py::arg("allow_disconnected") = false,
        "Loads a nettopo archive, a text description or an hwloc XML export (recognised by "
        "content). node_level: where the input does not choose ('auto', 'l3', 'core', 'numa', "
        "...). Raises nettopo.Error naming the file when it cannot be read.");
}
