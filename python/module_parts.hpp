// The parts of the Python module beyond the thesis' queries, bound by
// nettopo_module.cpp: a machine's devices (device_queries.cpp) and a job's
// allocation and placement (job_queries.cpp).
#pragma once

#include "topology.hpp"

#include <pybind11/pybind11.h>

namespace nettopo::python {

// Topology.devices, cpuset_of, pes_of_device, nearest_devices, nearest_to_device.
void bind_devices(pybind11::class_<Topology>& c);

// nettopo.View and Topology.view, distribute, distribute_gpus, gpu_env; the
// namedtuples Placement and GpuRank.
void bind_jobs(pybind11::module_& m, pybind11::class_<Topology>& c);

} // namespace nettopo::python
