// Reader of ibnetdiscover output (infiniband-diags / rdma-core), both formats
// it prints, recognised by the first line that is not blank, a '#' comment or
// a "DR path" trace line (-s): a first word of SW, CA or RT means the per-port
// report of -p, anything else the default topology file.
//
// Topology file (one block per node, switches first):
//   vendid=0x8f1 / devid=0x5a5a / sysimgguid=0x... / switchguid=0x...(...) or
//   caguid=0x... or rtguid=0x...                          (checked, not used)
//   Switch  36 "S-0008f105001094d2"  # "desc" enhanced port 0 lid 1 lmc 0
//   Ca      2 "H-0002c9030002e6d0"   # "desc"              (Rt: a router)
//   [1]  "H-0002c9030002e6d0"[1](2c9030002e6d1)  # "peer desc" lid 5 4xQDR
//   [1](2c9030002e6d1)  "S-0008f105001094d2"[1]  # lid 5 lmc 0 "peer desc" lid 1 4xQDR
// plus what -g adds ("[ext N]" after a port, "Chassis N ...", "Non-Chassis
// Nodes", "Hostname: ..." lines) and what -f adds after the speed (ignored).
// A node is the GUID of its "X-<guid>" name (the node GUID), a port end is
// (node GUID, port number).
//
// Ports report (-p), one line per port of every node:
//   CA 182 1 0x001175000077d284 4x QDR - SW 18 18 0x00066a00ec002dd9 ( 'desc' - 'peer desc' )
//   SW 18 1 0x00066a00ec002dd9 4x SDR                                    'desc'
// The second kind is a port without a peer: it declares the node, no link.
// Here a node is the GUID the line prints, which ibnetdiscover takes from the
// port: for a switch the GUID of port 0 (in practice the node GUID), for a CA
// the port GUID (see below). The two descriptions are split at the first
// "' - '". A line without width and speed (older output) gives an unknown
// bandwidth, as does a topology file's port line that ends at the LID.
//
// Adapters by node GUID: the topology file names every node "X-<node
// GUID>"; the -p report prints a CA's port GUID (the node GUID + the port
// number on older adapters, so each port of a dual-port HCA is a distinct
// GUID there). Its "DR path" trace lines (-s: "0,1,6,10 -> new Channel
// Adapter {<node guid>} portnum 1 ...") give the node GUIDs: the path's
// parent is a switch whose report line for the path's last port names the
// adapter's port GUID, checked against the trace's port number; the
// initiator (route "0") is the one CA port of its first switch that no route
// reaches. Without them (no -s), an adapter of the report is the GUID it
// prints.
//
// Naming (fabric.hpp says the rules): switches S-<guid>, routers R-<guid>
// (both are switches of the fabric), or the map's one-word name; channel
// adapters grouped into hosts by the host their name names, then by system
// image GUID, else H-<guid>; SHARP aggregation nodes left out. A host's
// description is that of its first adapter read; a GUID's description is
// the first one read (with a node-name map the headers and the peers' lines
// can differ); with a map, a node the map names is described by the map.
//
// Links: a port line pairs two port ends. Each physical link (cable) is kept
// once whether one or both ends report it (a truncated dump still gives its
// links, and Fabric::one_ended_cables says which: ibnetdiscover reports
// every cable from both ends); a port end reported linked to two different
// peers is an InputError.
// Cables between the same two nodes become one FabricLink whose multiplicity
// counts them; its bandwidth is the per-lane data rate of the speed times the
// width, the lowest over the cables when their speeds differ (the ends of one
// cable normally agree; the lower counts if not). ibnetdiscover's own
// "unknown" tokens ("??" width, "???" speed) give an unknown bandwidth (0),
// which a known one of another report replaces. A cable whose two ends are
// the same node after naming (a switch port looped to another of its ports,
// two HCAs of one host cabled together) is dropped: FabricLink joins two
// distinct nodes; so are the cables of the adapters left out.
#include "fabric/adapter_order.hpp"
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <fmt/format.h>
#include <istream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nettopo {

namespace {

enum class Kind : std::uint8_t { Switch, Ca, Router };

const char* kind_prefix(Kind k) {
    switch (k) {
    case Kind::Switch:
        return "S";
    case Kind::Ca:
        return "H";
    case Kind::Router:
        return "R";
    }
    return "?";
}

const char* kind_noun(Kind k) {
    switch (k) {
    case Kind::Switch:
        return "a switch";
    case Kind::Ca:
        return "a channel adapter";
    case Kind::Router:
        return "a router";
    }
    return "?";
}

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

// 1 to 16 hex digits, nothing else.
// A cursor over one line.
struct Scan {
    explicit Scan(std::string_view line) : s(line) {}
    std::string_view s;
    std::size_t i = 0;

    void blanks() {
        while (i < s.size() && is_blank(s[i])) ++i;
    }
    bool done() const { return i >= s.size(); }
    bool at(char c) const { return i < s.size() && s[i] == c; }
    bool at(std::string_view w) const { return s.substr(i).starts_with(w); }
    std::string_view token() {
        blanks();
        const std::size_t b = i;
        while (i < s.size() && !is_blank(s[i])) ++i;
        return s.substr(b, i - b);
    }
    // The text up to the next c (not included), the cursor after c; nullopt if no c.
    std::optional<std::string_view> until(char c) {
        const std::size_t e = s.find(c, i);
        if (e == std::string_view::npos) return std::nullopt;
        const std::string_view r = s.substr(i, e - i);
        i = e + 1;
        return r;
    }
    std::string_view rest() const { return s.substr(std::min(i, s.size())); }
};

struct PortEnd {
    std::uint64_t peer = 0; // end key (GuidRec index << 8 | port) of the other end, 0: none
    std::uint32_t cable = 0;
};

struct GuidRec {
    std::uint64_t guid = 0; // as the source prints it (-p: a CA's port GUID)
    Kind kind = Kind::Switch;
    std::string desc;
    std::size_t line = 0;
    std::vector<PortEnd> ports = {};          // by port number, as far as the highest one linked
    std::optional<std::uint64_t> sysimg{};    // system image GUID (topology file)
    std::optional<std::uint64_t> node_guid{}; // -p: from the DR path trace
};

// A "DR path" trace line: the node at the end of a directed route.
struct DrNode {
    Kind kind = Kind::Switch;
    std::uint64_t guid = 0; // node GUID
    unsigned port = 0;      // a CA's port the route enters by
};

struct Cable {
    std::uint32_t a = 0, b = 0; // GuidRec indexes
    double gbps = 0;
    std::size_t line = 0;
    std::uint64_t reported_by = 0; // the port end of the first report
    bool both_ends = false;        // the other end reported it too
};

double lower_known(double x, double y) {
    if (x == 0) return y;
    if (y == 0) return x;
    return std::min(x, y);
}

// What the SHARP firmware of NVIDIA (Mellanox) Quantum switches names the
// adapter of each switch's aggregation node.
bool is_aggregation_node(std::string_view desc) {
    constexpr std::string_view sharp = "mellanox technologies aggregation node";
    desc = trim(desc);
    return desc.size() == sharp.size() &&
           std::equal(desc.begin(), desc.end(), sharp.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           });
}

class IbReader {
public:
    explicit IbReader(const std::string& source) : source_(source) {}

    void read(std::istream& in) {
        std::string buf;
        enum class Format { Unknown, Topology, Ports } format = Format::Unknown;
        while (std::getline(in, buf)) {
            ++line_;
            const std::string_view s = trim(buf);
            if (s.empty() || s.front() == '#') continue;
            if (s.starts_with("DR path")) {
                dr_line(s);
                continue;
            }
            if (format == Format::Unknown) {
                Scan sc{s};
                const std::string_view w = sc.token();
                format = (w == "SW" || w == "CA" || w == "RT") ? Format::Ports : Format::Topology;
            }
            if (format == Format::Ports)
                ports_line(s);
            else
                topology_line(s);
        }
        if (format == Format::Ports) resolve_node_guids();
    }

    Fabric finish(const IbnetdiscoverOptions& options) &&;
    std::vector<FabricAdapter> adapters(const std::vector<std::uint32_t>& node_of,
                                        const NodeNameMap* map) const;

private:
    // "DR path slid 0; dlid 0; 0,1,6,10 -> new Channel Adapter {0002c9030006db4c}
    // portnum 1 lid 0-0 \"\"": progress traces, read for the node GUIDs
    // they give and otherwise skipped; one that does not parse is skipped too.
    void dr_line(std::string_view s) {
        const std::size_t arrow = s.find(" -> ");
        const std::size_t semi = s.substr(0, arrow).rfind(';');
        const std::size_t open = s.find('{'), close = s.find('}');
        if (arrow == std::string_view::npos || semi == std::string_view::npos ||
            open == std::string_view::npos || close == std::string_view::npos || close < open ||
            open < arrow)
            return;
        const std::string_view path = trim(s.substr(semi + 1, arrow - semi - 1));
        const std::string_view what = s.substr(arrow + 4, open - arrow - 4);
        Kind kind = Kind::Switch;
        if (what.find("Channel Adapter") != std::string_view::npos)
            kind = Kind::Ca;
        else if (what.find("Router") != std::string_view::npos)
            kind = Kind::Router;
        else if (what.find("Switch") == std::string_view::npos)
            return;
        const auto guid = parse_hex(s.substr(open + 1, close - open - 1));
        Scan tail{s.substr(close + 1)};
        if (!guid || tail.token() != "portnum") return;
        const auto port = parse_uint(tail.token());
        if (!port || *port > 255) return;
        dr_.emplace(std::string(path), DrNode{kind, *guid, static_cast<unsigned>(*port)});
    }

    // -p: each CA reached from a switch port is the node GUID of its trace.
    void resolve_node_guids() {
        for (const auto& [path, child] : dr_) {
            const std::size_t comma = path.rfind(',');
            if (child.kind != Kind::Ca || comma == std::string::npos) continue;
            const auto parent = dr_.find(path.substr(0, comma));
            const auto out = parse_uint(std::string_view(path).substr(comma + 1));
            if (parent == dr_.end() || parent->second.kind != Kind::Switch || !out) continue;
            const auto sw = by_guid_.find(parent->second.guid);
            if (sw == by_guid_.end() || recs_[sw->second].ports.size() <= *out) continue;
            const std::uint64_t peer = recs_[sw->second].ports[*out].peer;
            GuidRec& ca = recs_[peer >> 8];
            if (peer == 0 || ca.kind != Kind::Ca || (peer & 0xff) != child.port) continue;
            if (!ca.node_guid) ca.node_guid = child.guid;
        }
        // The initiator (route "0", a CA) is reached by no route: it is the one
        // CA port on the switch of route "0,<its port>" that no route reached.
        const auto init = dr_.find("0");
        if (init == dr_.end() || init->second.kind != Kind::Ca) return;
        const auto first = dr_.find(fmt::format("0,{}", init->second.port));
        if (first == dr_.end() || first->second.kind != Kind::Switch) return;
        const auto sw = by_guid_.find(first->second.guid);
        if (sw == by_guid_.end()) return;
        std::optional<std::uint32_t> found;
        for (const PortEnd& e : recs_[sw->second].ports) {
            const GuidRec& ca = recs_[e.peer >> 8];
            if (e.peer == 0 || ca.kind != Kind::Ca || ca.node_guid ||
                (e.peer & 0xff) != init->second.port)
                continue;
            if (found && *found != (e.peer >> 8)) return; // ambiguous: leave it
            found = static_cast<std::uint32_t>(e.peer >> 8);
        }
        if (found) recs_[*found].node_guid = init->second.guid;
    }

    [[noreturn]] void fail(const std::string& msg) const { throw InputError(source_, line_, msg); }

    static std::string guid_name(Kind k, std::uint64_t guid) {
        return fmt::format("{}-{:016x}", kind_prefix(k), guid);
    }
    std::string end_name(std::uint64_t key) const {
        const GuidRec& r = recs_[key >> 8];
        return fmt::format("{}[{}]", guid_name(r.kind, r.guid), key & 0xff);
    }

    std::uint64_t guid_0x(std::string_view s) const {
        if (s.starts_with("0x") || s.starts_with("0X"))
            if (const auto g = parse_hex(s.substr(2))) return *g;
        fail(fmt::format("bad GUID '{}' (expected 0x and up to 16 hex digits)", s));
    }

    unsigned port_number(std::string_view s) const {
        const auto p = parse_uint(s);
        if (!p || *p < 1 || *p > 255)
            fail(fmt::format("bad port number '{}' (expected 1 to 255)", s));
        return static_cast<unsigned>(*p);
    }

    // Gbit/s of a link of this width and speed, 0 when ibnetdiscover says it
    // does not know ("??" width, "???" speed).
    double rate(std::string_view width, std::string_view speed) const {
        struct Token {
            std::string_view name;
            double value;
        };
        static constexpr Token widths[] = {{"1x", 1}, {"2x", 2},   {"4x", 4},
                                           {"8x", 8}, {"12x", 12}, {"??", 0}};
        static constexpr Token speeds[] = {{"SDR", 2},     {"DDR", 4},  {"QDR", 8},  {"FDR10", 10},
                                           {"FDR", 13.64}, {"EDR", 25}, {"HDR", 50}, {"NDR", 100},
                                           {"XDR", 200},   {"???", 0}};
        const auto find = [](const auto& table, std::string_view t) -> const Token* {
            for (const Token& k : table)
                if (k.name == t) return &k;
            return nullptr;
        };
        const Token* w = find(widths, width);
        if (!w)
            fail(fmt::format("unknown link width '{}' (expected 1x, 2x, 4x, 8x, 12x, or ?? if "
                             "unknown)",
                             width));
        const Token* sp = find(speeds, speed);
        if (!sp)
            fail(fmt::format("unknown link speed '{}' (expected SDR, DDR, QDR, FDR10, FDR, EDR, "
                             "HDR, NDR, XDR, or ??? if unknown)",
                             speed));
        return w->value * sp->value;
    }

    // The topology file glues them: "4xQDR", "12xFDR10", "??QDR", "4x???".
    double rate_glued(std::string_view ws) const {
        std::size_t cut = 0;
        if (ws.starts_with("??"))
            cut = 2;
        else if (const std::size_t x = ws.find('x'); x != std::string_view::npos)
            cut = x + 1;
        else
            fail(fmt::format("bad link width and speed '{}' (expected e.g. 4xQDR)", ws));
        return rate(ws.substr(0, cut), ws.substr(cut));
    }

    std::uint32_t node(Kind kind, std::uint64_t guid, std::string_view desc) {
        const auto [it, added] =
            by_guid_.try_emplace(guid, static_cast<std::uint32_t>(recs_.size()));
        if (added) {
            recs_.push_back(GuidRec{guid, kind, std::string(desc), line_, {}});
        } else if (const GuidRec& r = recs_[it->second]; r.kind != kind) {
            fail(fmt::format("GUID {:016x} is {} here but {} at line {}", guid, kind_noun(kind),
                             kind_noun(r.kind), r.line));
        }
        return it->second;
    }

    void make_port(std::uint32_t rec, unsigned port) {
        std::vector<PortEnd>& v = recs_[rec].ports;
        if (v.size() <= port) v.resize(port + 1);
    }

    void link(std::uint32_t a, unsigned pa, std::uint32_t b, unsigned pb, double gbps) {
        // The cables of the adapters left out are dropped anyway, unchecked.
        if ((recs_[a].kind == Kind::Ca && is_aggregation_node(recs_[a].desc)) ||
            (recs_[b].kind == Kind::Ca && is_aggregation_node(recs_[b].desc)))
            return;
        const std::uint64_t ea = (std::uint64_t{a} << 8) | pa;
        const std::uint64_t eb = (std::uint64_t{b} << 8) | pb;
        if (ea == eb) fail(fmt::format("port {} is reported linked to itself", end_name(ea)));
        make_port(a, pa);
        make_port(b, pb); // both first: a resize would move the other end when a == b
        PortEnd& ta = recs_[a].ports[pa];
        PortEnd& tb = recs_[b].ports[pb];
        if (ta.peer != 0 && ta.peer != eb)
            fail(fmt::format("port {} is reported linked to {} here but to {} at line {}",
                             end_name(ea), end_name(eb), end_name(ta.peer),
                             cables_[ta.cable].line));
        if (tb.peer != 0 && tb.peer != ea)
            fail(fmt::format("port {} is reported linked to {} here but {} is linked to {} "
                             "(line {})",
                             end_name(ea), end_name(eb), end_name(eb), end_name(tb.peer),
                             cables_[tb.cable].line));
        if (ta.peer != 0) { // a known cable: its other end's report (or a repeat)
            Cable& c = cables_[ta.cable];
            c.gbps = lower_known(c.gbps, gbps);
            c.both_ends = c.both_ends || ea != c.reported_by;
            return;
        }
        const auto ci = static_cast<std::uint32_t>(cables_.size());
        cables_.push_back(Cable{a, b, gbps, line_, ea, false});
        ta = PortEnd{eb, ci};
        tb = PortEnd{ea, ci};
    }

    Kind ports_kind(std::string_view t) const {
        if (t == "SW") return Kind::Switch;
        if (t == "CA") return Kind::Ca;
        if (t == "RT") return Kind::Router;
        fail(fmt::format("unknown node type '{}' (expected SW, CA or RT)", t));
    }

    // "CA 182 1 0x001175000077d284 4x QDR - SW 18 18 0x00066a00ec002dd9 ( 'd1' - 'd2' )"
    // or, for a port without a peer, "SW 18 1 0x00066a00ec002dd9 4x SDR   'd1'".
    void ports_line(std::string_view s) {
        Scan sc{s};
        const std::string_view type = sc.token();
        if (type != "SW" && type != "CA" && type != "RT")
            fail(fmt::format("unrecognised line in an ibnetdiscover ports report (expected "
                             "'SW|CA|RT <lid> <port> <guid> <width> <speed> ...', got '{}')",
                             s.substr(0, 40)));
        const Kind kind = ports_kind(type);
        const std::string_view lid = sc.token();
        if (!parse_uint(lid)) fail(fmt::format("bad LID '{}'", lid));
        const unsigned port = port_number(sc.token());
        const std::uint64_t guid = guid_0x(sc.token());
        sc.blanks();
        double gbps = 0; // older output gives no width and speed: unknown
        if (!sc.at('-') && !sc.at('\'')) {
            const std::string_view width = sc.token();
            const std::string_view speed = sc.token();
            gbps = rate(width, speed);
        }
        sc.blanks();
        const std::string_view rest = sc.rest();
        if (rest.empty())
            fail("expected '- <peer type> <lid> <port> <guid> ( ... )' or the node description "
                 "after the speed");
        if (!rest.starts_with('-')) { // a port without a peer: the node, no link
            std::string_view desc = rest;
            if (desc.starts_with('\'')) {
                if (desc.size() < 2 || desc.back() != '\'')
                    fail("expected the node description in quotes after the speed");
                desc = desc.substr(1, desc.size() - 2);
            }
            node(kind, guid, desc);
            return;
        }
        sc.i += 1;
        const Kind peer_kind = ports_kind(sc.token());
        const std::string_view peer_lid = sc.token();
        if (!parse_uint(peer_lid)) fail(fmt::format("bad LID '{}'", peer_lid));
        const unsigned peer_port = port_number(sc.token());
        const std::uint64_t peer_guid = guid_0x(sc.token());
        sc.blanks();
        // ( 'desc' - 'peer desc' )
        std::string_view d = sc.rest();
        if (!d.starts_with('(') || !d.ends_with(')'))
            fail("expected \"( '<description>' - '<peer description>' )\" after the peer GUID");
        d = trim(d.substr(1, d.size() - 2));
        const std::size_t mid = d.find("' - '");
        if (d.size() < 6 || d.front() != '\'' || d.back() != '\'' ||
            mid == std::string_view::npos || mid == 0 || mid + 6 > d.size())
            fail("expected \"( '<description>' - '<peer description>' )\" after the peer GUID");
        const std::string_view desc = d.substr(1, mid - 1);
        const std::string_view peer_desc = d.substr(mid + 5, d.size() - mid - 6);
        const std::uint32_t a = node(kind, guid, desc);
        const std::uint32_t b = node(peer_kind, peer_guid, peer_desc);
        link(a, port, b, peer_port, gbps);
    }

    // "S-0008f105001094d2" (quotes included) -> kind and GUID.
    std::pair<Kind, std::uint64_t> quoted_name(std::string_view q) const {
        if (q.size() < 5 || q.front() != '"' || q.back() != '"' || q[2] != '-')
            fail(fmt::format("bad node name {} (expected \"S-<guid>\", \"H-<guid>\" or "
                             "\"R-<guid>\")",
                             q));
        Kind k = Kind::Switch;
        if (q[1] == 'S')
            k = Kind::Switch;
        else if (q[1] == 'H')
            k = Kind::Ca;
        else if (q[1] == 'R')
            k = Kind::Router;
        else
            fail(fmt::format("bad node name {} (expected \"S-<guid>\", \"H-<guid>\" or "
                             "\"R-<guid>\")",
                             q));
        const auto g = parse_hex(q.substr(3, q.size() - 4));
        if (!g) fail(fmt::format("bad GUID in node name {} (expected up to 16 hex digits)", q));
        return {k, *g};
    }

    // "[3]" -> 3, after which "[ext N]" (grouping) is skipped.
    unsigned bracket_port(Scan& sc) const {
        if (!sc.at('[')) fail("expected '[<port>]'");
        ++sc.i;
        const auto p = sc.until(']');
        if (!p) fail("expected '[<port>]'");
        const unsigned port = port_number(*p);
        if (sc.at("[ext ")) {
            if (!sc.until(']')) fail("unterminated '[ext <port>]'");
        }
        return port;
    }

    // An optional "(2c9030002e6d1)" port GUID, checked, not used.
    void skip_port_guid(Scan& sc) const {
        sc.blanks();
        if (!sc.at('(')) return;
        ++sc.i;
        const auto g = sc.until(')');
        if (!g || !parse_hex(*g)) fail(fmt::format("bad port GUID in '{}'", sc.s));
    }

    void topology_line(std::string_view s) {
        if (s.front() == '[') return port_line(s);
        Scan sc{s};
        const std::string_view w = sc.token();
        if (w == "Switch" || w == "Ca" || w == "Rt") return header_line(sc, w);
        const std::size_t eq = w.find('=');
        if (eq != std::string_view::npos) {
            const std::string_view key = w.substr(0, eq);
            if (key == "vendid" || key == "devid") {
                current_.reset();
                if (key == "vendid") sysimg_.reset(); // a new block
                return;
            }
            if (key == "sysimgguid" || key == "switchguid" || key == "caguid" || key == "rtguid") {
                current_.reset();
                std::string_view v = w.substr(eq + 1);
                v = v.substr(0, v.find('(')); // switchguid=0x...(port guid)
                const std::uint64_t g = guid_0x(v);
                if (key == "sysimgguid") sysimg_ = g;
                return;
            }
        }
        // What -g (grouping) prints between blocks.
        if (w == "Chassis" || w == "Hostname:" || s == "Non-Chassis Nodes") {
            current_.reset();
            return;
        }
        fail(fmt::format("unrecognised line in an ibnetdiscover topology file: '{}'",
                         s.substr(0, 60)));
    }

    // Switch 36 "S-0008f105001094d2"  # "desc" enhanced port 0 lid 1 lmc 0
    // Ca 2 "H-0002c9030002e6d0"  # "desc"
    void header_line(Scan& sc, std::string_view w) {
        const std::string_view nports = sc.token();
        if (!parse_uint(nports)) fail(fmt::format("bad number of ports '{}'", nports));
        const std::string_view qname = sc.token();
        const auto [k, guid] = quoted_name(qname);
        const Kind want = w == "Switch" ? Kind::Switch : w == "Ca" ? Kind::Ca : Kind::Router;
        if (k != want)
            fail(fmt::format("{} named {}: expected a name \"{}-<guid>\"", w, qname,
                             kind_prefix(want)));
        std::string_view desc;
        sc.blanks();
        if (!sc.done()) {
            if (!sc.at('#')) fail(fmt::format("expected '# \"<description>\"' after {}", qname));
            const std::string_view c = sc.rest();
            const std::size_t open = c.find('"');
            std::size_t close = std::string_view::npos;
            if (want == Kind::Switch) {
                close = c.rfind("\" enhanced port");
                if (close == std::string_view::npos) close = c.rfind("\" base port");
            }
            if (close == std::string_view::npos || close <= open) close = c.rfind('"');
            if (open == std::string_view::npos || close <= open)
                fail(fmt::format("expected '# \"<description>\"' after {}", qname));
            desc = c.substr(open + 1, close - open - 1);
        }
        current_ = node(want, guid, desc);
        if (sysimg_ && !recs_[*current_].sysimg) recs_[*current_].sysimg = sysimg_;
        sysimg_.reset();
    }

    // [1]  "H-0002c9030002e6d0"[1](2c9030002e6d1)   # "peer desc" lid 5 4xQDR
    // [1](2c9030002e6d1)  "S-0008f105001094d2"[1]  # lid 5 lmc 0 "peer desc" lid 1 4xQDR
    void port_line(std::string_view s) {
        if (!current_) fail("port line before any node header (Switch, Ca or Rt line)");
        Scan sc{s};
        const unsigned port = bracket_port(sc);
        skip_port_guid(sc);
        sc.blanks();
        if (!sc.at('"')) fail("expected the peer's \"<type>-<guid>\"[<port>] after the port");
        const std::size_t b = sc.i;
        ++sc.i;
        if (!sc.until('"')) fail("unterminated peer name");
        const auto [peer_kind, peer_guid] = quoted_name(s.substr(b, sc.i - b));
        const unsigned peer_port = bracket_port(sc);
        skip_port_guid(sc);
        sc.blanks();
        std::string_view peer_desc;
        double gbps = 0;
        if (!sc.done()) {
            if (!sc.at('#'))
                fail("expected '# ... \"<peer description>\" lid <lid> <width><speed>' after "
                     "the peer port");
            const std::string_view c = sc.rest();
            const std::size_t open = c.find('"');
            const std::size_t close = c.rfind("\" lid ");
            if (open == std::string_view::npos || close == std::string_view::npos || close <= open)
                fail("expected '# ... \"<peer description>\" lid <lid> <width><speed>' after "
                     "the peer port");
            peer_desc = c.substr(open + 1, close - open - 1);
            Scan tail{c.substr(close + 6)};
            const std::string_view lid = tail.token();
            if (!parse_uint(lid)) fail(fmt::format("bad LID '{}'", lid));
            // Older output ends at the LID: unknown width and speed.
            if (const std::string_view ws = tail.token(); !ws.empty()) gbps = rate_glued(ws);
        }
        const std::uint32_t peer = node(peer_kind, peer_guid, peer_desc);
        link(*current_, port, peer, peer_port, gbps);
    }

    const std::string& source_;
    std::size_t line_ = 0;
    std::vector<GuidRec> recs_;
    std::unordered_map<std::uint64_t, std::uint32_t> by_guid_;
    std::vector<Cable> cables_;
    std::optional<std::uint32_t> current_;       // topology file: the node whose ports follow
    std::optional<std::uint64_t> sysimg_;        // topology file: the block's sysimgguid
    std::unordered_map<std::string, DrNode> dr_; // -p: the trace lines by route
};

bool is_host_word(std::string_view w) {
    if (w.empty() || !std::isalnum(static_cast<unsigned char>(w.front()))) return false;
    return std::all_of(w.begin(), w.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
}

// A device name as the node description gives it after the host name:
// Mellanox OFED's "HCA-1", or the kernel's RDMA device name (mlx5_0, mlx4_1,
// qib0, hfi1_0, mthca0, ipath0, irdma0, bnxt_re0, rxe0, ...): lower-case
// letters, digits and underscores, ending in a digit.
bool is_device_word(std::string_view w) {
    if (w.starts_with("HCA-"))
        return w.size() > 4 && std::all_of(w.begin() + 4, w.end(), [](char c) {
                   return std::isdigit(static_cast<unsigned char>(c));
               });
    if (w.size() < 2 || !std::islower(static_cast<unsigned char>(w.front())) ||
        !std::isdigit(static_cast<unsigned char>(w.back())))
        return false;
    return std::all_of(w.begin(), w.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) ||
               std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    Scan sc{s};
    for (std::string_view w = sc.token(); !w.empty(); w = sc.token()) out.push_back(w);
    return out;
}

// The host a name (an adapter's description, or the map's name for it)
// names, empty if none.
std::string_view host_named(std::string_view name, bool from_map) {
    const std::vector<std::string_view> w = words(name);
    if (w.size() >= 2 && is_host_word(w[0]) && is_device_word(w[1])) return w[0];
    if (from_map && w.size() == 1 && is_host_word(w[0])) return w[0];
    return {};
}

Fabric IbReader::finish(const IbnetdiscoverOptions& options) && {
    Fabric f;
    f.source = source_;
    if (recs_.empty())
        throw InputError(source_, 0, "no InfiniBand node found (expected ibnetdiscover output)");
    const NodeNameMap* map = options.node_name_map;
    const auto node_guid = [&](const GuidRec& r) { return r.node_guid.value_or(r.guid); };
    const auto mapped = [&](const GuidRec& r) -> const std::string* {
        return map ? map->find(node_guid(r)) : nullptr;
    };
    // Each record's name: hosts first (switch names from the map must not
    // take theirs), then the adapters that name no host, then the switches.
    std::vector<std::string> name_of(recs_.size());
    std::vector<bool> left_out(recs_.size(), false);
    std::vector<bool> by_guid(recs_.size(), false);        // named H-<guid>: nothing named a host
    std::vector<bool> described_name(recs_.size(), false); // a switch named by its description
    std::unordered_map<std::string, bool> taken;           // name -> is a switch
    // Host names by system image GUID; "" when several.
    std::unordered_map<std::uint64_t, std::string> host_of_image;
    for (std::size_t i = 0; i < recs_.size(); ++i) {
        const GuidRec& r = recs_[i];
        if (r.kind != Kind::Ca) continue;
        if (is_aggregation_node(r.desc)) {
            left_out[i] = true;
            continue;
        }
        const std::string* m = mapped(r);
        name_of[i] = std::string(host_named(m ? *m : r.desc, m != nullptr));
        if (name_of[i].empty()) continue;
        taken.emplace(name_of[i], false);
        if (r.sysimg) {
            const auto [it, added] = host_of_image.try_emplace(*r.sysimg, name_of[i]);
            if (!added && it->second != name_of[i]) it->second.clear();
        }
    }
    // Nameless adapters of one system image with no named one: one host,
    // named after the lowest node GUID among them.
    std::unordered_map<std::uint64_t, std::uint64_t> lowest_of_image;
    for (std::size_t i = 0; i < recs_.size(); ++i) {
        const GuidRec& r = recs_[i];
        if (r.kind != Kind::Ca || left_out[i] || !name_of[i].empty() || !r.sysimg ||
            host_of_image.contains(*r.sysimg))
            continue;
        const auto [it, added] = lowest_of_image.try_emplace(*r.sysimg, node_guid(r));
        if (!added) it->second = std::min(it->second, node_guid(r));
    }
    for (std::size_t i = 0; i < recs_.size(); ++i) {
        const GuidRec& r = recs_[i];
        if (r.kind != Kind::Ca || left_out[i] || !name_of[i].empty()) continue;
        std::uint64_t g = node_guid(r);
        if (r.sysimg) {
            if (const auto h = host_of_image.find(*r.sysimg);
                h != host_of_image.end() && !h->second.empty()) {
                name_of[i] = h->second;
                continue;
            }
            if (const auto l = lowest_of_image.find(*r.sysimg); l != lowest_of_image.end())
                g = l->second;
        }
        name_of[i] = guid_name(Kind::Ca, g);
        by_guid[i] = true;
        taken.emplace(name_of[i], false);
    }
    // A map's one-word switch name, unless another node has it.
    std::unordered_map<std::string, std::uint32_t> switch_names;
    for (const GuidRec& r : recs_)
        if (r.kind != Kind::Ca)
            if (const std::string* m = mapped(r); m && words(*m).size() == 1 && is_host_word(*m))
                ++switch_names[*m];
    // Else the description's name, unique among the switches' and free of
    // the hosts' (its long form when the short one repeats).
    std::unordered_map<std::string, std::uint32_t> described[2]; // short, long form -> count
    const bool by_description = options.switch_naming == SwitchNaming::description;
    if (by_description)
        for (const GuidRec& r : recs_)
            if (r.kind != Kind::Ca && !mapped(r))
                for (const bool long_form : {false, true})
                    if (std::string n = switch_name_of(r.desc, long_form); !n.empty())
                        ++described[long_form][n];
    std::unordered_map<std::string, bool> given; // described names given so far
    // No described name may be another switch's S-<guid> (or R-<guid>), which
    // that switch falls back to: two switches would become one.
    std::unordered_map<std::string, bool> guid_names;
    if (by_description)
        for (const GuidRec& r : recs_)
            if (r.kind != Kind::Ca) guid_names.emplace(guid_name(r.kind, r.guid), true);
    const auto usable = [&](const std::string& n, bool long_form) {
        return !n.empty() && described[long_form][n] == 1 && !taken.contains(n) &&
               !switch_names.contains(n) && !given.contains(n) && !guid_names.contains(n) &&
               name_problem(n).empty();
    };
    for (std::size_t i = 0; i < recs_.size(); ++i) {
        const GuidRec& r = recs_[i];
        if (r.kind == Kind::Ca) continue;
        const std::string* m = mapped(r);
        if (m && switch_names.contains(*m) && switch_names[*m] == 1 && !taken.contains(*m)) {
            name_of[i] = *m;
            continue;
        }
        name_of[i] = guid_name(r.kind, r.guid);
        if (!by_description || m) continue;
        for (const bool long_form : {false, true})
            if (std::string n = switch_name_of(r.desc, long_form); usable(n, long_form)) {
                given.emplace(n, true);
                name_of[i] = std::move(n);
                described_name[i] = true;
                break;
            }
    }
    std::unordered_map<std::string, std::uint32_t> by_name;
    constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> node_of(recs_.size(), none);
    for (std::size_t i = 0; i < recs_.size(); ++i) {
        GuidRec& r = recs_[i];
        if (left_out[i]) {
            f.switch_adapters.push_back(guid_name(Kind::Ca, node_guid(r)));
            continue;
        }
        const bool is_switch = r.kind != Kind::Ca;
        const std::string& name = name_of[i];
        const auto [it, added] =
            by_name.try_emplace(name, static_cast<std::uint32_t>(f.nodes.size()));
        if (added) {
            try {
                check_name(is_switch ? "switch name" : "host name", name);
            } catch (const InputError& e) {
                throw InputError(source_, r.line, e.what());
            }
            const std::string* m = mapped(r);
            f.nodes.push_back(FabricNode{name,
                                         is_switch,
                                         m ? *m : r.desc,
                                         r.line,
                                         {},
                                         bool(by_guid[i]),
                                         bool(described_name[i])});
        } else if (f.nodes[it->second].is_switch != is_switch) {
            throw InputError(source_, r.line,
                             fmt::format("'{}' names both a host and a switch (line {})", name,
                                         f.nodes[it->second].line));
        }
        std::vector<std::uint64_t>& guids = f.nodes[it->second].guids;
        if (std::find(guids.begin(), guids.end(), node_guid(r)) == guids.end())
            guids.push_back(node_guid(r));
        node_of[i] = it->second;
    }
    for (FabricNode& n : f.nodes) std::sort(n.guids.begin(), n.guids.end());
    std::sort(f.switch_adapters.begin(), f.switch_adapters.end());
    f.switch_adapters.erase(std::unique(f.switch_adapters.begin(), f.switch_adapters.end()),
                            f.switch_adapters.end());
    std::unordered_map<std::uint64_t, std::uint32_t> link_of; // (min << 32 | max) node indexes
    for (const Cable& c : cables_) {
        const std::uint32_t a = node_of[c.a], b = node_of[c.b];
        if (a == none || b == none || a == b) continue;
        if (!c.both_ends) {
            const std::uint64_t end = c.reported_by;
            f.one_ended_cables.push_back(
                fmt::format("{}[{}]", f.nodes[node_of[end >> 8]].name, end & 0xff));
        }
        const std::uint64_t key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
        const auto [it, added] =
            link_of.try_emplace(key, static_cast<std::uint32_t>(f.links.size()));
        if (added) {
            FabricLink l;
            l.a = a;
            l.b = b;
            l.bandwidth_gbps = c.gbps;
            l.line = c.line;
            f.links.push_back(l);
        } else {
            FabricLink& l = f.links[it->second];
            l.bandwidth_gbps = lower_known(l.bandwidth_gbps, c.gbps);
            ++l.multiplicity;
        }
    }
    f.adapters = adapters(node_of, map);
    order_adapters(f);
    return f;
}

// The hosts' adapters: one per node GUID (the -p report gives a record per
// port GUID), their device names and cabled ports.
std::vector<FabricAdapter> IbReader::adapters(const std::vector<std::uint32_t>& node_of,
                                              const NodeNameMap* map) const {
    constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    std::vector<FabricAdapter> out;
    std::unordered_map<std::uint64_t, std::size_t> by_guid;
    for (std::size_t i = 0; i < recs_.size(); ++i) {
        const GuidRec& r = recs_[i];
        if (r.kind != Kind::Ca || node_of[i] == none) continue;
        const std::uint64_t guid = r.node_guid.value_or(r.guid);
        const auto [it, added] = by_guid.try_emplace(guid, out.size());
        if (added) {
            const std::string* m = map ? map->find(guid) : nullptr;
            const std::string& name = m ? *m : r.desc;
            FabricAdapter a;
            a.host = node_of[i];
            a.guid = guid;
            if (!host_named(name, m != nullptr).empty() && words(name).size() >= 2)
                a.device = std::string(words(name)[1]);
            a.description = name;
            a.line = r.line;
            out.push_back(std::move(a));
        }
        FabricAdapter& a = out[it->second];
        for (std::size_t port = 0; port < r.ports.size(); ++port) {
            const std::uint64_t peer = r.ports[port].peer;
            if (peer == 0 || node_of[peer >> 8] == none) continue;
            a.ports.push_back({static_cast<unsigned>(port), node_of[peer >> 8],
                               static_cast<unsigned>(peer & 0xff)});
        }
    }
    return out;
}

} // namespace

std::string switch_name_of(std::string_view description, bool long_form) {
    const std::string_view d = trim(description);
    if (d.starts_with("MF0;")) {
        const std::string_view rest = d.substr(4);
        const std::size_t colon = rest.find(':');
        if (colon == std::string_view::npos || colon == 0) return {};
        const std::string_view name = rest.substr(0, colon);
        const std::size_t slash = rest.find('/', colon);
        std::string out(name);
        if (long_form && slash != std::string_view::npos) out += rest.substr(slash);
        return words(out).size() == 1 ? out : std::string();
    }
    if (const std::size_t hash = d.find(" # "); hash != std::string_view::npos) {
        const std::string_view name = trim(d.substr(hash + 3));
        return words(name).size() == 1 && name.find('#') == std::string_view::npos
                   ? std::string(name)
                   : std::string();
    }
    // A description of several words is the firmware's own ('MT47396
    // Infiniscale-III Mellanox Technologies', 'QLogic 12800-180 GUID=... L115'),
    // unique only when the fabric has one switch of that model: not a name.
    if (d.find('#') != std::string_view::npos || words(d).size() != 1) return {};
    return std::string(d);
}

Fabric read_ibnetdiscover(std::istream& in, const std::string& source,
                          const IbnetdiscoverOptions& options) {
    IbReader r(source);
    r.read(in);
    return std::move(r).finish(options);
}

} // namespace nettopo
