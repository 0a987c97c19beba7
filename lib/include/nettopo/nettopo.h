/** \file
 * nettopo's C API: load a cluster topology and ask it the thesis' queries
 * (counts, machine of a PE, proximity, hops, latency distance, k nearest PEs),
 * a machine's GPUs and network adapters (their CPU sets, NUMA nodes, nearest
 * PEs and devices), a job's allocation (a view over a hostlist) and where its
 * ranks go (distribute, and distribute_gpus for GPU jobs), from C99, and
 * through it from Fortran's bind(C), Python's ctypes, Julia or Rust. Every
 * answer equals what `nettopo-query -i FILE <query>` prints.
 *
 * Conventions
 * - PEs are numbered 0..nettopo_num_pes()-1 and machines
 *   0..nettopo_num_machines()-1, as nettopo-query numbers them. A device is
 *   a pair (machine, index), the index 0..nettopo_num_devices()-1 in the
 *   order `nettopo-query devices MACHINE` lists them.
 * - Functions returning int return NETTOPO_OK (0) on success, a positive
 *   status for an answer that is not a number (NETTOPO_UNREACHABLE,
 *   NETTOPO_NOT_FOUND), or a negative NETTOPO_ERR_* code. On an error they
 *   write nothing through their output pointers and set the calling thread's
 *   message (nettopo_last_error).
 * - Strings a handle owns (names) stay valid until that handle is closed.
 * - Text computed for the caller (a CPU set, a launch file) is copied into
 *   the caller's buffer as snprintf does: at most `size` bytes with the
 *   terminating NUL (nothing when size is 0, so buf may then be NULL), and
 *   the text's whole length (without the NUL) stored in *length when length
 *   is not NULL. The text was cut when *length >= size: call again with
 *   *length + 1 bytes. Arrays of unknown size (NUMA nodes) follow the same
 *   rule: at most `capacity` values written, the whole count in *count.
 * - No function throws, aborts or exits: every failure is a return code.
 *
 * \threads Every function may be called from several threads at once, on
 * one handle or several, including those taking a non-const handle (their
 * mutable state is internal and synchronised). The one exception: a
 * nettopo_*_close must not run while another call uses the same object, and
 * the object must not be used after it; a topology is closed after its views
 * and GPU bindings.
 */
#ifndef NETTOPO_NETTOPO_H
#define NETTOPO_NETTOPO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
#define NETTOPO_OK 0              /**< success */
#define NETTOPO_UNREACHABLE 1     /**< no network path between the two PEs' machines */
#define NETTOPO_NOT_FOUND 2       /**< no such name in the topology, no such PE in the view */
#define NETTOPO_ERR_INVALID (-1)  /**< a NULL handle or pointer, an argument out of its domain */
#define NETTOPO_ERR_INPUT (-2)    /**< a file that cannot be read or is not a valid topology */
#define NETTOPO_ERR_NOMEM (-3)    /**< memory ran out */
#define NETTOPO_ERR_RANGE (-4)    /**< an index (PE, machine, device, rank) past the end */
#define NETTOPO_ERR_INTERNAL (-5) /**< any other failure inside the library */

/** A loaded topology; immutable apart from internal caches. */
typedef struct nettopo_topology nettopo_topology;

/** The library's version, e.g. "0.1.0". Never NULL; a static string.
 * O(1), thread-safe. */
const char* nettopo_version(void);

/** The message of the calling thread's last failed call, e.g. "nettopo_hops:
 * PE 99 does not exist: the cluster has 32 PEs (0..31)"; "" when no call
 * of this thread has failed. Never NULL. Successful calls leave it as it is
 * (as errno). The string stays valid until the next failing call of the same
 * thread. O(1). Thread-safe: each thread has its own message. */
const char* nettopo_last_error(void);

/** Loads the topology at `path`, recognised by content as nettopo-query does:
 * a nettopo archive, a text description, or an hwloc XML export of one
 * machine ("-" reads standard input). Default load options: the automatic
 * node level, a description's network must be connected.
 * On success stores a new handle in *out (release it with nettopo_close) and
 * returns NETTOPO_OK. On failure stores NULL in *out (when out is not NULL)
 * and returns NETTOPO_ERR_INVALID (path or out NULL), NETTOPO_ERR_INPUT (a
 * message naming the file, and the line where there is one),
 * NETTOPO_ERR_NOMEM, or NETTOPO_ERR_INTERNAL when hwloc itself fails.
 * Cost: O(the file's size) to read it, plus building the cluster
 * (O(V + E log E)); no distance index yet.
 * Thread-safe. hwloc parses an XML file in the calling thread (nothing is
 * forked); exports hwloc 2.9 is known to crash on are refused with
 * NETTOPO_ERR_INPUT before hwloc sees them. */
int nettopo_open(const char* path, nettopo_topology** out);

/** Releases the handle and everything it holds, O(what it holds); NULL is
 * ignored. Not thread-safe with respect to the handle: no other call may use
 * it at the same time or afterwards. */
void nettopo_close(nettopo_topology* t);

/** Number of PEs (processing elements, hwloc's PUs of every machine); 0 with
 * NETTOPO_ERR_INVALID's message for a NULL handle. O(1), thread-safe. */
uint32_t nettopo_num_pes(const nettopo_topology* t);

/** Number of machines (hosts); 0 for a NULL handle, as nettopo_num_pes.
 * O(1), thread-safe. */
uint32_t nettopo_num_machines(const nettopo_topology* t);

/** Number of nodes (groups of PEs at each machine's node level, e.g. one per
 * L3); 0 for a NULL handle, as nettopo_num_pes. O(1), thread-safe. */
uint32_t nettopo_num_nodes(const nettopo_topology* t);

/** Stores in *machine the index of the machine holding `pe`.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or machine); NETTOPO_ERR_RANGE (pe
 * past the end). O(1) (O(log R) for R runs of machine types), thread-safe. */
int nettopo_machine_of(const nettopo_topology* t, uint32_t pe, uint32_t* machine);

/** The name of machine `machine` (as nettopo-query machine-of prints it), a
 * NUL-terminated string owned by the handle and valid until nettopo_close;
 * NULL with NETTOPO_ERR_INVALID's or NETTOPO_ERR_RANGE's message for a NULL
 * handle or an index past the end. O(1), thread-safe. */
const char* nettopo_machine_name(const nettopo_topology* t, uint32_t machine);

/** Stores in *level the thesis' proximity of two PEs: 3 the same PE, 2 the
 * same node, 1 the same machine, 0 different machines.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or level); NETTOPO_ERR_RANGE (a or
 * b past the end). O(1), a few nanoseconds; thread-safe. */
int nettopo_proximity(const nettopo_topology* t, uint32_t a, uint32_t b, int* level);

/** Stores in *hops the fewest network links between the machines of PEs a
 * and b (0 inside one machine).
 * NETTOPO_OK; NETTOPO_UNREACHABLE (the machines are in different components
 * of a disconnected network; *hops is not written); NETTOPO_ERR_INVALID (NULL
 * t or hops); NETTOPO_ERR_RANGE; NETTOPO_ERR_NOMEM.
 * The first call of nettopo_hops, nettopo_distance_ns or nettopo_nearest on a
 * handle builds its distance index (once; concurrent first callers wait for
 * it), at the cost of C++'s build_distance_index with its default policy (a
 * family's closed form at once, else the general index within 512 MiB);
 * later calls look the pair up in it: O(log R) plus the index's answer, O(1)
 * for a closed form or a table. Thread-safe. */
int nettopo_hops(nettopo_topology* t, uint32_t a, uint32_t b, uint32_t* hops);

/** Stores in *ns the latency between PEs a and b in nanoseconds: 0 for the
 * same PE, the latency of the level where they meet inside one machine, else
 * the smallest total link latency between their machines.
 * Return codes, cost (after the first call: O(log R) plus the index's
 * answer) and thread safety as nettopo_hops. */
int nettopo_distance_ns(nettopo_topology* t, uint32_t a, uint32_t b, double* ns);

/** The k PEs closest to `pe` (pe itself excluded), nearest first, ties broken
 * by the smaller PE id: stores their ids in pes[0..*found-1] and, when ns is
 * not NULL, their distances (as nettopo_distance_ns) in ns[0..*found-1].
 * *found < k when fewer PEs are reachable. pes (and ns) must have room for k
 * values; k may exceed the number of PEs.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or found, NULL pes with k > 0);
 * NETTOPO_ERR_RANGE (pe past the end); NETTOPO_ERR_NOMEM.
 * Cost: a Dijkstra search from pe's machine that stops once k PEs are
 * settled, O((V + E) log V) at worst. Thread-safe; builds the distance index
 * as nettopo_hops. */
int nettopo_nearest(nettopo_topology* t, uint32_t pe, uint32_t k, uint32_t* pes, double* ns,
                    uint32_t* found);

/* ---- Machines and PEs -------------------------------------------------- */

/** Stores in *machine the index of the machine named `name` (as
 * nettopo_machine_name gives it, or its short name before the first '.').
 * NETTOPO_OK; NETTOPO_NOT_FOUND (no machine has that name; nothing written);
 * NETTOPO_ERR_INVALID (NULL t, name or machine). O(log machines),
 * thread-safe. */
int nettopo_find_machine(const nettopo_topology* t, const char* name, uint32_t* machine);

/** Stores in *first and *count the PEs of machine `machine`: the PEs from
 * first to first + count - 1, in the machine's logical order (PE first + i is
 * its PU of logical index i).
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t, first or count); NETTOPO_ERR_RANGE
 * (machine past the end). O(1) (O(log R) for R runs of machine types),
 * thread-safe. */
int nettopo_machine_pes(const nettopo_topology* t, uint32_t machine, uint32_t* first,
                        uint32_t* count);

/** Stores in *os_index the operating system's index of PE `pe`'s PU (what
 * taskset, sched_setaffinity and hwloc's "P#" use).
 * NETTOPO_OK; NETTOPO_NOT_FOUND (the machine's source gave no OS indexes;
 * nothing written); NETTOPO_ERR_INVALID (NULL t or os_index);
 * NETTOPO_ERR_RANGE (pe past the end). O(log R), thread-safe. */
int nettopo_pe_os_index(const nettopo_topology* t, uint32_t pe, uint32_t* os_index);

/* ---- Devices: GPUs, network adapters ----------------------------------- */

/* What a device is (nettopo_device.kind); NETTOPO_DEVICE_ANY asks for
 * every kind. */
#define NETTOPO_DEVICE_ANY (-1)  /**< any kind (nettopo_nearest_devices) */
#define NETTOPO_DEVICE_GPU 0     /**< a GPU a compute runtime enumerates */
#define NETTOPO_DEVICE_NIC 1     /**< a network adapter */
#define NETTOPO_DEVICE_STORAGE 2 /**< a block device */
#define NETTOPO_DEVICE_OTHER 3   /**< anything else */

/** One device as `nettopo-query devices` prints it. The strings belong to the
 * topology handle (valid until nettopo_close); none is NULL, an unknown
 * field is "". */
typedef struct nettopo_device {
    int kind;               /**< NETTOPO_DEVICE_GPU, _NIC, _STORAGE or _OTHER */
    const char* kind_name;  /**< "gpu", "nic", "storage" or "other" */
    const char* name;       /**< unique in its machine: "gpu2", "mlx5_0", "eno1" */
    const char* names;      /**< all hwloc's names, comma-separated: "cuda2,nvml2,opencl0d2" */
    const char* pci_bus_id; /**< "0000:cb:00.0", or "" outside PCI */
    const char* vendor;     /**< "NVIDIA Corporation", or "" */
    const char* model;      /**< "NVIDIA H100 80GB HBM3", or "" */
    const char* subtype;    /**< the backends or link: "CUDA,NVML,OpenCL", "InfiniBand" */
} nettopo_device;

/** Stores in *count the number of devices of machine `machine` (GPUs, network
 * adapters; share/doc/gpu-nodes.md says which hwloc devices are kept).
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or count); NETTOPO_ERR_RANGE
 * (machine past the end). O(log R), thread-safe. */
int nettopo_num_devices(const nettopo_topology* t, uint32_t machine, uint32_t* count);

/** Fills *info with device `device` of machine `machine`.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or info); NETTOPO_ERR_RANGE
 * (machine or device past the end). O(log R), thread-safe. */
int nettopo_device_info(const nettopo_topology* t, uint32_t machine, uint32_t device,
                        nettopo_device* info);

/** Copies the value of identity `name` of device `device` of machine
 * `machine` into buf, as the conventions above say: this host's own
 * "NodeGUID", "SysImageGUID", "Port1LID", "Port1State" of an adapter,
 * "Address" of an interface, "NVIDIAUUID", "AMDUUID", "LevelZeroUUID" or a
 * serial number of a GPU (share/doc/gpu-nodes.md, "Per-host identities"),
 * the first of the device's views that has it.
 * NETTOPO_OK; NETTOPO_NOT_FOUND (the source gave no such identity; nothing
 * written); NETTOPO_ERR_INVALID (NULL t or name, NULL buf with size > 0);
 * NETTOPO_ERR_RANGE (machine or device past the end); NETTOPO_ERR_NOMEM.
 * O(identities of the machine), thread-safe. */
int nettopo_device_identity(const nettopo_topology* t, uint32_t machine, uint32_t device,
                            const char* name, char* buf, size_t size, size_t* length);

/** Stores in *machine and *device the one device `name` names: "HOST:NAME"
 * ("dgx01:gpu2"), or a bare name ("gpu2", "cuda2", "mlx5_0", any of the
 * device's names) that one machine only has.
 * NETTOPO_OK; NETTOPO_NOT_FOUND (no device of that name; nothing written);
 * NETTOPO_ERR_INVALID (NULL t, name, machine or device; a bare name of
 * several machines' devices, the message naming two of them); NETTOPO_ERR_NOMEM.
 * O(machines x devices x names) for a bare name, O(devices x names) with a
 * host. Thread-safe. */
int nettopo_find_device(const nettopo_topology* t, const char* name, uint32_t* machine,
                        uint32_t* device);

/** Stores in *first and *count the PEs local to the device (its locality's
 * PUs, what `hwloc-calc --po -I pu os=NAME` lists): the PEs from first to
 * first + count - 1.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t, first or count); NETTOPO_ERR_RANGE
 * (machine or device past the end). O(log R), thread-safe. */
int nettopo_device_pes(const nettopo_topology* t, uint32_t machine, uint32_t device,
                       uint32_t* first, uint32_t* count);

/** Copies the OS indexes of the device's local PEs as a CPU list
 * ("98-111,210-223", what `nettopo-query cpuset-of gpu2` prints and taskset
 * -c reads) into buf, as the conventions above say (PUs without OS index:
 * their logical index).
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t, NULL buf with size > 0);
 * NETTOPO_ERR_RANGE (machine or device past the end); NETTOPO_ERR_NOMEM.
 * O(local PUs), thread-safe. */
int nettopo_device_cpuset(const nettopo_topology* t, uint32_t machine, uint32_t device, char* buf,
                          size_t size, size_t* length);

/** The OS indexes of the NUMA nodes local to the device (those whose PUs meet
 * its local PUs), ascending: at most `capacity` of them in nodes[], their
 * number in *count (see the conventions).
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or count, NULL nodes with capacity
 * > 0); NETTOPO_ERR_RANGE (machine or device past the end); NETTOPO_ERR_NOMEM.
 * O(NUMA nodes of the machine), thread-safe. */
int nettopo_device_numa_nodes(const nettopo_topology* t, uint32_t machine, uint32_t device,
                              uint32_t* nodes, uint32_t capacity, uint32_t* count);

/** The k devices of pe's machine nearest pe, only those of `kind` unless it is
 * NETTOPO_DEVICE_ANY (`nettopo-query nearest-device PE --kind KIND`): their
 * indexes in devices[0..*found-1] and, when latency_ns is not NULL, how far
 * each is (0 for a device local to pe; else the least latency between one of
 * its local PUs and pe) in latency_ns[0..*found-1]. Nearest first, ties in
 * the machine's device order; *found < k when the machine has fewer.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or found, NULL devices with k > 0,
 * a kind that is none of NETTOPO_DEVICE_*); NETTOPO_ERR_RANGE (pe past the
 * end); NETTOPO_ERR_NOMEM. O(D x NUMA nodes + D log D) for the machine's D
 * devices, thread-safe. */
int nettopo_nearest_devices(const nettopo_topology* t, uint32_t pe, int kind, uint32_t k,
                            uint32_t* devices, double* latency_ns, uint32_t* found);

/** The k PEs nearest the device (`nettopo-query nearest gpu2 K`): its local
 * PEs first (at 0 ns), then the other PEs of its machine by their latency
 * from it, then PEs of other machines by network distance; ties by PE id.
 * Ids in pes[0..*found-1], distances (ns) in ns[0..*found-1] when ns is not
 * NULL; k may exceed the number of PEs.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or found, NULL pes with k > 0);
 * NETTOPO_ERR_RANGE (machine or device past the end); NETTOPO_ERR_NOMEM.
 * Cost: O(P log P + P x NUMA nodes) for the device machine's P PEs, then
 * nettopo_nearest's search when k exceeds them. Thread-safe; builds the
 * distance index as nettopo_hops. */
int nettopo_nearest_to_device(nettopo_topology* t, uint32_t machine, uint32_t device, uint32_t k,
                              uint32_t* pes, double* ns, uint32_t* found);

/* ---- A job's view: the machines of an allocation ----------------------- */

/** A job's allocation: some machines of a topology, in a given order, their
 * PEs numbered 0..nettopo_view_num_pes()-1 within it (the first machine's
 * PEs in logical order, then the second's...), as `nettopo-query --nodes
 * HOSTLIST` numbers them. Immutable. */
typedef struct nettopo_view nettopo_view;

/** Opens the view of the machines a Slurm hostlist names ("node[01-04,07]",
 * as $SLURM_JOB_NODELIST; a name not found may be a machine's fully
 * qualified name), in the hostlist's order, a machine named twice kept once.
 * The view refers to t, which must stay open until nettopo_view_close.
 * On success stores a new view in *out and returns NETTOPO_OK. On failure
 * stores NULL in *out (when out is not NULL) and returns NETTOPO_ERR_INVALID
 * (NULL t, hostlist or out; a malformed hostlist; hosts not in the topology,
 * the message naming them), or NETTOPO_ERR_NOMEM.
 * O(names x log machines + machines + the view's PEs and nodes);
 * thread-safe. */
int nettopo_view_open(nettopo_topology* t, const char* hostlist, nettopo_view** out);

/** Releases the view, O(its size); NULL is ignored. Not thread-safe with
 * respect to the view (as nettopo_close). */
void nettopo_view_close(nettopo_view* v);

/** Number of PEs of the view; 0 with NETTOPO_ERR_INVALID's message for a
 * NULL view. O(1), thread-safe. */
uint32_t nettopo_view_num_pes(const nettopo_view* v);

/** Number of machines of the view; 0 for a NULL view. O(1), thread-safe. */
uint32_t nettopo_view_num_machines(const nettopo_view* v);

/** Number of nodes of the view; 0 for a NULL view. O(1), thread-safe. */
uint32_t nettopo_view_num_nodes(const nettopo_view* v);

/** Stores in *machine the topology's index of the view's i-th machine.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL v or machine); NETTOPO_ERR_RANGE (i
 * past the view's machines). O(1), thread-safe. */
int nettopo_view_machine(const nettopo_view* v, uint32_t i, uint32_t* machine);

/** Stores in *pe the topology's id of view PE `view_pe`.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL v or pe); NETTOPO_ERR_RANGE (view_pe
 * past the view's PEs). O(1), thread-safe. */
int nettopo_view_cluster_pe(const nettopo_view* v, uint32_t view_pe, uint32_t* pe);

/** Stores in *view_pe the view's id of the topology's PE `pe`.
 * NETTOPO_OK; NETTOPO_NOT_FOUND (pe's machine is not in the view; nothing
 * written); NETTOPO_ERR_INVALID (NULL v or view_pe); NETTOPO_ERR_RANGE (pe
 * past the topology's PEs). O(log R), thread-safe. */
int nettopo_view_pe(const nettopo_view* v, uint32_t pe, uint32_t* view_pe);

/** nettopo_proximity of two view PEs (`nettopo-query --nodes H proximity A
 * B`). Return codes as nettopo_proximity, NETTOPO_ERR_RANGE for view PEs past
 * the view's. O(1), thread-safe. */
int nettopo_view_proximity(const nettopo_view* v, uint32_t a, uint32_t b, int* level);

/** nettopo_hops of two view PEs. Return codes, cost (after the first call:
 * O(log R) plus the index's answer) and thread safety as nettopo_hops (it
 * builds the topology's distance index), NETTOPO_ERR_RANGE for view PEs past
 * the view's. */
int nettopo_view_hops(nettopo_view* v, uint32_t a, uint32_t b, uint32_t* hops);

/** nettopo_distance_ns of two view PEs. Return codes, cost (after the first
 * call: O(log R) plus the index's answer) and thread safety as
 * nettopo_distance_ns, NETTOPO_ERR_RANGE for view PEs past the view's. */
int nettopo_view_distance_ns(nettopo_view* v, uint32_t a, uint32_t b, double* ns);

/** The k PEs of the view closest to view PE `pe` (pe excluded), nearest
 * first, ties by view PE id (`nettopo-query --nodes H nearest PE K`): view
 * PE ids in pes[0..*found-1], distances in ns[0..*found-1] when ns is not
 * NULL. Return codes as nettopo_nearest (NETTOPO_ERR_RANGE for pe past the
 * view's PEs). Cost: one distance per machine of the view, then O(N log k)
 * for its N PEs. Thread-safe; builds the distance index as nettopo_hops. */
int nettopo_view_nearest(nettopo_view* v, uint32_t pe, uint32_t k, uint32_t* pes, double* ns,
                         uint32_t* found);

/* ---- Where a job's ranks go -------------------------------------------- */

#define NETTOPO_SCATTER 0 /**< ranks as far apart as the hierarchy allows (hwloc-distrib) */
#define NETTOPO_COMPACT 1 /**< PU after PU, closest first */

/** The PE of each rank 0..ranks-1 of a job spread over `allocation` (NULL:
 * every machine, in id order) by `policy` (`nettopo-query [--nodes H]
 * distribute N --policy P`; the rules are in nettopo/query/distribute.hpp):
 * pes[r] is rank r's PE (a topology PE id: nettopo_machine_of gives its
 * host, nettopo_pe_os_index the CPU to bind). pes must have room for
 * `ranks` values.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL t or pes, 0 ranks or more than
 * 100,000,000, a policy that is not NETTOPO_SCATTER or NETTOPO_COMPACT, a
 * view of another topology); NETTOPO_ERR_NOMEM. O(ranks + the allocation's
 * PUs and links), thread-safe. */
int nettopo_distribute(const nettopo_topology* t, const nettopo_view* allocation, uint64_t ranks,
                       int policy, uint32_t* pes);

/** The binding of a GPU job (nettopo_distribute_gpus): each rank's host,
 * PUs, GPUs and network adapters. Immutable. */
typedef struct nettopo_gpu_binding nettopo_gpu_binding;

/** One rank of a GPU binding, as `nettopo-query distribute N --gpus-per-rank
 * G` prints it. The strings and arrays belong to the binding (valid until
 * nettopo_gpu_binding_close); none is NULL. */
typedef struct nettopo_gpu_rank {
    uint32_t machine;            /**< its host's machine index */
    const char* host;            /**< its host's name */
    const char* cpuset;          /**< its PUs' OS indexes as a CPU list: "98-111,210-223" */
    const char* gpus;            /**< its GPUs' names, comma-separated: "gpu2" */
    const char* nics;            /**< its adapters' names, nearest first: "mlx5_3", or "" */
    uint32_t num_pes;            /**< how many PEs it has */
    const uint32_t* pes;         /**< its PEs (topology ids), ascending */
    uint32_t num_gpus;           /**< how many GPUs it has */
    const uint32_t* gpu_devices; /**< its GPUs' device indexes in its machine */
    uint32_t num_nics;           /**< how many adapters it has */
    const uint32_t* nic_devices; /**< its adapters' device indexes, nearest first */
} nettopo_gpu_rank;

/** Binds `ranks` ranks of `gpus_per_rank` GPUs each over `allocation` (NULL:
 * every machine in id order), each with the PUs local to its GPUs and its
 * `nics_per_rank` nearest fabric adapters (negative: 1 where a host has an
 * adapter). The rules are in nettopo/query/gpu_binding.hpp and
 * share/doc/gpu-nodes.md ("Binding a job"). On success stores a new binding
 * in *out (release it with nettopo_gpu_binding_close) and returns
 * NETTOPO_OK. On failure stores NULL in *out (when out is not NULL) and
 * returns NETTOPO_ERR_INVALID (NULL t or out; 0 ranks or GPUs a rank; more
 * ranks than the allocation's GPUs hold, the message counting them; fewer
 * adapters than nics_per_rank on a host used; a view of another topology) or
 * NETTOPO_ERR_NOMEM. O(N x (G + M x A)) for N ranks and A adapters a host,
 * plus O(P + D log D) a host used for its P PUs and D devices; thread-safe. */
int nettopo_distribute_gpus(const nettopo_topology* t, const nettopo_view* allocation,
                            uint64_t ranks, uint32_t gpus_per_rank, int32_t nics_per_rank,
                            nettopo_gpu_binding** out);

/** Releases the binding, O(its size); NULL is ignored. Not thread-safe with
 * respect to the binding (as nettopo_close). */
void nettopo_gpu_binding_close(nettopo_gpu_binding* b);

/** Number of ranks of the binding; 0 with NETTOPO_ERR_INVALID's message for
 * a NULL binding. O(1), thread-safe. */
uint64_t nettopo_gpu_binding_num_ranks(const nettopo_gpu_binding* b);

/** Fills *out with rank `rank` of the binding.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL b or out); NETTOPO_ERR_RANGE (rank
 * past the last). O(1), thread-safe. */
int nettopo_gpu_binding_rank(const nettopo_gpu_binding* b, uint64_t rank, nettopo_gpu_rank* out);

/** Copies the POSIX shell file a rank's launch wrapper sources (`nettopo-query
 * distribute N --gpus-per-rank G --env`: it reads the rank from
 * OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID and exports
 * NETTOPO_CPUSET, the vendor's visible-devices variables, UCX_NET_DEVICES,
 * NCCL_IB_HCA...) into buf, as the conventions above say. `command` (NULL:
 * none) is recorded in its first comment line.
 * NETTOPO_OK; NETTOPO_ERR_INVALID (NULL b, NULL buf with size > 0);
 * NETTOPO_ERR_NOMEM. O(the text) plus O(D log D) a host for its D devices;
 * thread-safe. */
int nettopo_gpu_binding_env(const nettopo_gpu_binding* b, const char* command, char* buf,
                            size_t size, size_t* length);

#ifdef __cplusplus
}
#endif

#endif /* NETTOPO_NETTOPO_H */
