/** \file
 * nettopo's C API: load a cluster topology and ask it the thesis' queries
 * (counts, machine of a PE, proximity, hops, latency distance, k nearest PEs)
 * from C99, and through it from Fortran's bind(C), Python's ctypes, Julia or
 * Rust. Every answer equals what `nettopo-query -i FILE <query>` prints.
 *
 * Conventions
 * - PEs are numbered 0..nettopo_num_pes()-1 and machines
 *   0..nettopo_num_machines()-1, as nettopo-query numbers them.
 * - Functions returning int return NETTOPO_OK (0) on success, a positive
 *   status for an answer that is not a number (NETTOPO_UNREACHABLE), or a
 *   negative NETTOPO_ERR_* code. On an error they write nothing through their
 *   output pointers and set the calling thread's message (nettopo_last_error).
 * - No function throws, aborts or exits: every failure is a return code.
 *
 * \threads Every function may be called from several threads at once, on
 * one handle or several, including those taking a non-const handle (their
 * mutable state is internal and synchronised). The one exception:
 * nettopo_close must not run while another call uses the same handle, and
 * the handle must not be used after it.
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
#define NETTOPO_ERR_INVALID (-1)  /**< a NULL handle or pointer, or an argument out of its domain  \
                                   */
#define NETTOPO_ERR_INPUT (-2)    /**< a file that cannot be read or is not a valid topology */
#define NETTOPO_ERR_NOMEM (-3)    /**< memory ran out */
#define NETTOPO_ERR_RANGE (-4)    /**< a PE or machine index past the end of the topology */
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

#ifdef __cplusplus
}
#endif

#endif /* NETTOPO_NETTOPO_H */
