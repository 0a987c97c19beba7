/// \file
/// Assembles a Cluster from machine types, machines, switches and links, and
/// checks it: unique names, valid links, sizes that fit the id types, and a
/// connected network unless allowed otherwise.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/limits.hpp"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nettopo {

/// A name declared twice; `later` is the second declaration, so readers can
/// point at the line that repeats it.
/// \cost Making or copying one copies the name (std::bad_alloc at worst);
/// the accessors are O(1) and throw nothing.
/// \threads A value, like every error (error.hpp): const calls from several
/// threads at once are safe.
class DuplicateNameError : public InputError {
public:
    /// A machine or a switch, by declaration index.
    struct Declaration {
        bool is_switch;      ///< a switch's name, else a machine's
        std::uint32_t index; ///< in add_machine or add_switch order
    };
    /// The error for `name`, repeated by declaration `later`.
    DuplicateNameError(const std::string& name, Declaration later)
        : InputError("duplicate name '" + name + "'"), name_(name), later_(later) {}
    /// The repeated name.
    const std::string& name() const { return name_; }
    /// The declaration that repeats it.
    Declaration later() const { return later_; }

private:
    std::string name_;
    Declaration later_;
};

/// A link declared twice between the same two vertices. `first` and `later`
/// are declaration indexes (in add_link order), so readers can point at the
/// line that repeats it; the later link's endpoints are given as declared.
/// \cost Making or copying one copies the ends' names (std::bad_alloc at
/// worst); the accessors are O(1) and throw nothing.
/// \threads A value, like every error (error.hpp): const calls from several
/// threads at once are safe.
class DuplicateLinkError : public InputError {
public:
    /// An end of the repeated link, as declared.
    struct End {
        bool is_switch;      ///< a switch, else a machine
        std::uint32_t index; ///< its declaration index
        std::string name;    ///< its name
    };
    /// The error for link `later` repeating link `first`, between `a` and `b`.
    DuplicateLinkError(std::size_t first, std::size_t later, End a, End b)
        : InputError("duplicate link between '" + a.name + "' and '" + b.name +
                     "' (declare parallel cables once, with count=)"),
          first_(first), later_(later), a_(std::move(a)), b_(std::move(b)) {}
    /// The first declaration's index.
    std::size_t first() const { return first_; }
    /// The repeating declaration's index.
    std::size_t later() const { return later_; }
    /// One end of the later link.
    const End& a() const { return a_; }
    /// The other end of the later link.
    const End& b() const { return b_; }

private:
    std::size_t first_, later_;
    End a_, b_;
};

/// How ClusterBuilder::build checks the cluster.
struct BuildOptions {
    /// Accept a network in pieces (machines that cannot reach each other).
    bool allow_disconnected = false;
    /// What the reader building the cluster is held to (limits.hpp); readers
    /// give it to their builder (ClusterBuilder::set_limits) before they add.
    Limits limits;
};

/// Assembles a Cluster (see the file's comment): add types, machines,
/// switches and links, then build().
/// \threads One builder is used by one thread at a time (it is not locked);
/// separate builders are independent.
/// \cost add_* are amortised O(1) plus the name's length (add_type hashes
/// the type's signature, O(tree size); add_machines, add_switches and
/// add_links O(count)); build() is O(V + E log E) for the CSR plus the
/// connectivity check (O(V + E), O(M^2) at worst when some machines do not
/// forward) and allocates the cluster. The accessors are O(1).
/// The add_* calls, set_forwards, require_room_for_vertices and build() throw
/// InputError naming no file (readers add the location): bad names,
/// latencies, bandwidths, counts past the Limits, duplicate names
/// (DuplicateNameError) or links (DuplicateLinkError), a disconnected
/// network. The constructor, set_* and the other accessors throw nothing but
/// std::bad_alloc, type() aside.
class ClusterBuilder {
public:
    /// An empty builder for a cluster called `name`.
    explicit ClusterBuilder(std::string name = {});

    /// The limits add_machine, add_switch and add_link hold the cluster to
    /// (default: Limits{}). Throws nothing.
    void set_limits(const Limits& limits) { limits_ = limits; }
    /// The limits set (Limits{} by default).
    const Limits& limits() const { return limits_; }
    /// Refuses, before a reader expands them, `more` machines or switches
    /// that would bring the cluster past Limits::max_vertices: InputError
    /// with Remedy::raise_vertex_limit, naming no file.
    void require_room_for_vertices(std::uint64_t more) const;

    /// Records the spec of the family the cluster is generated from
    /// (Cluster::family); generate() and the archive reader set it.
    void set_family(std::string spec) { family_ = std::move(spec); }

    /// Identical types (same tree, node level and latencies) are shared.
    TypeId add_type(MachineType type);
    /// Errors (InputError) name the offending entity but no file: callers that
    /// read files add the location. Names are checked for uniqueness (machines
    /// and switches share one namespace) by build(); readers that want the
    /// line of a duplicate check as they go. `type` must come from add_type
    /// (std::out_of_range otherwise); after add_links, Error.
    MachineId add_machine(std::string_view name, TypeId type);
    /// Adds a switch; InputError for an empty name or past the limits.
    SwitchId add_switch(std::string_view name);
    /// A run of names: `prefix` followed by first_number, first_number + 1,
    /// ... (count names), each number zero-padded to `width` digits, as an
    /// archive's `machines`/`switches` range elements write them. The same as count
    /// calls of add_machine (add_switch) with those names, same checks, same
    /// errors, but without making each name apart: an archive's million
    /// machines cost no million formatted strings. O(count) amortised, no string
    /// per name; InputError as add_machine.
    void add_machines(std::string_view prefix, std::uint64_t first_number, std::uint64_t count,
                      int width, TypeId type);
    /// The same for a run of switches (add_switch's checks and errors).
    void add_switches(std::string_view prefix, std::uint64_t first_number, std::uint64_t count,
                      int width);

    /// Whether machine m carries traffic between its neighbours (Network::
    /// forwards). A machine forwards unless told otherwise: set false for end
    /// hosts (InfiniBand or Ethernet hosts, hosts of an assembled fabric);
    /// machines of a direct network (the host is the router) keep true.
    /// Switches always forward.
    /// InputError when there is no machine `m`.
    void set_forwards(MachineId m, bool forwards);
    /// Whether machine `m` forwards (true unless set_forwards said otherwise).
    bool forwards(MachineId m) const;

    /// What tells machine `m`'s devices from an identical host's (GUIDs,
    /// UUIDs, addresses: DeviceIdentity), each naming one of its type's
    /// devices; replaces what was set before (Cluster::identities).
    /// InputError when there is no machine `m`, for a device its type lacks,
    /// an empty view or name, or text that is not UTF-8 or holds a control
    /// character. O(identities + log runs).
    void set_identities(MachineId m, std::vector<DeviceIdentity> identities);

    /// A link endpoint: a machine or a switch, by declaration index.
    struct Endpoint {
        bool is_switch = false;  ///< a switch, else a machine
        std::uint32_t index = 0; ///< in add_machine or add_switch order
    };
    /// One cabled port of one of a machine's adapters (set_attachments).
    struct Cable {
        std::string device;     ///< Attachment::device
        std::uint64_t guid = 0; ///< Attachment::guid (0: unknown)
        std::uint32_t port = 0; ///< Attachment::port (0: unknown)
        Endpoint peer;          ///< the switch or machine the cable reaches
    };
    /// Machine `m`'s cabled adapter ports (Cluster::attachments), in the
    /// order Attachment's comment gives; replaces what was set before. Each
    /// must follow a link of the machine: build() throws InputError naming
    /// the machine otherwise (Cluster::set_attachment_parts' checks). InputError
    /// here when there is no machine `m`. O(cables).
    void set_attachments(MachineId m, std::vector<Cable> cables);
    /// Adds a link of `multiplicity` cables. InputError for a latency outside
    /// 0..max_link_latency_ns, a negative or non-finite bandwidth (0: unknown), no cable, a
    /// link from a vertex to itself or past the limits; endpoints and
    /// duplicates are checked by build().
    void add_link(Endpoint a, Endpoint b, double latency_ns, double bandwidth_gbps = 0,
                  std::uint32_t multiplicity = 1);
    /// What add_link checks of a link's values (latency, bandwidth, cables):
    /// InputError naming no file. For readers that check as they go.
    static void check_link_values(double latency_ns, double bandwidth_gbps,
                                  std::uint32_t multiplicity);
    /// Links given by vertex id (machines 0..M-1, then switches), in
    /// declaration order, ends in the order written: for readers that know
    /// every machine before the links (an archive). Each link is checked as
    /// add_link checks it (InputError naming the link's index among all
    /// links). From then on no machine may be added (vertex ids of switches
    /// would move: Error), and add_link appends to the same list. Holding the
    /// links flat lets build() hand them to the network without a copy when
    /// they come sorted, as every archive writes them.
    void add_links(std::vector<Link> links);

    /// Type `t` as added; std::out_of_range when there is none.
    const MachineType& type(TypeId t) const { return types_.at(t.value); }
    /// PEs of the machines added so far.
    std::uint64_t num_pes() const { return total_pes_; }
    /// Switches added so far.
    std::uint32_t num_switches() const { return switch_names_.size(); }
    /// Machines added so far.
    std::uint32_t num_machines() const { return num_machines_; }

    /// Throws InputError when the result would be invalid; for a network that
    /// is not connected, with Remedy::allow_disconnected. Connected means:
    /// cables join every vertex, and every machine reaches every other by a
    /// path that passes through no machine that does not forward (with every
    /// machine forwarding, the first implies the second).
    Cluster build(const BuildOptions& options = {}) &&;

private:
    struct PendingLink {
        Endpoint a, b;
        double latency_ns, bandwidth_gbps;
        std::uint32_t multiplicity;
    };
    std::string name_;
    std::string family_;
    Limits limits_;
    std::vector<MachineType> types_;
    std::unordered_map<std::string, TypeId> type_by_signature_;
    /// Runs of consecutive machines of one type (first machine, type): a
    /// range of a million machines is one entry.
    struct MachineRun {
        std::uint32_t first;
        TypeId type;
    };
    std::vector<MachineRun> machine_runs_;
    std::uint32_t num_machines_ = 0;
    /// Per machine, 1 unless set_forwards(m, false); empty while every machine forwards.
    std::vector<std::uint8_t> machine_forwards_;
    /// Per machine with identities (set_identities), by machine id.
    std::unordered_map<std::uint32_t, std::vector<DeviceIdentity>> identities_;
    /// Per machine with attachments (set_attachments), by machine id.
    std::unordered_map<std::uint32_t, std::vector<Cable>> cables_;
    std::uint64_t total_pes_ = 0;
    NameTable machine_names_;
    NameTable switch_names_;
    std::vector<PendingLink> links_;
    // After add_links: every link by vertex id (then links_ is empty).
    bool links_by_vertex_ = false;
    std::vector<Link> vertex_links_;
    // Checks before adding `count` machines; how many of them surely pass
    // every check add_machine makes (names from a valid prefix, room, PEs).
    std::uint64_t machines_that_fit(std::string_view prefix, std::uint64_t first_number,
                                    std::uint64_t count, int width, TypeId type) const;
    void append_machines(TypeId type, std::uint64_t count);
};

} // namespace nettopo
