/* nettopo from C: load a topology, then ask how close a few PEs are to PE 0
 * (proximity level, network hops, latency distance) and which PEs are nearest.
 * Built against an installed nettopo by the Makefile beside it, with pkg-config:
 *   make PKG_CONFIG_PATH=<nettopo's libdir>/pkgconfig
 *   ./example [TOPOLOGY]        (an archive, a description or an hwloc XML)
 * It prints what `nettopo-query -i TOPOLOGY <query> ...` answers, one line each,
 * as the C++ example does. Calls return 0 on success; nettopo_last_error()
 * says why one failed. */
#include <inttypes.h>
#include <nettopo/nettopo.h>
#include <stdint.h>
#include <stdio.h>

#ifndef EXAMPLE_TOPOLOGY
#define EXAMPLE_TOPOLOGY "../small-fattree.topo"
#endif

static int fail(nettopo_topology* t, const char* what) {
    fprintf(stderr, "example: %s: %s\n", what, nettopo_last_error());
    nettopo_close(t);
    return 1;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : EXAMPLE_TOPOLOGY;
    nettopo_topology* t = NULL;
    if (nettopo_open(path, &t) != 0) {
        fprintf(stderr, "example: %s\n", nettopo_last_error());
        return 1;
    }
    const uint32_t n = nettopo_num_pes(t);
    printf("num-pes: %" PRIu32 "\nnum-machines: %" PRIu32 "\n", n, nettopo_num_machines(t));

    /* PE 0 against a hardware thread of its core (1), another core (2), the
     * other socket (16), the next host (32) and the last PE; those that exist. */
    const uint32_t others[] = {1, 2, 16, 32, n - 1};
    int printed = 0;
    uint32_t last = 0;
    for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
        const uint32_t b = others[i];
        if (b >= n || (printed && b <= last)) continue;
        printed = 1;
        last = b;
        int level;
        if (nettopo_proximity(t, 0, b, &level) != 0) return fail(t, "proximity");
        printf("proximity 0 %" PRIu32 ": %d\n", b, level);
        /* 0: an answer, 1: no path between the two machines, < 0: an error. */
        uint32_t hops;
        int rc = nettopo_hops(t, 0, b, &hops);
        if (rc < 0) return fail(t, "hops");
        if (rc == 0)
            printf("hops 0 %" PRIu32 ": %" PRIu32 "\n", b, hops);
        else
            printf("hops 0 %" PRIu32 ": unreachable\n", b);
        double ns;
        rc = nettopo_distance_ns(t, 0, b, &ns);
        if (rc < 0) return fail(t, "distance");
        if (rc == 0)
            printf("distance 0 %" PRIu32 ": %g ns\n", b, ns);
        else
            printf("distance 0 %" PRIu32 ": unreachable\n", b);
    }

    /* The caller gives room for k answers; `found` says how many there are. */
    uint32_t pes[3];
    double ns[3];
    uint32_t found;
    if (nettopo_nearest(t, 0, 3, pes, ns, &found) != 0) return fail(t, "nearest");
    printf("nearest 0 3:");
    for (uint32_t i = 0; i < found; ++i)
        printf("%s %" PRIu32 " (%g ns)", i ? "," : "", pes[i], ns[i]);
    printf("\n");

    nettopo_close(t);
    return 0;
}
