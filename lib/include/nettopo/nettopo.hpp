/// \file
/// nettopo: how close are two PEs of a cluster? One include for programs that
/// use the library (link nettopo::nettopo with CMake, or `pkg-config nettopo`).
///
/// The entry points:
/// - load_cluster(path): an archive, description, image or hwloc XML export
///   (load_topology: with the distance index an image keeps); discover_cluster():
///   this machine through hwloc (formats/load.hpp).
/// - generate_from_spec("torus --dims 8x8") or generate(family, machine): a
///   generated family (gen/generate.hpp).
/// - assemble_from_files(sources, options): a real cluster from the hosts' hwloc
///   exports and a fabric (assemble/assemble.hpp).
/// - save_archive(cluster, path), save_image: write it (formats/archive.hpp, image.hpp).
/// - Cluster: machine_of, node_of, proximity, common_ancestor (model/cluster.hpp).
/// - QueryEngine(cluster): hop_count, distance, path, nearest (query/query_engine.hpp).
/// - plan_distances + build_distances: a DistanceIndex for many machine pairs
///   (query/distance_plan.hpp).
/// - JobView(cluster, machines_named(...)), summarize_allocation, distribute:
///   a job's allocation (model/job_view.hpp, query/allocation.hpp, query/distribute.hpp).
/// - make_strategy(name) and simulate: load balancing (balance/balance.hpp, simulator.hpp).
///
/// \code
///   using namespace nettopo;
///   Cluster c = load_cluster("net_topo.xml");     // archive, description or hwloc XML
///   c.proximity(PeId(a), PeId(b));                // SamePe, SameNode, SameMachine, OtherMachine
///   QueryEngine q(c);                             // closed form at once, else an index
///   q.distance(PeId(a), PeId(b));                 // ns; nullopt when unreachable
///   q.hop_count(PeId(a), PeId(b)); q.nearest(PeId(a), 8);
/// \endcode
///
/// The headers are grouped by layer (share/doc/architecture.md); each says
/// what its calls cost, throw and promise about threads. Errors are
/// nettopo::InputError (bad data, with file and line) and nettopo::UsageError
/// (a bad argument), both nettopo::Error. C programs use <nettopo/nettopo.h>.
#pragma once

#include "nettopo/assemble/assemble.hpp"
#include "nettopo/balance/balance.hpp"
#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/balance/simulator.hpp"
#include "nettopo/balance/workload.hpp"
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/cluster_diff.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/model/model_bytes.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/allocation.hpp"
#include "nettopo/query/distance_index.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostfile.hpp"
#include "nettopo/support/hostlist.hpp"
#include "nettopo/support/ids.hpp"
#include "nettopo/tree/lca.hpp"
#include "nettopo/tree/machine_tree.hpp"
