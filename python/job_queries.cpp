// A job from Python: its allocation as a View (nettopo-query --nodes), where
// its ranks go (distribute), and for GPU jobs each rank's GPUs, PUs and
// adapters and the file a rank's wrapper sources (distribute --gpus-per-rank
// [--env]). nettopo/model/job_view.hpp, nettopo/query/distribute.hpp,
// nettopo/query/gpu_binding.hpp and nettopo/balance/gpu_launch.hpp compute.
#include "module_parts.hpp"
#include "nettopo/balance/gpu_launch.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/query/allocation.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/query/gpu_binding.hpp"
#include "nettopo/support/detail/text.hpp"

#include <optional>
#include <pybind11/stl.h>
#include <string>
#include <vector>

namespace py = pybind11;

namespace nettopo::python {

namespace {

// The machines of a hostlist given as an argument: what is wrong with it is a
// bad request (ValueError), as for nettopo-query --nodes.
std::vector<MachineId> hostlist_machines(const Cluster& cluster, const std::string& hostlist) {
    try {
        return machines_of_hostlist(cluster, hostlist, "hostlist");
    } catch (const InputError& e) {
        throw UsageError(e.what());
    }
}

// A job's allocation over a loaded topology (Python keeps the topology alive
// as long as the view).
class View {
public:
    View(Topology& t, std::string hostlist)
        : topology_(&t), hostlist_(std::move(hostlist)),
          view_(t.cluster(), hostlist_machines(t.cluster(), hostlist_)) {}

    Topology& topology() const { return *topology_; }
    const JobView& view() const { return view_; }
    const std::string& hostlist() const { return hostlist_; }

    // A view PE id from Python, with nettopo-query's message when out of range.
    PeId pe(std::int64_t index) const {
        const std::uint32_t n = view_.num_pes();
        if (index < 0 || index >= n)
            throw IdError("PE " + std::to_string(index) + " does not exist: the allocation has " +
                          counted(n, "PE") +
                          (n == 0 ? " (none)" : " (0.." + std::to_string(n - 1) + ")"));
        return view_.cluster_pe(static_cast<std::uint32_t>(index));
    }

private:
    Topology* topology_;
    std::string hostlist_;
    JobView view_;
};

// The machines of `nodes`: every machine (None), a hostlist, or a View of `t`.
std::vector<MachineId> allocation(Topology& t, const py::object& nodes) {
    if (nodes.is_none()) return all_machines(t.cluster());
    if (py::isinstance<View>(nodes)) {
        const View& v = nodes.cast<const View&>();
        if (&v.topology() != &t) throw UsageError("nodes: the view is of another topology");
        return {v.view().machines().begin(), v.view().machines().end()};
    }
    if (py::isinstance<py::str>(nodes))
        return hostlist_machines(t.cluster(), nodes.cast<std::string>());
    throw py::type_error("nodes: expected None, a hostlist or a View");
}

std::uint64_t rank_count(std::int64_t n) {
    if (n < 0)
        throw UsageError("the number of ranks must not be negative, got " + std::to_string(n));
    return static_cast<std::uint64_t>(n);
}

std::vector<GpuRank> bind_gpus(Topology& t, std::int64_t n, std::int64_t gpus_per_rank,
                               const std::optional<std::int64_t>& nics_per_rank,
                               const py::object& nodes) {
    const auto count = [](std::int64_t v, const char* what) {
        if (v < 0 || v > 0xffffffffLL)
            throw UsageError(std::string(what) + " must be in 0..4294967295, got " +
                             std::to_string(v));
        return static_cast<std::uint32_t>(v);
    };
    GpuBindRequest request;
    request.ranks = rank_count(n);
    request.gpus_per_rank = count(gpus_per_rank, "gpus_per_rank");
    if (nics_per_rank) request.nics_per_rank = count(*nics_per_rank, "nics_per_rank");
    return distribute_gpus(t.cluster(), allocation(t, nodes), request);
}

py::str text(std::string_view s) {
    return py::str(s.data(), s.size());
}

} // namespace

void bind_jobs(py::module_& m, py::class_<Topology>& c) {
    const py::object namedtuple = py::module_::import("collections").attr("namedtuple");
    m.attr("Placement") = namedtuple("Placement", "pe machine pu os_index");
    m.attr("GpuRank") = namedtuple("GpuRank", "machine cpuset gpus nics pes");

    py::class_<View> view(m, "View",
                          "A job's allocation: machines of a topology in a hostlist's order, "
                          "their PEs numbered 0..num_pes-1 within it (each machine's in logical "
                          "order), as nettopo-query --nodes numbers them.");
    view.def_property_readonly(
            "topology", [](const View& v) -> Topology& { return v.topology(); },
            py::return_value_policy::reference, "The topology viewed.")
        .def_property_readonly("hostlist", &View::hostlist, "The hostlist it was made from.")
        .def_property_readonly(
            "num_pes", [](const View& v) { return v.view().num_pes(); }, "Number of PEs.")
        .def_property_readonly(
            "num_machines", [](const View& v) { return v.view().num_machines(); },
            "Number of machines.")
        .def_property_readonly(
            "num_nodes", [](const View& v) { return v.view().num_nodes(); }, "Number of nodes.")
        .def_property_readonly(
            "machines",
            [](const View& v) {
                py::list names;
                for (MachineId x : v.view().machines())
                    names.append(text(v.topology().cluster().machine_name(x)));
                return names;
            },
            "Machine names, in the allocation's order.")
        .def(
            "cluster_pe", [](const View& v, std::int64_t pe) { return v.pe(pe).value; },
            py::arg("pe"), "The topology's id of a view PE.")
        .def(
            "view_pe",
            [](const View& v, std::int64_t pe) -> std::optional<std::uint32_t> {
                return v.view().view_pe(checked_pe(v.topology().cluster(), pe));
            },
            py::arg("pe"), "The view's id of a topology PE; None outside the allocation.")
        .def(
            "proximity",
            [](const View& v, std::int64_t a, std::int64_t b) {
                return static_cast<int>(v.topology().cluster().proximity(v.pe(a), v.pe(b)));
            },
            py::arg("a"), py::arg("b"), "Topology.proximity of two view PEs.")
        .def(
            "hops",
            [](const View& v, std::int64_t a, std::int64_t b) {
                return v.topology().engine().hop_count(v.pe(a), v.pe(b));
            },
            py::arg("a"), py::arg("b"), "Topology.hops of two view PEs.")
        .def(
            "distance",
            [](const View& v, std::int64_t a, std::int64_t b) {
                return v.topology().engine().distance(v.pe(a), v.pe(b));
            },
            py::arg("a"), py::arg("b"), "Topology.distance of two view PEs.")
        .def(
            "nearest",
            [](const View& v, std::int64_t pe, std::int64_t k) {
                const std::uint32_t capped = capped_k(k, v.view().num_pes());
                const PeId p = v.pe(pe);
                py::list out;
                for (const NearPe& n : nearest_in_view(v.topology().engine(), v.view(), p, capped))
                    out.append(py::make_tuple(*v.view().view_pe(n.pe), n.distance_ns));
                return out;
            },
            py::arg("pe"), py::arg("k"),
            "The k PEs of the allocation closest to a view PE (excluded), ties by view id: "
            "[(view_pe, distance_ns)].")
        .def("__repr__", [](const View& v) {
            return "<nettopo.View '" + v.hostlist() +
                   "': " + std::to_string(v.view().num_machines()) + " machines, " +
                   std::to_string(v.view().num_pes()) + " PEs>";
        });

    c.def(
         "view", [](Topology& t, const std::string& hostlist) { return View(t, hostlist); },
         py::arg("hostlist"), py::keep_alive<0, 1>(),
         "The allocation of the machines a Slurm hostlist names ('node[01-04,07]', as "
         "$SLURM_JOB_NODELIST; fully qualified names find their short ones), in its order.")
        .def(
            "distribute",
            [](Topology& t, std::int64_t n, const std::string& policy, const py::object& nodes) {
                const Cluster& k = t.cluster();
                const DistributePolicy p =
                    read_named("policy", [&] { return parse_distribute_policy(policy); });
                const py::object placement = py::module_::import("nettopo").attr("Placement");
                py::list out;
                for (PeId pe : distribute(k, allocation(t, nodes), rank_count(n), p)) {
                    const MachineId m = k.machine_of(pe);
                    const MachineTree& tree = k.machine_type(m).tree();
                    const std::uint32_t pu = k.local_pu(pe);
                    const std::uint32_t os = tree.object(tree.pu(pu)).os_index;
                    out.append(placement(pe.value, text(k.machine_name(m)), pu,
                                         os == unknown_os_index ? py::object(py::none())
                                                                : py::object(py::int_(os))));
                }
                return out;
            },
            py::arg("n"), py::kw_only(), py::arg("policy") = "scatter",
            py::arg("nodes") = py::none(),
            "Where each of n ranks runs (nettopo-query distribute): 'scatter' (as far apart as "
            "switches, hosts and each host's tree allow) or 'compact' (closest first), over "
            "every machine or `nodes` (a hostlist or a View): [Placement(pe, machine, pu, "
            "os_index)], pu the PU's logical index in its machine.")
        .def(
            "distribute_gpus",
            [](Topology& t, std::int64_t n, std::int64_t gpus_per_rank,
               const std::optional<std::int64_t>& nics_per_rank, const py::object& nodes) {
                const Cluster& k = t.cluster();
                const py::object gpu_rank = py::module_::import("nettopo").attr("GpuRank");
                py::list out;
                for (const GpuRank& r : bind_gpus(t, n, gpus_per_rank, nics_per_rank, nodes)) {
                    const auto devices = k.machine_type(r.machine).tree().devices();
                    py::list gpus, nics, pes;
                    for (std::uint32_t g : r.gpus) gpus.append(devices[g].name);
                    for (std::uint32_t x : r.nics) nics.append(devices[x].name);
                    const std::uint32_t first = k.pes_of_machine(r.machine).first;
                    for (std::uint32_t pu : r.pus) pes.append(first + pu);
                    out.append(gpu_rank(text(k.machine_name(r.machine)), rank_cpu_list(k, r), gpus,
                                        nics, pes));
                }
                return out;
            },
            py::arg("n"), py::kw_only(), py::arg("gpus_per_rank") = 1,
            py::arg("nics_per_rank") = py::none(), py::arg("nodes") = py::none(),
            "A GPU job's binding (nettopo-query distribute N --gpus-per-rank G): each rank's "
            "host, the CPU list of the PUs local to its GPUs (OS indexes), its GPUs and its "
            "nearest fabric adapters (nics_per_rank, default 1 where a host has one): "
            "[GpuRank(machine, cpuset, gpus, nics, pes)].")
        .def(
            "gpu_env",
            [](Topology& t, std::int64_t n, std::int64_t gpus_per_rank,
               const std::optional<std::int64_t>& nics_per_rank, const py::object& nodes,
               const std::string& command) {
                return gpu_env_script(
                    t.cluster(), bind_gpus(t, n, gpus_per_rank, nics_per_rank, nodes), command);
            },
            py::arg("n"), py::kw_only(), py::arg("gpus_per_rank") = 1,
            py::arg("nics_per_rank") = py::none(), py::arg("nodes") = py::none(),
            py::arg("command") = "",
            "The shell file a rank's launch wrapper sources for distribute_gpus' binding "
            "(nettopo-query distribute ... --env): CUDA_VISIBLE_DEVICES or the vendor's, "
            "UCX_NET_DEVICES, NCCL_IB_HCA, NETTOPO_CPUSET; `command` goes in its first "
            "comment line.");
}

} // namespace nettopo::python
