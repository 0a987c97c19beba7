/* The C API from a C99 program: answers on share/examples/small-fattree.topo
 * (with a job's view of some of its machines), on a disconnected archive and
 * on a real GPU server's hwloc export (ipa20-snc4-4xH100.xml: devices, their
 * CPU sets, nearest devices and PEs, distribute and the GPU binding), checked
 * against values nettopo-query prints (written below;
 * tests/api/c_api_vs_query.sh asks the tool again for each at test time),
 * and the error paths: bad PE, machine, device and rank indexes, unknown
 * names, NULL handles and pointers, short buffers, a missing file, a
 * malformed file.
 *
 *   c_api_test FATTREE MALFORMED DISCONNECTED GPU_SERVER   run the checks
 *   c_api_test --print fattree|disconnected|gpu FILE
 *       print "QUERY<TAB>ANSWER" for each query of that table, the answer as
 *       nettopo-query prints it (lines joined by ';', numbers in full)
 */
#include "nettopo/nettopo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s (last error: '%s')\n", __FILE__, __LINE__,    \
                    #cond, nettopo_last_error());                                                  \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

static int contains(const char* text, const char* part) {
    return text != NULL && strstr(text, part) != NULL;
}

/* ---- The expected answers, as `nettopo-query -i FILE ...` prints them ---- */

struct pair_case {
    uint32_t a, b;
    int proximity;
    int status; /* NETTOPO_OK or NETTOPO_UNREACHABLE, for hops and distance alike */
    uint32_t hops;
    double ns;
};

struct machine_case {
    uint32_t pe, machine;
    const char* name;
};

#define MAX_NEAR 8
struct nearest_case {
    uint32_t pe, k, found;
    uint32_t pes[MAX_NEAR];
    double ns[MAX_NEAR];
};

struct table {
    const char* name;
    uint32_t num_pes, num_machines, num_nodes;
    const struct pair_case* pairs;
    size_t num_pairs;
    const struct machine_case* machines;
    size_t num_machine_cases;
    const struct nearest_case* nearest;
    size_t num_nearest;
};

/* 16 machines node01..node16 of 32 PEs (2 packages x 8 cores x 2 PUs, a
 * node per L3), 4 per leaf switch; host links 150 ns, leaf-spine 300 ns. */
static const struct pair_case fattree_pairs[] = {
    {0, 0, 3, NETTOPO_OK, 0, 0},       {0, 1, 2, NETTOPO_OK, 0, 5},
    {0, 2, 2, NETTOPO_OK, 0, 40},      {0, 16, 1, NETTOPO_OK, 0, 120},
    {0, 32, 0, NETTOPO_OK, 2, 300},    {0, 200, 0, NETTOPO_OK, 4, 900},
    {5, 511, 0, NETTOPO_OK, 4, 900},   {511, 480, 1, NETTOPO_OK, 0, 120},
    {100, 101, 2, NETTOPO_OK, 0, 5},   {200, 0, 0, NETTOPO_OK, 4, 900},
    {130, 100, 0, NETTOPO_OK, 4, 900}, {130, 160, 0, NETTOPO_OK, 2, 300},
};
static const struct machine_case fattree_machines[] = {
    {0, 0, "node01"}, {31, 0, "node01"}, {32, 1, "node02"}, {200, 6, "node07"}, {511, 15, "node16"},
};
static const struct nearest_case fattree_nearest[] = {
    {0, 5, 5, {1, 2, 3, 4, 5}, {5, 40, 40, 40, 40}},
    {300, 3, 3, {301, 288, 289}, {5, 40, 40}},
    {0, 0, 0, {0}, {0}},
};

/* Machines A, B, C of 2 PEs (PEs 0-1, 2-3, 4-5); A-B linked (10 ns), C alone. */
static const struct pair_case disconnected_pairs[] = {
    {0, 4, 0, NETTOPO_UNREACHABLE, 0, 0},
    {0, 2, 0, NETTOPO_OK, 1, 10},
    {0, 1, 1, NETTOPO_OK, 0, 80},
    {5, 4, 1, NETTOPO_OK, 0, 80},
};
static const struct machine_case disconnected_machines[] = {{0, 0, "A"}, {3, 1, "B"}, {4, 2, "C"}};
static const struct nearest_case disconnected_nearest[] = {
    {0, 5, 3, {2, 3, 1}, {10, 10, 80}},
    {4, 3, 1, {5}, {80}},
};

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const struct table tables[] = {
    {"fattree", 512, 16, 32, fattree_pairs, COUNT(fattree_pairs), fattree_machines,
     COUNT(fattree_machines), fattree_nearest, COUNT(fattree_nearest)},
    {"disconnected", 6, 3, 6, disconnected_pairs, COUNT(disconnected_pairs), disconnected_machines,
     COUNT(disconnected_machines), disconnected_nearest, COUNT(disconnected_nearest)},
};

static const struct table* find_table(const char* name) {
    size_t i;
    for (i = 0; i < COUNT(tables); ++i)
        if (strcmp(tables[i].name, name) == 0) return &tables[i];
    return NULL;
}

static nettopo_topology* open_or_die(const char* path) {
    nettopo_topology* t = NULL;
    if (nettopo_open(path, &t) != NETTOPO_OK || t == NULL) {
        fprintf(stderr, "cannot open %s: %s\n", path, nettopo_last_error());
        exit(1);
    }
    return t;
}

/* ---- Answers checked against the table ---- */

static void check_table(const struct table* tb, nettopo_topology* t) {
    size_t i;
    uint32_t j;
    CHECK(nettopo_num_pes(t) == tb->num_pes);
    CHECK(nettopo_num_machines(t) == tb->num_machines);
    CHECK(nettopo_num_nodes(t) == tb->num_nodes);
    for (i = 0; i < tb->num_machine_cases; ++i) {
        const struct machine_case* c = &tb->machines[i];
        uint32_t m = 12345;
        CHECK(nettopo_machine_of(t, c->pe, &m) == NETTOPO_OK);
        CHECK(m == c->machine);
        CHECK(nettopo_machine_name(t, m) != NULL &&
              strcmp(nettopo_machine_name(t, m), c->name) == 0);
    }
    for (i = 0; i < tb->num_pairs; ++i) {
        const struct pair_case* c = &tb->pairs[i];
        int level = -1;
        uint32_t hops = 12345;
        double ns = -1;
        CHECK(nettopo_proximity(t, c->a, c->b, &level) == NETTOPO_OK);
        CHECK(level == c->proximity);
        CHECK(nettopo_hops(t, c->a, c->b, &hops) == c->status);
        CHECK(nettopo_distance_ns(t, c->a, c->b, &ns) == c->status);
        if (c->status == NETTOPO_OK) {
            CHECK(hops == c->hops);
            CHECK(ns == c->ns);
        } else { /* nothing written */
            CHECK(hops == 12345);
            CHECK(ns == -1);
        }
    }
    for (i = 0; i < tb->num_nearest; ++i) {
        const struct nearest_case* c = &tb->nearest[i];
        uint32_t pes[MAX_NEAR], found = 12345;
        double ns[MAX_NEAR];
        CHECK(nettopo_nearest(t, c->pe, c->k, pes, ns, &found) == NETTOPO_OK);
        CHECK(found == c->found);
        for (j = 0; j < c->found && j < found; ++j) {
            CHECK(pes[j] == c->pes[j]);
            CHECK(ns[j] == c->ns[j]);
        }
        /* Distances are optional. */
        found = 12345;
        CHECK(nettopo_nearest(t, c->pe, c->k, pes, NULL, &found) == NETTOPO_OK);
        CHECK(found == c->found);
    }
}

/* k past the number of PEs: every other PE, nearest first (nettopo-query
 * nearest 0 600 prints 511 lines: 1 at 5 ns, 14 at 40, 16 at 120, 96 at 300,
 * 384 at 900). */
static void check_nearest_all(nettopo_topology* t) {
    static uint32_t pes[600];
    static double ns[600];
    uint32_t found = 0, i, at_900 = 0;
    CHECK(nettopo_nearest(t, 0, 600, pes, ns, &found) == NETTOPO_OK);
    CHECK(found == 511);
    if (found != 511) return;
    CHECK(pes[0] == 1 && ns[0] == 5);
    CHECK(pes[510] == 511 && ns[510] == 900);
    for (i = 1; i < found; ++i)
        CHECK(ns[i - 1] < ns[i] || (ns[i - 1] == ns[i] && pes[i - 1] < pes[i]));
    for (i = 0; i < found; ++i) at_900 += ns[i] == 900;
    CHECK(at_900 == 384);
}

/* ---- Failures ---- */

static void check_errors(nettopo_topology* t, const char* missing, const char* malformed) {
    nettopo_topology* other = (nettopo_topology*)&failures; /* must be replaced by NULL */
    uint32_t u = 12345, pes[4], found = 12345;
    double ns = -1;
    int level = -1;

    /* PE ids past the end: RANGE, the message names the PE and the count. */
    CHECK(nettopo_machine_of(t, 512, &u) == NETTOPO_ERR_RANGE && u == 12345);
    CHECK(contains(nettopo_last_error(), "nettopo_machine_of"));
    CHECK(contains(nettopo_last_error(), "PE 512"));
    CHECK(contains(nettopo_last_error(), "512 PEs"));
    CHECK(nettopo_proximity(t, 0, 99999, &level) == NETTOPO_ERR_RANGE && level == -1);
    CHECK(contains(nettopo_last_error(), "PE 99999"));
    CHECK(nettopo_hops(t, 4000000000u, 0, &u) == NETTOPO_ERR_RANGE && u == 12345);
    CHECK(contains(nettopo_last_error(), "PE 4000000000"));
    CHECK(nettopo_distance_ns(t, 1, 777, &ns) == NETTOPO_ERR_RANGE && ns == -1);
    CHECK(contains(nettopo_last_error(), "nettopo_distance_ns: PE 777"));
    CHECK(nettopo_nearest(t, 512, 2, pes, NULL, &found) == NETTOPO_ERR_RANGE && found == 12345);
    CHECK(contains(nettopo_last_error(), "PE 512"));
    CHECK(nettopo_machine_name(t, 16) == NULL);
    CHECK(contains(nettopo_last_error(), "machine 16"));

    /* A NULL handle. */
    CHECK(nettopo_num_pes(NULL) == 0);
    CHECK(contains(nettopo_last_error(), "nettopo_num_pes: the topology handle is NULL"));
    CHECK(nettopo_num_machines(NULL) == 0);
    CHECK(nettopo_num_nodes(NULL) == 0);
    CHECK(nettopo_machine_of(NULL, 0, &u) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_machine_name(NULL, 0) == NULL);
    CHECK(nettopo_proximity(NULL, 0, 1, &level) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_hops(NULL, 0, 1, &u) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "nettopo_hops: the topology handle is NULL"));
    CHECK(nettopo_distance_ns(NULL, 0, 1, &ns) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_nearest(NULL, 0, 1, pes, NULL, &found) == NETTOPO_ERR_INVALID);
    nettopo_close(NULL); /* ignored */

    /* NULL output pointers. */
    CHECK(nettopo_machine_of(t, 0, NULL) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "machine is NULL"));
    CHECK(nettopo_proximity(t, 0, 1, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_hops(t, 0, 1, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_distance_ns(t, 0, 1, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_nearest(t, 0, 1, NULL, NULL, &found) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "pes is NULL"));
    CHECK(nettopo_nearest(t, 0, 1, pes, NULL, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_nearest(t, 0, 0, NULL, NULL, &found) == NETTOPO_OK && found == 0);

    /* Files: missing, malformed; NULL path or out. */
    CHECK(nettopo_open(missing, &other) == NETTOPO_ERR_INPUT);
    CHECK(other == NULL);
    CHECK(contains(nettopo_last_error(), missing));
    other = (nettopo_topology*)&failures;
    CHECK(nettopo_open(malformed, &other) == NETTOPO_ERR_INPUT);
    CHECK(other == NULL);
    CHECK(contains(nettopo_last_error(), malformed));
    CHECK(contains(nettopo_last_error(), ":4:")); /* the line of the bad link */
    CHECK(nettopo_open(NULL, &other) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "path is NULL"));
    CHECK(nettopo_open(missing, NULL) == NETTOPO_ERR_INVALID);

    /* Successful calls leave the last message as it was. */
    CHECK(nettopo_num_pes(t) == 512);
    CHECK(contains(nettopo_last_error(), "out is NULL"));
}

/* ---- A job's view of the fat-tree: node03 then node01 ---- */

static void check_view(nettopo_topology* t, const char* path) {
    nettopo_view* v = NULL;
    nettopo_view* bad = (nettopo_view*)&failures; /* must be replaced by NULL */
    nettopo_topology* other;
    uint32_t u = 12345, pes[8], found = 12345;
    double ns[8], d = -1;
    int level = -1;

    CHECK(nettopo_view_open(t, "node[03,01]", &v) == NETTOPO_OK && v != NULL);
    if (!v) return;
    CHECK(nettopo_view_num_pes(v) == 64);
    CHECK(nettopo_view_num_machines(v) == 2);
    CHECK(nettopo_view_num_nodes(v) == 4);
    CHECK(nettopo_view_machine(v, 0, &u) == NETTOPO_OK && u == 2);
    CHECK(nettopo_view_machine(v, 1, &u) == NETTOPO_OK && u == 0);
    CHECK(nettopo_view_cluster_pe(v, 0, &u) == NETTOPO_OK && u == 64);
    CHECK(nettopo_view_cluster_pe(v, 33, &u) == NETTOPO_OK && u == 1);
    CHECK(nettopo_view_pe(v, 65, &u) == NETTOPO_OK && u == 1);
    CHECK(nettopo_view_pe(v, 31, &u) == NETTOPO_OK && u == 63);
    u = 12345;
    CHECK(nettopo_view_pe(v, 100, &u) == NETTOPO_NOT_FOUND && u == 12345); /* node04 */
    /* nettopo-query --nodes 'node[03,01]' nearest 5 3, hops 5 40, distance 5 40 */
    CHECK(nettopo_view_nearest(v, 5, 3, pes, ns, &found) == NETTOPO_OK && found == 3);
    CHECK(pes[0] == 4 && ns[0] == 5 && pes[1] == 0 && ns[1] == 40 && pes[2] == 1 && ns[2] == 40);
    CHECK(nettopo_view_nearest(v, 0, 0, NULL, NULL, &found) == NETTOPO_OK && found == 0);
    CHECK(nettopo_view_hops(v, 5, 40, &u) == NETTOPO_OK && u == 2);
    CHECK(nettopo_view_distance_ns(v, 5, 40, &d) == NETTOPO_OK && d == 300);
    CHECK(nettopo_view_proximity(v, 0, 1, &level) == NETTOPO_OK && level == 2);
    CHECK(nettopo_view_proximity(v, 0, 32, &level) == NETTOPO_OK && level == 0);
    /* distribute 3 over the view: node03 PU 0, node03 PU 16, node01 PU 0 */
    CHECK(nettopo_distribute(t, v, 3, NETTOPO_SCATTER, pes) == NETTOPO_OK);
    CHECK(pes[0] == 64 && pes[1] == 80 && pes[2] == 0);

    /* Failures: bad view PEs and machines, bad hostlists, NULLs. */
    u = 12345;
    CHECK(nettopo_view_cluster_pe(v, 64, &u) == NETTOPO_ERR_RANGE && u == 12345);
    CHECK(contains(nettopo_last_error(),
                   "nettopo_view_cluster_pe: PE 64 does not exist: the allocation has 64 PEs "
                   "(0..63)"));
    CHECK(nettopo_view_hops(v, 0, 64, &u) == NETTOPO_ERR_RANGE && u == 12345);
    CHECK(nettopo_view_nearest(v, 64, 2, pes, NULL, &found) == NETTOPO_ERR_RANGE);
    CHECK(nettopo_view_machine(v, 2, &u) == NETTOPO_ERR_RANGE);
    CHECK(contains(nettopo_last_error(), "machine 2 does not exist: the allocation has 2"));
    CHECK(nettopo_view_pe(v, 512, &u) == NETTOPO_ERR_RANGE);
    CHECK(nettopo_view_nearest(v, 0, 2, NULL, NULL, &found) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_view_proximity(v, 0, 1, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_view_num_pes(NULL) == 0);
    CHECK(contains(nettopo_last_error(), "nettopo_view_num_pes: the view is NULL"));
    CHECK(nettopo_view_num_machines(NULL) == 0 && nettopo_view_num_nodes(NULL) == 0);
    CHECK(nettopo_view_hops(NULL, 0, 1, &u) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_view_open(t, "node[03", &bad) == NETTOPO_ERR_INVALID && bad == NULL);
    CHECK(contains(nettopo_last_error(), "bad hostlist 'node[03'"));
    CHECK(nettopo_view_open(t, "node[03,99]", &bad) == NETTOPO_ERR_INVALID && bad == NULL);
    CHECK(contains(nettopo_last_error(), "not in the cluster: node99"));
    CHECK(nettopo_view_open(t, NULL, &bad) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_view_open(NULL, "node01", &bad) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_view_open(t, "node01", NULL) == NETTOPO_ERR_INVALID);
    nettopo_view_close(NULL); /* ignored */
    /* A view belongs to its handle. */
    other = open_or_die(path);
    CHECK(nettopo_distribute(other, v, 3, NETTOPO_SCATTER, pes) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "another topology"));
    nettopo_close(other);
    nettopo_view_close(v);
}

/* ---- The GPU server: ipa20-snc4-4xH100.xml, one machine of 224 PUs ---- */

/* Devices in `nettopo-query devices` order: gpu0-3, eno8303, eno8403,
 * mlx5_2, mlx5_0, mlx5_1, mlx5_3. */
enum { GPU2 = 2, ENO8303 = 4, MLX5_0 = 7, MLX5_1 = 8, MLX5_3 = 9, DEVICES = 10 };

static void check_devices(nettopo_topology* t) {
    nettopo_device info;
    uint32_t m = 12345, d = 12345, n = 0, first = 0, count = 0, nodes[8], found = 0, devs[16];
    uint32_t pes[8];
    double latency[16], ns[8];
    char buf[64];
    size_t length = 0;

    CHECK(nettopo_num_machines(t) == 1);
    CHECK(nettopo_num_devices(t, 0, &n) == NETTOPO_OK && n == DEVICES);
    CHECK(nettopo_find_device(t, "gpu2", &m, &d) == NETTOPO_OK && m == 0 && d == GPU2);
    CHECK(nettopo_find_device(t, "cuda2", &m, &d) == NETTOPO_OK && d == GPU2);
    CHECK(nettopo_find_device(t, "testhost-nvidia:gpu2", &m, &d) == NETTOPO_OK && d == GPU2);
    CHECK(nettopo_find_device(t, "mlx5_0", &m, &d) == NETTOPO_OK && d == MLX5_0);
    CHECK(nettopo_device_info(t, 0, GPU2, &info) == NETTOPO_OK);
    CHECK(info.kind == NETTOPO_DEVICE_GPU && strcmp(info.kind_name, "gpu") == 0);
    CHECK(strcmp(info.name, "gpu2") == 0 && strcmp(info.names, "cuda2,nvml2,opencl0d2") == 0);
    CHECK(strcmp(info.pci_bus_id, "0000:cb:00.0") == 0);
    CHECK(strcmp(info.vendor, "NVIDIA Corporation") == 0);
    CHECK(strcmp(info.model, "NVIDIA H100 80GB HBM3") == 0);
    CHECK(nettopo_device_info(t, 0, MLX5_0, &info) == NETTOPO_OK);
    CHECK(info.kind == NETTOPO_DEVICE_NIC && strcmp(info.kind_name, "nic") == 0);
    CHECK(strcmp(info.names, "mlx5_0,hsi0") == 0);
    CHECK(strcmp(info.pci_bus_id, "0000:4d:00.0") == 0);

    /* cpuset-of gpu2: 98-111,210-223, NUMA node 7, logical PEs 196-223. */
    CHECK(nettopo_device_cpuset(t, 0, GPU2, buf, sizeof buf, &length) == NETTOPO_OK);
    CHECK(strcmp(buf, "98-111,210-223") == 0 && length == 14);
    CHECK(nettopo_device_numa_nodes(t, 0, GPU2, nodes, 8, &count) == NETTOPO_OK);
    CHECK(count == 1 && nodes[0] == 7);
    CHECK(nettopo_device_pes(t, 0, GPU2, &first, &count) == NETTOPO_OK);
    CHECK(first == 196 && count == 28);
    CHECK(nettopo_device_cpuset(t, 0, MLX5_0, buf, sizeof buf, NULL) == NETTOPO_OK);
    CHECK(strcmp(buf, "42-55,154-167") == 0);
    /* The conventions: a size query, and a cut text with the whole length. */
    length = 0;
    CHECK(nettopo_device_cpuset(t, 0, GPU2, NULL, 0, &length) == NETTOPO_OK && length == 14);
    CHECK(nettopo_device_cpuset(t, 0, GPU2, buf, 5, &length) == NETTOPO_OK);
    CHECK(strcmp(buf, "98-1") == 0 && length == 14);
    count = 0;
    CHECK(nettopo_device_numa_nodes(t, 0, GPU2, NULL, 0, &count) == NETTOPO_OK && count == 1);

    /* nearest-device 98 --kind nic: mlx5_0 0, mlx5_1 0, eno8303 51.6 ... */
    CHECK(nettopo_nearest_devices(t, 98, NETTOPO_DEVICE_NIC, 3, devs, latency, &found) ==
          NETTOPO_OK);
    CHECK(found == 3 && devs[0] == MLX5_0 && devs[1] == MLX5_1 && devs[2] == ENO8303);
    CHECK(latency[0] == 0 && latency[1] == 0 && latency[2] > 51.5 && latency[2] < 51.7);
    /* nearest-device 223 --kind nic: mlx5_3 first (another SNC cluster of its package) */
    CHECK(nettopo_nearest_devices(t, 223, NETTOPO_DEVICE_NIC, 16, devs, NULL, &found) ==
          NETTOPO_OK);
    CHECK(found == 6 && devs[0] == MLX5_3);
    CHECK(nettopo_nearest_devices(t, 223, NETTOPO_DEVICE_ANY, 16, devs, NULL, &found) ==
          NETTOPO_OK);
    CHECK(found == DEVICES && devs[0] == GPU2);
    /* nearest gpu2 5: its own PEs 196-200, at 0 */
    CHECK(nettopo_nearest_to_device(t, 0, GPU2, 5, pes, ns, &found) == NETTOPO_OK && found == 5);
    CHECK(pes[0] == 196 && pes[4] == 200 && ns[0] == 0 && ns[4] == 0);

    /* PEs: OS indexes, a machine's range, machines by name. */
    CHECK(nettopo_pe_os_index(t, 98, &n) == NETTOPO_OK && n == 49);
    CHECK(nettopo_pe_os_index(t, 196, &n) == NETTOPO_OK && n == 98);
    CHECK(nettopo_machine_pes(t, 0, &first, &count) == NETTOPO_OK && first == 0 && count == 224);
    CHECK(nettopo_find_machine(t, "testhost-nvidia", &m) == NETTOPO_OK && m == 0);
    m = 12345;
    CHECK(nettopo_find_machine(t, "testhost-nvidia.example.org", &m) == NETTOPO_OK && m == 0);
    m = 12345;
    CHECK(nettopo_find_machine(t, "nohost", &m) == NETTOPO_NOT_FOUND && m == 12345);
    /* distribute 3: PUs 0, 56, 112 (OS 0, 28, 56) */
    CHECK(nettopo_distribute(t, NULL, 3, NETTOPO_SCATTER, pes) == NETTOPO_OK);
    CHECK(pes[0] == 0 && pes[1] == 56 && pes[2] == 112);
    CHECK(nettopo_distribute(t, NULL, 3, NETTOPO_COMPACT, pes) == NETTOPO_OK);
    CHECK(pes[0] == 0 && pes[1] == 1 && pes[2] == 2);

    /* Failures. */
    m = d = n = 12345;
    CHECK(nettopo_num_devices(t, 1, &n) == NETTOPO_ERR_RANGE && n == 12345);
    CHECK(contains(nettopo_last_error(),
                   "machine 1 does not exist: the cluster has 1 machine (0..0)"));
    CHECK(nettopo_device_info(t, 0, DEVICES, &info) == NETTOPO_ERR_RANGE);
    CHECK(contains(nettopo_last_error(),
                   "nettopo_device_info: device 10 does not exist: machine 'testhost-nvidia' "
                   "has 10 devices (0..9)"));
    CHECK(nettopo_device_cpuset(t, 0, 4000000000u, buf, sizeof buf, &length) == NETTOPO_ERR_RANGE);
    CHECK(nettopo_device_pes(t, 7, 0, &first, &count) == NETTOPO_ERR_RANGE);
    CHECK(nettopo_nearest_to_device(t, 0, DEVICES, 3, pes, NULL, &found) == NETTOPO_ERR_RANGE);
    CHECK(nettopo_find_device(t, "gpu9", &m, &d) == NETTOPO_NOT_FOUND && m == 12345);
    CHECK(nettopo_find_device(t, "nohost:gpu2", &m, &d) == NETTOPO_NOT_FOUND && d == 12345);
    CHECK(nettopo_find_device(t, "", &m, &d) == NETTOPO_NOT_FOUND);
    CHECK(nettopo_find_device(t, NULL, &m, &d) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "nettopo_find_device: name is NULL"));
    CHECK(nettopo_find_device(t, "gpu2", NULL, &d) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_find_device(NULL, "gpu2", &m, &d) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_find_machine(t, NULL, &m) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_device_info(t, 0, 0, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_device_cpuset(t, 0, GPU2, NULL, 8, &length) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "buf is NULL"));
    CHECK(nettopo_device_numa_nodes(t, 0, GPU2, NULL, 1, &count) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_device_numa_nodes(t, 0, GPU2, nodes, 8, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_nearest_devices(t, 98, 7, 3, devs, NULL, &found) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "kind 7 is not a NETTOPO_DEVICE_* value"));
    CHECK(nettopo_nearest_devices(t, 224, NETTOPO_DEVICE_ANY, 3, devs, NULL, &found) ==
          NETTOPO_ERR_RANGE);
    CHECK(contains(nettopo_last_error(), "PE 224 does not exist"));
    CHECK(nettopo_nearest_devices(t, 0, NETTOPO_DEVICE_ANY, 3, NULL, NULL, &found) ==
          NETTOPO_ERR_INVALID);
    CHECK(nettopo_nearest_devices(t, 0, NETTOPO_DEVICE_ANY, 0, NULL, NULL, &found) == NETTOPO_OK &&
          found == 0);
    CHECK(nettopo_pe_os_index(t, 224, &n) == NETTOPO_ERR_RANGE);
    CHECK(nettopo_machine_pes(t, 1, &first, &count) == NETTOPO_ERR_RANGE);
    CHECK(nettopo_distribute(t, NULL, 3, 9, pes) == NETTOPO_ERR_INVALID);
    CHECK(contains(nettopo_last_error(), "policy 9"));
    CHECK(nettopo_distribute(t, NULL, 0, NETTOPO_SCATTER, pes) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_distribute(t, NULL, 3, NETTOPO_SCATTER, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_num_devices(NULL, 0, &n) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_nearest_to_device(NULL, 0, 0, 1, pes, NULL, &found) == NETTOPO_ERR_INVALID);
}

static void check_gpu_binding(nettopo_topology* t) {
    nettopo_gpu_binding* b = (nettopo_gpu_binding*)&failures; /* must be replaced */
    nettopo_gpu_rank r;
    char small[16];
    char* env;
    size_t length = 0;

    /* distribute 4 --gpus-per-rank 1: rank r on gpu r, its NUMA node's PUs,
     * the nearest adapter (gpu2's cluster has none: mlx5_3 of its package). */
    CHECK(nettopo_distribute_gpus(t, NULL, 4, 1, -1, &b) == NETTOPO_OK && b != NULL);
    if (!b) return;
    CHECK(nettopo_gpu_binding_num_ranks(b) == 4);
    CHECK(nettopo_gpu_binding_rank(b, 0, &r) == NETTOPO_OK);
    CHECK(r.machine == 0 && strcmp(r.host, "testhost-nvidia") == 0);
    CHECK(strcmp(r.cpuset, "42-55,154-167") == 0);
    CHECK(strcmp(r.gpus, "gpu0") == 0 && strcmp(r.nics, "mlx5_0") == 0);
    CHECK(r.num_pes == 28 && r.num_gpus == 1 && r.gpu_devices[0] == 0);
    CHECK(r.num_nics == 1 && r.nic_devices[0] == MLX5_0);
    CHECK(nettopo_gpu_binding_rank(b, 2, &r) == NETTOPO_OK);
    CHECK(strcmp(r.cpuset, "98-111,210-223") == 0);
    CHECK(strcmp(r.gpus, "gpu2") == 0 && strcmp(r.nics, "mlx5_3") == 0);
    CHECK(r.num_pes == 28 && r.pes[0] == 196 && r.pes[27] == 223);
    CHECK(r.gpu_devices[0] == GPU2 && r.nic_devices[0] == MLX5_3);

    /* --env: asked for its size first, then written whole. */
    CHECK(nettopo_gpu_binding_env(b, "run.sh", NULL, 0, &length) == NETTOPO_OK && length > 0);
    env = (char*)malloc(length + 1);
    CHECK(env != NULL);
    if (env) {
        CHECK(nettopo_gpu_binding_env(b, "run.sh", env, length + 1, NULL) == NETTOPO_OK);
        CHECK(strlen(env) == length);
        CHECK(strncmp(env, "# run.sh\n", 9) == 0);
        CHECK(contains(env, "\n2) export NETTOPO_HOST=testhost-nvidia NETTOPO_CPUSET=98-111,"
                            "210-223 NETTOPO_GPUS=gpu2 NETTOPO_NICS=mlx5_3 "
                            "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=2 "
                            "UCX_NET_DEVICES=mlx5_3:1 NCCL_IB_HCA==mlx5_3:1 ;;\n"));
        free(env);
    }
    CHECK(nettopo_gpu_binding_env(b, NULL, small, sizeof small, &length) == NETTOPO_OK);
    CHECK(strlen(small) == sizeof small - 1 && length > sizeof small);

    /* Failures of a binding's calls. */
    CHECK(nettopo_gpu_binding_rank(b, 4, &r) == NETTOPO_ERR_RANGE);
    CHECK(contains(nettopo_last_error(), "rank 4 does not exist: the binding has 4 ranks (0..3)"));
    CHECK(nettopo_gpu_binding_rank(b, 0, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_gpu_binding_env(b, NULL, NULL, 4, &length) == NETTOPO_ERR_INVALID);
    nettopo_gpu_binding_close(b);
    CHECK(nettopo_gpu_binding_num_ranks(NULL) == 0);
    CHECK(contains(nettopo_last_error(), "the GPU binding is NULL"));
    CHECK(nettopo_gpu_binding_rank(NULL, 0, &r) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_gpu_binding_env(NULL, NULL, small, sizeof small, &length) == NETTOPO_ERR_INVALID);
    nettopo_gpu_binding_close(NULL); /* ignored */

    /* Requests the server cannot hold. */
    b = (nettopo_gpu_binding*)&failures;
    CHECK(nettopo_distribute_gpus(t, NULL, 5, 1, -1, &b) == NETTOPO_ERR_INVALID && b == NULL);
    CHECK(contains(nettopo_last_error(), "5 ranks of 1 GPU need 5 GPUs; the 1 host given holds 4 "
                                         "GPUs, room for 4 such ranks"));
    CHECK(nettopo_distribute_gpus(t, NULL, 2, 1, 9, &b) == NETTOPO_ERR_INVALID && b == NULL);
    CHECK(contains(nettopo_last_error(), "9 adapters a rank"));
    CHECK(nettopo_distribute_gpus(t, NULL, 1, 0, -1, &b) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_distribute_gpus(t, NULL, 0, 1, -1, &b) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_distribute_gpus(t, NULL, 1, 1, -1, NULL) == NETTOPO_ERR_INVALID);
    CHECK(nettopo_distribute_gpus(NULL, NULL, 1, 1, -1, &b) == NETTOPO_ERR_INVALID && b == NULL);
}

/* ---- --print: the C API's answers in nettopo-query's text form ---- */

/* distribute's lines: "rank host pu os" (pu logical in its host, os "-"
 * when unknown), joined by ';'. */
static void print_placement(nettopo_topology* t, const uint32_t* pes, uint32_t n) {
    uint32_t r;
    for (r = 0; r < n; ++r) {
        uint32_t machine = 0, first = 0, count = 0, os = 0;
        int known;
        if (nettopo_machine_of(t, pes[r], &machine) != NETTOPO_OK ||
            nettopo_machine_pes(t, machine, &first, &count) != NETTOPO_OK)
            exit(1);
        known = nettopo_pe_os_index(t, pes[r], &os);
        if (known < 0) exit(1);
        printf("%s%u %s %u ", r ? ";" : "", (unsigned)r, nettopo_machine_name(t, machine),
               (unsigned)(pes[r] - first));
        if (known == NETTOPO_OK)
            printf("%u", (unsigned)os);
        else
            printf("-");
    }
    printf("\n");
}

static void print_answers(const struct table* tb, nettopo_topology* t) {
    size_t i;
    uint32_t j;
    printf("num-pes\t%u\n", (unsigned)nettopo_num_pes(t));
    printf("num-machines\t%u\n", (unsigned)nettopo_num_machines(t));
    printf("num-nodes\t%u\n", (unsigned)nettopo_num_nodes(t));
    for (i = 0; i < tb->num_machine_cases; ++i) {
        uint32_t m = 0;
        const uint32_t pe = tb->machines[i].pe;
        if (nettopo_machine_of(t, pe, &m) != NETTOPO_OK) exit(1);
        printf("machine-of %u\t%s\n", (unsigned)pe, nettopo_machine_name(t, m));
    }
    for (i = 0; i < tb->num_pairs; ++i) {
        const unsigned a = tb->pairs[i].a, b = tb->pairs[i].b;
        int level = 0;
        uint32_t hops = 0;
        double ns = 0;
        if (nettopo_proximity(t, a, b, &level) != NETTOPO_OK) exit(1);
        printf("proximity %u %u\t%d\n", a, b, level);
        if (nettopo_hops(t, a, b, &hops) == NETTOPO_OK)
            printf("hops %u %u\t%u\n", a, b, (unsigned)hops);
        else
            printf("hops %u %u\tunreachable\n", a, b);
        if (nettopo_distance_ns(t, a, b, &ns) == NETTOPO_OK)
            printf("distance %u %u\t%.17g\n", a, b, ns);
        else
            printf("distance %u %u\tunreachable\n", a, b);
    }
    for (i = 0; i < tb->num_nearest; ++i) {
        const struct nearest_case* c = &tb->nearest[i];
        uint32_t pes[MAX_NEAR], found = 0;
        double ns[MAX_NEAR];
        if (nettopo_nearest(t, c->pe, c->k, pes, ns, &found) != NETTOPO_OK) exit(1);
        printf("nearest %u %u\t", (unsigned)c->pe, (unsigned)c->k);
        for (j = 0; j < found; ++j) printf("%s%u %.17g", j ? ";" : "", (unsigned)pes[j], ns[j]);
        printf("\n");
    }
}

/* A job's view of the fat-tree: queries with --nodes. */
static void print_view_answers(nettopo_topology* t) {
    static const char* const hostlists[] = {"node[03,01]", "node[16,01-02]"};
    static const uint32_t pairs[][2] = {{5, 40}, {0, 1}, {0, 63}, {33, 2}};
    static const uint32_t nearest[][2] = {{5, 3}, {40, 10}, {0, 70}};
    static const uint32_t spread[][2] = {{3, NETTOPO_SCATTER}, {7, NETTOPO_COMPACT}};
    size_t h, i;
    uint32_t j;
    for (h = 0; h < COUNT(hostlists); ++h) {
        const char* nodes = hostlists[h];
        nettopo_view* v = NULL;
        uint32_t pes[70];
        double ns[70];
        if (nettopo_view_open(t, nodes, &v) != NETTOPO_OK) exit(1);
        printf("--nodes %s num-pes\t%u\n", nodes, (unsigned)nettopo_view_num_pes(v));
        printf("--nodes %s num-machines\t%u\n", nodes, (unsigned)nettopo_view_num_machines(v));
        printf("--nodes %s num-nodes\t%u\n", nodes, (unsigned)nettopo_view_num_nodes(v));
        for (i = 0; i < COUNT(pairs); ++i) {
            const unsigned a = pairs[i][0], b = pairs[i][1];
            int level = 0;
            uint32_t hops = 0;
            double d = 0;
            if (nettopo_view_proximity(v, a, b, &level) != NETTOPO_OK ||
                nettopo_view_hops(v, a, b, &hops) != NETTOPO_OK ||
                nettopo_view_distance_ns(v, a, b, &d) != NETTOPO_OK)
                exit(1);
            printf("--nodes %s proximity %u %u\t%d\n", nodes, a, b, level);
            printf("--nodes %s hops %u %u\t%u\n", nodes, a, b, (unsigned)hops);
            printf("--nodes %s distance %u %u\t%.17g\n", nodes, a, b, d);
        }
        for (i = 0; i < COUNT(nearest); ++i) {
            uint32_t found = 0;
            if (nettopo_view_nearest(v, nearest[i][0], nearest[i][1], pes, ns, &found) !=
                NETTOPO_OK)
                exit(1);
            printf("--nodes %s nearest %u %u\t", nodes, (unsigned)nearest[i][0],
                   (unsigned)nearest[i][1]);
            for (j = 0; j < found; ++j) printf("%s%u %.17g", j ? ";" : "", (unsigned)pes[j], ns[j]);
            printf("\n");
        }
        for (i = 0; i < COUNT(spread); ++i) {
            const uint32_t n = spread[i][0];
            if (nettopo_distribute(t, v, n, (int)spread[i][1], pes) != NETTOPO_OK) exit(1);
            printf("--nodes %s distribute %u --policy %s\t", nodes, (unsigned)n,
                   spread[i][1] == NETTOPO_SCATTER ? "scatter" : "compact");
            print_placement(t, pes, n);
        }
        nettopo_view_close(v);
    }
}

/* " KEY=VALUE" for the first of up to three identities the device has. */
static void print_identity(nettopo_topology* t, uint32_t m, uint32_t d, const char* key,
                           const char* a, const char* b, const char* c) {
    const char* names[3] = {a, b, c};
    char value[512];
    int i, status;
    for (i = 0; i < 3 && names[i]; ++i) {
        status = nettopo_device_identity(t, m, d, names[i], value, sizeof value, NULL);
        if (status == NETTOPO_OK) {
            printf(" %s=%s", key, value);
            return;
        }
        if (status != NETTOPO_NOT_FOUND) exit(1);
    }
}

/* `nettopo-query devices`'s line for one device. */
static void print_device_line(nettopo_topology* t, uint32_t m, uint32_t d) {
    nettopo_device info;
    char cpuset[4096];
    uint32_t nodes[64], count = 0, i;
    if (nettopo_device_info(t, m, d, &info) != NETTOPO_OK ||
        nettopo_device_cpuset(t, m, d, cpuset, sizeof cpuset, NULL) != NETTOPO_OK ||
        nettopo_device_numa_nodes(t, m, d, nodes, 64, &count) != NETTOPO_OK || count > 64)
        exit(1);
    printf("%s %s %s %s cpuset=%s numa=", nettopo_machine_name(t, m), info.name, info.kind_name,
           info.pci_bus_id[0] ? info.pci_bus_id : "-", cpuset[0] ? cpuset : "-");
    for (i = 0; i < count; ++i) printf("%s%u", i ? "," : "", (unsigned)nodes[i]);
    printf("%s names=%s", count ? "" : "-", info.names);
    print_identity(t, m, d, "guid", "NodeGUID", NULL, NULL);
    print_identity(t, m, d, "uuid", "NVIDIAUUID", "AMDUUID", "LevelZeroUUID");
    if (info.model[0]) printf(" \"%s\"", info.model);
}

/* Text as nettopo-query's lines joined by ';' (paste -sd ';'). */
static void print_joined(const char* text) {
    size_t n = strlen(text), i;
    if (n > 0 && text[n - 1] == '\n') --n;
    for (i = 0; i < n; ++i) putchar(text[i] == '\n' ? ';' : text[i]);
    printf("\n");
}

/* The GPU server (gpu table): devices, cpuset-of, nearest-device, nearest
 * DEVICE K, distribute and distribute --gpus-per-rank [--env]. */
static void print_gpu_answers(nettopo_topology* t, const char* path) {
    static const char* const named[] = {"gpu2", "mlx5_0", "testhost-nvidia:mlx5_3", "cuda1"};
    static const int near_kinds[][2] = {{98, NETTOPO_DEVICE_ANY},
                                        {98, NETTOPO_DEVICE_NIC},
                                        {0, NETTOPO_DEVICE_GPU},
                                        {223, NETTOPO_DEVICE_NIC}};
    static const uint32_t near_pes[] = {5, 40, 300};
    static const uint32_t spread[][2] = {
        {7, NETTOPO_SCATTER}, {5, NETTOPO_COMPACT}, {230, NETTOPO_COMPACT}};
    static const int32_t binds[][3] = {{4, 1, -1}, {2, 2, 2}, {3, 1, 0}, {1, 4, -1}};
    static uint32_t pes[300];
    static double ns[300];
    uint32_t machine, device, n, j, found;
    size_t i;
    char command[4200];

    printf("devices\t");
    for (machine = 0; machine < nettopo_num_machines(t); ++machine) {
        if (nettopo_num_devices(t, machine, &n) != NETTOPO_OK) exit(1);
        for (device = 0; device < n; ++device) {
            if (machine || device) printf(";");
            print_device_line(t, machine, device);
        }
    }
    printf("\n");
    for (i = 0; i < COUNT(named); ++i) {
        char cpuset[4096];
        if (nettopo_find_device(t, named[i], &machine, &device) != NETTOPO_OK ||
            nettopo_device_cpuset(t, machine, device, cpuset, sizeof cpuset, NULL) != NETTOPO_OK)
            exit(1);
        printf("cpuset-of %s\t%s\n", named[i], cpuset);
    }
    for (i = 0; i < COUNT(near_kinds); ++i) {
        const uint32_t pe = (uint32_t)near_kinds[i][0];
        const int kind = near_kinds[i][1];
        uint32_t devices[64];
        double latency[64];
        if (nettopo_machine_of(t, pe, &machine) != NETTOPO_OK ||
            nettopo_nearest_devices(t, pe, kind, 64, devices, latency, &found) != NETTOPO_OK)
            exit(1);
        printf("nearest-device %u%s%s\t", (unsigned)pe,
               kind == NETTOPO_DEVICE_ANY ? "" : " --kind ",
               kind == NETTOPO_DEVICE_ANY   ? ""
               : kind == NETTOPO_DEVICE_GPU ? "gpu"
                                            : "nic");
        for (j = 0; j < found; ++j) {
            nettopo_device info;
            if (nettopo_device_info(t, machine, devices[j], &info) != NETTOPO_OK) exit(1);
            printf("%s%s %s %.17g", j ? ";" : "", info.name, info.kind_name, latency[j]);
        }
        printf("\n");
    }
    for (i = 0; i < COUNT(named); ++i)
        for (j = 0; j < COUNT(near_pes); ++j) {
            uint32_t k;
            if (nettopo_find_device(t, named[i], &machine, &device) != NETTOPO_OK ||
                nettopo_nearest_to_device(t, machine, device, near_pes[j], pes, ns, &found) !=
                    NETTOPO_OK)
                exit(1);
            printf("nearest %s %u\t", named[i], (unsigned)near_pes[j]);
            for (k = 0; k < found; ++k) printf("%s%u %.17g", k ? ";" : "", (unsigned)pes[k], ns[k]);
            printf("\n");
        }
    for (i = 0; i < COUNT(spread); ++i) {
        if (nettopo_distribute(t, NULL, spread[i][0], (int)spread[i][1], pes) != NETTOPO_OK)
            exit(1);
        printf("distribute %u --policy %s\t", (unsigned)spread[i][0],
               spread[i][1] == NETTOPO_SCATTER ? "scatter" : "compact");
        print_placement(t, pes, spread[i][0]);
    }
    for (i = 0; i < COUNT(binds); ++i) {
        nettopo_gpu_binding* b = NULL;
        char nics[32] = "";
        uint64_t r;
        if (binds[i][2] >= 0) sprintf(nics, " --nics-per-rank %d", (int)binds[i][2]);
        if (nettopo_distribute_gpus(t, NULL, (uint64_t)binds[i][0], (uint32_t)binds[i][1],
                                    binds[i][2], &b) != NETTOPO_OK)
            exit(1);
        printf("distribute %d --gpus-per-rank %d%s\t", (int)binds[i][0], (int)binds[i][1], nics);
        for (r = 0; r < nettopo_gpu_binding_num_ranks(b); ++r) {
            nettopo_gpu_rank rank;
            if (nettopo_gpu_binding_rank(b, r, &rank) != NETTOPO_OK) exit(1);
            printf("%s%u %s %s %s %s", r ? ";" : "", (unsigned)r, rank.host,
                   rank.cpuset[0] ? rank.cpuset : "-", rank.gpus, rank.nics[0] ? rank.nics : "-");
        }
        printf("\n");
        /* --env, its first line naming the command as nettopo-query does */
        sprintf(command, "nettopo-query -i %.4000s distribute %d --gpus-per-rank %d%s --env", path,
                (int)binds[i][0], (int)binds[i][1], nics);
        {
            size_t length = 0;
            char* env;
            if (nettopo_gpu_binding_env(b, command, NULL, 0, &length) != NETTOPO_OK) exit(1);
            env = (char*)malloc(length + 1);
            if (!env || nettopo_gpu_binding_env(b, command, env, length + 1, NULL) != NETTOPO_OK)
                exit(1);
            printf("distribute %d --gpus-per-rank %d%s --env\t", (int)binds[i][0], (int)binds[i][1],
                   nics);
            print_joined(env);
            free(env);
        }
        nettopo_gpu_binding_close(b);
    }
}

int main(int argc, char** argv) {
    nettopo_topology* t;
    char missing[4096];

    if (argc == 4 && strcmp(argv[1], "--print") == 0) {
        const struct table* tb = find_table(argv[2]);
        const int gpu = strcmp(argv[2], "gpu") == 0;
        if (!tb && !gpu) return 2;
        t = open_or_die(argv[3]);
        if (gpu) {
            print_gpu_answers(t, argv[3]);
        } else {
            print_answers(tb, t);
            if (strcmp(tb->name, "fattree") == 0) print_view_answers(t);
        }
        nettopo_close(t);
        return 0;
    }
    if (argc != 5) {
        fprintf(stderr,
                "usage: %s FATTREE MALFORMED DISCONNECTED GPU_SERVER\n"
                "       %s --print fattree|disconnected|gpu FILE\n",
                argv[0], argv[0]);
        return 2;
    }

    /* No failure yet on this thread. */
    CHECK(nettopo_last_error() != NULL && nettopo_last_error()[0] == '\0');
    CHECK(nettopo_version() != NULL && nettopo_version()[0] != '\0');

    t = open_or_die(argv[1]);
    check_table(find_table("fattree"), t);
    check_nearest_all(t);
    check_view(t, argv[1]);
    sprintf(missing, "%.4000s.does-not-exist", argv[1]);
    check_errors(t, missing, argv[2]);
    nettopo_close(t);

    t = open_or_die(argv[3]);
    check_table(find_table("disconnected"), t);
    nettopo_close(t);

    t = open_or_die(argv[4]);
    check_devices(t);
    check_gpu_binding(t);
    nettopo_close(t);

    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all C API checks passed\n");
    return 0;
}
