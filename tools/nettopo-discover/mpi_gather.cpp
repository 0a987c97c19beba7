// nettopo-discover --mpi over MPI (the C API). Three steps, so that rank 0
// holds one tree per kind of machine plus a name per rank, never every
// rank's tree:
//  1. every rank discovers its machine (discover_this_machine) and rank 0
//     gathers a fixed header from each (a hash of the tree's signature, its
//     size, the lengths of the host name and of an error message), then the
//     host names (and errors);
//  2. rank 0 keeps one rank per host name and one per distinct hash and
//     scatters an instruction to each rank: send your tree, send nothing, or
//     stop (a rank failed, or one host name came with two different trees);
//  3. the chosen ranks send their tree's signature, which rank 0 reads back
//     (tree_from_signature), checks against the hash, and assembles; one
//     rank per host sends its devices' identities (GUIDs, addresses: a few
//     hundred bytes a host), which differ between hosts of one tree.
#include "nettopo-discover/mpi_gather.hpp"

#include "common/identity_text.hpp"
#include "common/mpi_session.hpp"
#include "common/tool_support.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <algorithm>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <map>
#include <mpi.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace nettopo {
namespace {

constexpr int root = 0;
constexpr int tag_tree = 1;
constexpr int tag_identities = 2;
// Host names and error messages travel cut to this length, so that rank 0's
// buffer of names stays within MPI's int counts for a million ranks.
constexpr std::size_t max_text_bytes = 1024;

// Bits: a rank may send both its tree and its host's identities.
enum Instruction : int { send_nothing = 0, send_tree = 1, stop = 2, send_identities = 4 };

struct Header {
    std::uint64_t hash = 0;       // of the tree's signature
    std::uint64_t tree_bytes = 0; // 0 when discovery failed
    std::uint32_t name_bytes = 0;
    std::uint32_t error_bytes = 0;    // 0 when discovery succeeded
    std::uint64_t identity_bytes = 0; // identities_text's size
};

// FNV-1a over the signature: equal trees have equal signatures. Two
// different machines of one job share a hash with probability about
// kinds² / 2^65; rank 0 checks every tree it receives against its hash.
std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

// $NETTOPO_HOSTNAME when set (the fabric's name for this host, or several
// ranks of one machine playing different hosts in the tests), else the
// kernel's.
std::string host_name() {
    if (const char* env = std::getenv("NETTOPO_HOSTNAME"); env && *env) {
        if (std::strlen(env) > max_text_bytes)
            throw UsageError(
                fmt::format("NETTOPO_HOSTNAME is longer than {} bytes", max_text_bytes));
        return env;
    }
    char buf[HOST_NAME_MAX + 1] = {};
    if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0')
        throw Error(fmt::format("gethostname: {}", std::strerror(errno)));
    return buf;
}

// For the tests only: NETTOPO_MPI_TEST_FAULT=error makes this rank's
// discovery fail as an hwloc error would, =signal kills this rank (SIGKILL)
// before it reports.
void test_fault() {
    const char* fault = std::getenv("NETTOPO_MPI_TEST_FAULT");
    if (!fault) return;
    if (std::strcmp(fault, "error") == 0)
        throw Error("hwloc cannot discover this machine (NETTOPO_MPI_TEST_FAULT=error)");
    if (std::strcmp(fault, "signal") == 0) std::raise(SIGKILL);
}

struct Local {
    std::string name, signature, error;
    std::string identities; // identities_text of this host's devices
};

Local discover_locally(PuScope scope) {
    Local local;
    try {
        local.name = host_name();
        test_fault();
        const HwlocMachine m = discover_this_machine(scope);
        local.signature = m.tree.signature();
        local.identities = identities_text(m.identities);
    } catch (const std::exception& e) {
        local.error = error_message(e).substr(0, max_text_bytes);
        if (local.error.empty()) local.error = "unknown error";
    }
    return local;
}

// What rank 0 decides from the headers and names.
struct Plan {
    std::vector<int> instructions; // one per rank
    std::string problem;           // non-empty: every rank stops
    GatheredHosts hosts;           // trees still to receive
    struct Sender {
        int rank;
        std::uint32_t tree;
        std::size_t host; // the host whose tree it is, for messages
    };
    std::vector<Sender> senders;
    struct IdentitySender {
        int rank;
        std::size_t host; // index into hosts.hosts
    };
    std::vector<IdentitySender> identity_senders; // one rank per host that has some
    std::vector<std::uint64_t> tree_hash;         // per tree index
    std::size_t ranks = 0, text_bytes = 0;
};

// The first 8 names, as a hostlist where they fold into one, then "and N
// more": a message about 4,000 hosts stays one line.
std::string some_names(std::vector<std::string> names) {
    constexpr std::size_t shown = 8;
    std::sort(names.begin(), names.end(), natural_less);
    const std::size_t more = names.size() > shown ? names.size() - shown : 0;
    names.resize(names.size() - more);
    std::string text;
    try {
        text = compress_hostlist(names);
    } catch (const InputError&) {
        text = fmt::format("{}", fmt::join(names, ","));
    }
    if (more) fmt::format_to(std::back_inserter(text), " and {} more", more);
    return text;
}

Plan plan_on_root(const std::vector<Header>& headers, const std::string& text) {
    Plan plan;
    plan.ranks = headers.size();
    plan.text_bytes = text.size();
    plan.instructions.assign(headers.size(), send_nothing);
    std::map<std::string, std::vector<std::string>> failed; // message -> hosts
    std::vector<std::string> two_trees;
    struct Seen {
        std::uint64_t hash;
        int rank;
    };
    std::unordered_map<std::string, Seen> host_seen;
    std::unordered_map<std::uint64_t, std::uint32_t> tree_of_hash;
    std::size_t at = 0;
    for (std::size_t r = 0; r < headers.size(); ++r) {
        const Header& h = headers[r];
        std::string name = text.substr(at, h.name_bytes);
        const std::string error = text.substr(at + h.name_bytes, h.error_bytes);
        at += std::size_t{h.name_bytes} + h.error_bytes;
        const int rank = static_cast<int>(r);
        if (!error.empty()) {
            failed[error].push_back(name.empty() ? fmt::format("rank {}", rank) : name);
            continue;
        }
        const auto [seen, first] = host_seen.try_emplace(name, Seen{h.hash, rank});
        if (!first) { // another rank on a host already counted
            if (seen->second.hash != h.hash)
                two_trees.push_back(
                    fmt::format("{} (ranks {} and {})", name, seen->second.rank, rank));
            continue;
        }
        const auto [tree, fresh] =
            tree_of_hash.try_emplace(h.hash, static_cast<std::uint32_t>(plan.tree_hash.size()));
        if (fresh) {
            plan.tree_hash.push_back(h.hash);
            plan.senders.push_back({rank, tree->second, plan.hosts.hosts.size()});
            plan.instructions[r] = send_tree;
        }
        if (h.identity_bytes > 0) {
            plan.instructions[r] |= send_identities;
            plan.identity_senders.push_back({rank, plan.hosts.hosts.size()});
        }
        plan.hosts.hosts.push_back({name, tree->second, name});
    }
    std::vector<std::string> problems;
    for (const auto& [message, hosts] : failed)
        problems.push_back(fmt::format("discovery failed on {} {}: {}",
                                       counted(hosts.size(), "host"), some_names(hosts), message));
    if (!two_trees.empty())
        problems.push_back(
            fmt::format("ranks with one host name saw different machines (give each host its own "
                        "NETTOPO_HOSTNAME): {}",
                        some_names(two_trees)));
    if (!problems.empty()) {
        plan.problem = fmt::format("{}", fmt::join(problems, "; "));
        plan.instructions.assign(headers.size(), stop);
    }
    return plan;
}

// Step 3 on rank 0: every chosen rank's tree, received even after a bad
// one (a sender must not wait forever), then the first problem thrown.
void receive_trees(Plan& plan, const std::vector<Header>& headers, const Local& local) {
    plan.hosts.trees.resize(plan.tree_hash.size());
    std::string problem;
    for (const auto& [rank, tree, host_index] : plan.senders) {
        std::string signature;
        if (rank == root) {
            signature = local.signature;
        } else {
            signature.resize(headers[static_cast<std::size_t>(rank)].tree_bytes);
            MPI_Recv(signature.data(), static_cast<int>(signature.size()), MPI_CHAR, rank, tag_tree,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (!problem.empty()) continue;
        const std::string& host = plan.hosts.hosts[host_index].name;
        if (fnv1a(signature) != plan.tree_hash[tree]) {
            problem = fmt::format("the tree of {} (rank {}) arrived damaged", host, rank);
            continue;
        }
        try {
            plan.hosts.trees[tree] = tree_from_signature(signature);
        } catch (const InputError& e) {
            problem = fmt::format("the tree of {} (rank {}): {}", host, rank, e.what());
        }
    }
    if (!problem.empty()) throw InputError(problem);
}

// Step 3 on rank 0, after the trees: each host's identities, from the rank
// the plan chose for it.
void receive_identities(Plan& plan, const std::vector<Header>& headers, const Local& local) {
    std::string problem;
    for (const auto& [rank, host_index] : plan.identity_senders) {
        std::string text;
        if (rank == root) {
            text = local.identities;
        } else {
            text.resize(headers[static_cast<std::size_t>(rank)].identity_bytes);
            MPI_Recv(text.data(), static_cast<int>(text.size()), MPI_CHAR, rank, tag_identities,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (!problem.empty()) continue;
        GatheredHosts::Host& host = plan.hosts.hosts[host_index];
        std::istringstream in(text);
        auto identities = read_identities_text(in, text.size());
        if (!identities)
            problem = fmt::format("the device identities of {} (rank {}) arrived damaged",
                                  host.name, rank);
        else
            host.identities = std::move(*identities);
    }
    if (!problem.empty()) throw InputError(problem);
}

int gather(const MpiDiscoverOptions& options, int rank, int size) {
    const double start = MPI_Wtime();
    const Local local = discover_locally(options.pu_scope);
    Header mine;
    mine.name_bytes = static_cast<std::uint32_t>(local.name.size());
    mine.error_bytes = static_cast<std::uint32_t>(local.error.size());
    if (local.error.empty()) {
        mine.hash = fnv1a(local.signature);
        mine.tree_bytes = local.signature.size();
        mine.identity_bytes = local.identities.size();
    }
    const bool on_root = rank == root;
    std::vector<Header> headers(on_root ? static_cast<std::size_t>(size) : 0);
    MPI_Gather(&mine, sizeof(Header), MPI_BYTE, headers.data(), sizeof(Header), MPI_BYTE, root,
               MPI_COMM_WORLD);
    const std::string my_text = local.name + local.error;
    std::vector<int> counts, displacements;
    std::string text;
    if (on_root) {
        int total = 0;
        for (const Header& h : headers) {
            displacements.push_back(total);
            counts.push_back(static_cast<int>(h.name_bytes + h.error_bytes));
            total += counts.back();
        }
        text.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(my_text.data(), static_cast<int>(my_text.size()), MPI_CHAR, text.data(),
                counts.data(), displacements.data(), MPI_CHAR, root, MPI_COMM_WORLD);
    Plan plan;
    if (on_root) plan = plan_on_root(headers, text);
    text = {};
    counts = {};
    displacements = {};
    int instruction = send_nothing;
    MPI_Scatter(plan.instructions.data(), 1, MPI_INT, &instruction, 1, MPI_INT, root,
                MPI_COMM_WORLD);
    if (instruction == stop) {
        if (on_root)
            return run_guarded(options.tool, [&]() -> int { throw InputError(plan.problem); });
        return exit_bad_data;
    }
    if (!on_root) {
        if (instruction & send_tree)
            MPI_Send(local.signature.data(), static_cast<int>(local.signature.size()), MPI_CHAR,
                     root, tag_tree, MPI_COMM_WORLD);
        if (instruction & send_identities)
            MPI_Send(local.identities.data(), static_cast<int>(local.identities.size()), MPI_CHAR,
                     root, tag_identities, MPI_COMM_WORLD);
        return exit_ok;
    }
    return run_guarded(options.tool, [&] {
        receive_trees(plan, headers, local);
        receive_identities(plan, headers, local);
        std::uint64_t tree_bytes = 0, identity_bytes = 0;
        for (const Plan::Sender& sender : plan.senders)
            tree_bytes += headers[static_cast<std::size_t>(sender.rank)].tree_bytes;
        for (const Plan::IdentitySender& sender : plan.identity_senders)
            identity_bytes += headers[static_cast<std::size_t>(sender.rank)].identity_bytes;
        headers = {};
        if (!options.quiet)
            std::cerr << fmt::format(
                "{}: gathered {} in {:.3f} s: {} of {}; each rank sent {} bytes and its "
                "name ({} bytes in all), one rank per machine type its tree ({} bytes in all), "
                "one rank per host its device identities ({} bytes in all)\n",
                options.tool, counted(plan.ranks, "rank"), MPI_Wtime() - start,
                counted(plan.hosts.hosts.size(), "host"),
                counted(plan.hosts.trees.size(), "machine type"), sizeof(Header), plan.text_bytes,
                tree_bytes, identity_bytes);
        return options.assemble_on_root(plan.hosts);
    });
}

} // namespace

int discover_over_mpi(const MpiDiscoverOptions& options) {
    const MpiSession session;
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    // Every rank has the same command line: all stop on a usage error, rank 0 says it.
    if (rank == root) {
        if (const int code = run_guarded(options.tool, [&] {
                options.check_usage();
                return exit_ok;
            }))
            return code;
    } else {
        try {
            options.check_usage();
        } catch (const UsageError&) {
            return exit_bad_usage;
        }
    }
    return gather(options, rank, size);
}

} // namespace nettopo
