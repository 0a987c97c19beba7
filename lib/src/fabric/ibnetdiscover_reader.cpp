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
// the port GUID (the node GUID + port, usually), so each port of a dual-port
// HCA is a distinct GUID; that only shows when a CA has no description (its
// name is then H-<that GUID>, not the node GUID the topology file prints).
// The two descriptions are split at the first "' - '".
//
// Naming: switches S-<guid>, routers R-<guid> (as ibnetdiscover names them;
// both are switches of the fabric), channel adapters the host named by the
// first word of their description, H-<guid> when it is empty. Two CAs with
// the same host name (a host with two HCAs) are one host: its first
// description is kept and the links of both HCAs are its links. A GUID's
// description is the first one read (with a node-name map the headers and the
// peers' lines can differ).
//
// Links: a port line pairs two port ends. Each physical link (cable) is kept
// once whether one or both ends report it (a truncated dump still gives its
// links); a port end reported linked to two different peers is an InputError.
// Cables between the same two nodes become one FabricLink whose multiplicity
// counts them; its bandwidth is the per-lane data rate of the speed times the
// width, the lowest over the cables when their speeds differ (the ends of one
// cable normally agree; the lower counts if not). ibnetdiscover's own
// "unknown" tokens ("??" width, "???" speed) give an unknown bandwidth (0),
// which a known one of another report replaces. A cable whose two ends are
// the same node after naming (a switch port looped to another of its ports,
// two HCAs of one host cabled together) is dropped: FabricLink joins two
// distinct nodes.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/parse.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fmt/format.h>
#include <istream>
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
std::optional<std::uint64_t> parse_hex(std::string_view s) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (s.empty() || s.size() > 16 || ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

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
    std::uint64_t guid = 0;
    Kind kind = Kind::Switch;
    std::string desc;
    std::size_t line = 0;
    std::vector<PortEnd> ports = {}; // by port number, as far as the highest one linked
};

struct Cable {
    std::uint32_t a = 0, b = 0; // GuidRec indexes
    double gbps = 0;
    std::size_t line = 0;
};

double lower_known(double x, double y) {
    if (x == 0) return y;
    if (y == 0) return x;
    return std::min(x, y);
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
            if (s.empty() || s.front() == '#' || s.starts_with("DR path")) continue;
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
    }

    Fabric finish() &&;

private:
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
        if (ta.peer != 0) { // the other end's report of a known cable
            Cable& c = cables_[ta.cable];
            c.gbps = lower_known(c.gbps, gbps);
            return;
        }
        const auto ci = static_cast<std::uint32_t>(cables_.size());
        cables_.push_back(Cable{a, b, gbps, line_});
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
        const std::string_view width = sc.token();
        const std::string_view speed = sc.token();
        const double gbps = rate(width, speed);
        sc.blanks();
        const std::string_view rest = sc.rest();
        if (rest.starts_with('\'')) { // a port without a peer: the node, no link
            if (rest.size() < 2 || rest.back() != '\'')
                fail("expected the node description in quotes after the speed");
            node(kind, guid, rest.substr(1, rest.size() - 2));
            return;
        }
        if (!rest.starts_with('-'))
            fail("expected '- <peer type> <lid> <port> <guid> ( ... )' or the node description "
                 "after the speed");
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
                return;
            }
            if (key == "sysimgguid" || key == "switchguid" || key == "caguid" || key == "rtguid") {
                current_.reset();
                std::string_view v = w.substr(eq + 1);
                v = v.substr(0, v.find('(')); // switchguid=0x...(port guid)
                guid_0x(v);
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
            gbps = rate_glued(tail.token());
        }
        const std::uint32_t peer = node(peer_kind, peer_guid, peer_desc);
        link(*current_, port, peer, peer_port, gbps);
    }

    const std::string& source_;
    std::size_t line_ = 0;
    std::vector<GuidRec> recs_;
    std::unordered_map<std::uint64_t, std::uint32_t> by_guid_;
    std::vector<Cable> cables_;
    std::optional<std::uint32_t> current_; // topology file: the node whose ports follow
};

Fabric IbReader::finish() && {
    Fabric f;
    f.source = source_;
    if (recs_.empty())
        throw InputError(source_, 0, "no InfiniBand node found (expected ibnetdiscover output)");
    std::unordered_map<std::string, std::uint32_t> by_name;
    std::vector<std::uint32_t> node_of(recs_.size());
    for (std::size_t i = 0; i < recs_.size(); ++i) {
        GuidRec& r = recs_[i];
        std::string name;
        if (r.kind == Kind::Ca) {
            Scan sc{r.desc};
            name = std::string(sc.token());
        }
        if (name.empty()) name = guid_name(r.kind, r.guid);
        const bool is_switch = r.kind != Kind::Ca;
        const auto [it, added] =
            by_name.try_emplace(name, static_cast<std::uint32_t>(f.nodes.size()));
        if (added) {
            f.nodes.push_back(FabricNode{name, is_switch, std::move(r.desc), r.line});
        } else if (f.nodes[it->second].is_switch != is_switch) {
            throw InputError(source_, r.line,
                             fmt::format("'{}' names both a host and a switch (line {})", name,
                                         f.nodes[it->second].line));
        }
        node_of[i] = it->second;
    }
    std::unordered_map<std::uint64_t, std::uint32_t> link_of; // (min << 32 | max) node indexes
    for (const Cable& c : cables_) {
        const std::uint32_t a = node_of[c.a], b = node_of[c.b];
        if (a == b) continue;
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
    return f;
}

} // namespace

Fabric read_ibnetdiscover(std::istream& in, const std::string& source) {
    IbReader r(source);
    r.read(in);
    return std::move(r).finish();
}

} // namespace nettopo
