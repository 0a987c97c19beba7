/* The C API from a C99 program: answers on share/examples/small-fattree.topo
 * and on a disconnected archive, checked against values nettopo-query prints
 * (written below; tests/api/c_api_vs_query.sh asks the tool again for each at
 * test time), and the error paths: bad PE ids, NULL handles and pointers, a
 * missing file, a malformed file.
 *
 *   c_api_test FATTREE MALFORMED DISCONNECTED   run the checks
 *   c_api_test --print fattree|disconnected FILE
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

/* ---- --print: the C API's answers in nettopo-query's text form ---- */

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

int main(int argc, char** argv) {
    nettopo_topology* t;
    char missing[4096];

    if (argc == 4 && strcmp(argv[1], "--print") == 0) {
        const struct table* tb = find_table(argv[2]);
        if (!tb) return 2;
        t = open_or_die(argv[3]);
        print_answers(tb, t);
        nettopo_close(t);
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr,
                "usage: %s FATTREE MALFORMED DISCONNECTED\n"
                "       %s --print fattree|disconnected FILE\n",
                argv[0], argv[0]);
        return 2;
    }

    /* No failure yet on this thread. */
    CHECK(nettopo_last_error() != NULL && nettopo_last_error()[0] == '\0');
    CHECK(nettopo_version() != NULL && nettopo_version()[0] != '\0');

    t = open_or_die(argv[1]);
    check_table(find_table("fattree"), t);
    check_nearest_all(t);
    sprintf(missing, "%.4000s.does-not-exist", argv[1]);
    check_errors(t, missing, argv[2]);
    nettopo_close(t);

    t = open_or_die(argv[3]);
    check_table(find_table("disconnected"), t);
    nettopo_close(t);

    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all C API checks passed\n");
    return 0;
}
