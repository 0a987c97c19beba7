// A reader of write_dot's output and a check against the cluster (dot_reader.hpp).
#include "dot_reader.hpp"

#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace nettopo::test {

namespace {

// A DOT quoted string, with its escapes.
const std::string q = R"("(?:[^"\\]|\\.)*")";
const std::regex node_line("^  (" + q + R"() \[(.*)\];$)");
// Edges: a label unless the drawing says it in its title; attributes of a
// highlight, a rail or a wrap-around link after it.
const std::regex edge_line("^  (" + q + ") -- (" + q + R"re()(?: \[(.*)\])?;$)re");
const std::regex tier_line(R"(^  \{rank=same;((?: "(?:[^"\\]|\\.)*";)+)\}$)");
const std::regex label_attr("(?:^|, )label=(" + q + ")");
const std::regex tooltip_attr("(?:^|, )tooltip=(" + q + ")");
const std::regex shape_attr("shape=([a-z0-9]+)");
const std::regex html_row(
    R"re(<tr><td bgcolor="(#[0-9a-f]{6})" width="18"> </td><td align="left">([^<]*)</td></tr>)re");
const std::regex machine_box_label(R"(^(\d+) x type (\d+)\n(.*)$)");
const std::regex range_list(R"(^(.*)\.\.(.*) \((\d+) machines\)$)");

// The characters inside a DOT quoted string, as Graphviz shows them in a label.
std::string unquote(const std::string& s) {
    REQUIRE(s.size() >= 2);
    std::string u;
    for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        if (s[i] == '\\') {
            ++i;
            u += s[i] == 'n' ? '\n' : s[i];
            continue;
        }
        u += s[i];
    }
    return u;
}

std::string html_unescaped(std::string s) {
    for (const auto& [entity, ch] : std::vector<std::pair<std::string, std::string>>{
             {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
        for (std::size_t at = s.find(entity); at != std::string::npos;
             at = s.find(entity, at + ch.size()))
            s.replace(at, entity.size(), ch);
    }
    return s;
}

} // namespace

Drawing parse_dot(const std::string& text) {
    Drawing d;
    std::istringstream in(text);
    std::string line;
    std::size_t n = 0;
    bool closed = false;
    while (std::getline(in, line)) {
        INFO(line);
        REQUIRE_FALSE(closed); // nothing after the closing brace
        ++n;
        std::smatch m;
        if (n == 1) {
            REQUIRE(std::regex_match(line, std::regex("^graph (" + q + " )?\\{$")));
            d.graph_line = line;
            continue;
        }
        if (line == "}") {
            closed = true;
            continue;
        }
        if (std::regex_match(line, m, edge_line)) {
            const std::string attrs = m[3];
            std::smatch l;
            const bool labelled = std::regex_search(attrs, l, label_attr);
            d.edges.push_back({unquote(m[1]), unquote(m[2]), labelled ? unquote(l[1]) : "", attrs});
        } else if (std::regex_match(line, m, tier_line)) {
            std::vector<std::string> names;
            const std::string list = m[1];
            const std::regex quoted(q);
            for (std::sregex_iterator it(list.begin(), list.end(), quoted), end; it != end; ++it)
                names.push_back(unquote(it->str()));
            d.tiers.push_back(names);
        } else if (std::regex_match(line, m, node_line)) {
            const std::string id = unquote(m[1]), attrs = m[2];
            if (attrs.starts_with("shape=plain, style=solid, label=<<table")) {
                REQUIRE(d.legend_id.empty()); // one legend
                d.legend_id = id;
                for (std::sregex_iterator it(attrs.begin(), attrs.end(), html_row), end; it != end;
                     ++it)
                    d.legend.push_back({(*it)[1], html_unescaped((*it)[2])});
                continue;
            }
            DrawnNode node;
            node.attrs = attrs;
            std::smatch a;
            if (std::regex_search(attrs, a, shape_attr)) node.shape = a[1];
            if (std::regex_search(attrs, a, label_attr)) node.label = unquote(a[1]);
            node.switch_box = attrs.find("peripheries=2") != std::string::npos;
            if (node.switch_box || node.shape == "box3d") node.members = box_members(node);
            REQUIRE(d.nodes.emplace(id, node).second); // each node once
            d.node_order.push_back(id);
        } else {
            const bool known = line.starts_with("  graph [") || line.starts_with("  node [") ||
                               line.starts_with("  edge [");
            REQUIRE(known);
            if (line.starts_with("  graph [")) {
                d.graph_attrs = line;
                d.placed = line.find("layout=neato") != line.npos;
                d.left_to_right = line.find("rankdir=LR") != line.npos;
            }
        }
    }
    REQUIRE(closed);
    return d;
}

std::vector<std::string> box_members(const DrawnNode& node) {
    if (node.switch_box) {
        std::smatch t;
        REQUIRE(std::regex_search(node.attrs, t, tooltip_attr));
        const std::string list = unquote(t[1]);
        try {
            return expand_hostlist(list);
        } catch (const InputError&) { // names joined by blanks
            std::vector<std::string> names;
            std::istringstream words(list);
            for (std::string w; words >> w;) names.push_back(w);
            return names;
        }
    }
    std::smatch m;
    REQUIRE(std::regex_match(node.label, m, machine_box_label));
    const std::string list = m[3];
    std::smatch r;
    if (std::regex_match(list, r, range_list)) return {r[1], r[2]};
    return expand_hostlist(list);
}

std::string dot_of(const Cluster& c, const DotOptions& options) {
    std::ostringstream out;
    write_dot(c, out, options);
    return out.str();
}

namespace {

// The drawing a grouping rule gives, computed here by names: which node
// each vertex is drawn as (its own name, or a box's key).
struct Expected {
    std::vector<std::string> item; // by vertex: its own name or "box:..." key
    std::map<std::string, std::vector<std::string>> boxes; // key -> member names
    std::vector<std::uint32_t> level;                      // by vertex
    std::size_t machine_boxes = 0;
};

std::vector<std::uint32_t> hops_from_machines(const Network& net) {
    std::vector<std::uint32_t> level(net.num_vertices(), ~0u);
    std::vector<std::uint32_t> queue;
    for (std::uint32_t m = 0; m < net.num_machines(); ++m) {
        level[m] = 0;
        queue.push_back(m);
    }
    for (std::size_t h = 0; h < queue.size(); ++h)
        for (VertexId u : net.neighbors(VertexId(queue[h])))
            if (level[u.value] == ~0u) {
                level[u.value] = level[queue[h]] + 1;
                queue.push_back(u.value);
            }
    return level;
}

// Machines on one switch boxed beyond `machines_above`, on several beyond
// `multi_above`; switches grouped beyond `switches_above` (0: never).
struct Rule {
    std::uint32_t machines_above, multi_above, switches_above;
};

Expected expected_drawing(const Cluster& c, Rule rule, bool one_switch_only) {
    const std::uint32_t switches_above = rule.switches_above;
    const Network& net = c.network();
    Expected e;
    e.level = hops_from_machines(net);
    e.item.resize(net.num_vertices());
    for (std::uint32_t v = 0; v < net.num_vertices(); ++v)
        e.item[v] = std::string(c.vertex_name(VertexId(v)));
    // Machines: by the names of their switches and their type.
    std::map<std::string, std::vector<std::uint32_t>> by_key;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        std::set<std::string> switches;
        bool ok = net.degree(VertexId(m)) > 0;
        for (VertexId u : net.neighbors(VertexId(m))) {
            ok = ok && !net.is_machine(u);
            switches.insert(std::string(c.vertex_name(u)));
        }
        if (!ok || (one_switch_only && switches.size() != 1)) continue;
        std::string key = fmt::format("box:machines:type{}", c.type_of(MachineId(m)).value);
        for (const std::string& s : switches) key += "|" + s;
        by_key[key].push_back(m);
    }
    for (const auto& [key, machines] : by_key) {
        const bool several = key.find('|') != key.rfind('|');
        const std::uint32_t above = several ? rule.multi_above : rule.machines_above;
        if (above == 0 || machines.size() <= above) continue;
        ++e.machine_boxes;
        for (std::uint32_t m : machines) {
            e.item[m] = key;
            e.boxes[key].emplace_back(c.machine_name(MachineId(m)));
        }
    }
    if (switches_above == 0) return e;
    // Switches, tier by tier: by what they are drawn with below.
    std::uint32_t top = 0;
    for (std::uint32_t v = c.num_machines(); v < net.num_vertices(); ++v)
        if (e.level[v] != ~0u) top = std::max(top, e.level[v]);
    for (std::uint32_t level = 1; level <= top; ++level) {
        std::map<std::string, std::vector<std::uint32_t>> tier;
        for (std::uint32_t v = c.num_machines(); v < net.num_vertices(); ++v) {
            if (e.level[v] != level) continue;
            std::set<std::string> below;
            for (VertexId u : net.neighbors(VertexId(v)))
                if (e.level[u.value] < level) below.insert(e.item[u.value]);
            std::string key = fmt::format("box:switches:{}", level);
            for (const std::string& b : below) key += "|" + b;
            tier[key].push_back(v);
        }
        for (const auto& [key, members] : tier) {
            if (members.size() <= switches_above) continue;
            for (std::uint32_t v : members) {
                e.item[v] = key;
                e.boxes[key].emplace_back(c.vertex_name(VertexId(v)));
            }
        }
    }
    return e;
}

// The drawing's boxes as sets of member names, to compare with a rule's.
std::set<std::set<std::string>> box_sets(const Drawing& d) {
    std::set<std::set<std::string>> sets;
    for (const auto& [id, node] : d.nodes)
        if (!node.members.empty()) sets.insert({node.members.begin(), node.members.end()});
    return sets;
}

std::set<std::set<std::string>> box_sets(const Expected& e, const Drawing& d) {
    // A machine box labelled "first..last (N machines)" shows its two ends only.
    std::set<std::set<std::string>> sets;
    for (const auto& [key, names] : e.boxes) {
        std::set<std::string> all(names.begin(), names.end());
        bool shortened = false;
        for (const auto& [id, node] : d.nodes)
            if (node.shape == "box3d" && node.members.size() == 2 &&
                node.label.find(fmt::format("({} machines)", names.size())) != std::string::npos &&
                all.contains(node.members[0]) && all.contains(node.members[1]))
                shortened = true;
        sets.insert(shortened ? std::set<std::string>{names.front(), names.back()} : all);
    }
    return sets;
}

} // namespace

std::size_t check_drawing(const Cluster& c, std::uint32_t collapse_above) {
    DotOptions o;
    o.collapse_above = collapse_above;
    return check_drawing(c, o);
}

std::size_t check_drawing(const Cluster& c, const DotOptions& options) {
    const std::string text = dot_of(c, options);
    const Drawing d = parse_dot(text);
    const Network& net = c.network();

    // The legend: one line per machine type first, then the rails.
    CHECK_FALSE(d.legend_id.empty());
    CHECK_FALSE(c.find_vertex(d.legend_id));
    REQUIRE(d.legend.size() >= c.num_types());
    for (std::uint32_t t = 0; t < c.num_types(); ++t)
        CHECK(d.legend[t].text.starts_with(fmt::format("type {}: ", t)));
    for (std::size_t r = c.num_types(); r < d.legend.size(); ++r)
        CHECK(d.legend[r].text.starts_with("rail "));

    // Which rule drew it: the one asked for, or for collapse_auto the level
    // of collapse (8, 4, 2, 1; switches too when drawn in layers) whose
    // boxes are the drawing's.
    std::vector<Rule> rules;
    const std::uint32_t n = options.collapse_above;
    if (n != collapse_auto)
        rules = {{n, n, 0}};
    else if (d.placed)
        rules = {{8, 1, 0}};
    else
        rules = {{8, 1, 8}, {4, 1, 4}, {2, 1, 2}, {1, 1, 1}};
    std::optional<Expected> e;
    for (const Rule& rule : rules) {
        Expected x = expected_drawing(c, rule, d.placed);
        if (box_sets(x, d) == box_sets(d)) {
            e = std::move(x);
            break;
        }
    }
    REQUIRE(e); // the boxes are those of a rule

    // Every vertex drawn alone or in its box; nothing else.
    std::set<std::string> ids;
    for (const auto& [id, node] : d.nodes) ids.insert(id);
    std::map<std::string, std::string> id_of_key; // box key -> DOT ID
    for (const auto& [id, node] : d.nodes) {
        if (node.members.empty()) {
            const auto v = c.find_vertex(id);
            REQUIRE(v);
            CHECK(e->item[v->value] == id);
            CHECK(node.shape == (net.is_machine(*v) ? "ellipse" : "box"));
            continue;
        }
        CHECK_FALSE(c.find_vertex(id)); // never the name of a machine or switch
        const auto first = c.find_vertex(node.members.front());
        REQUIRE(first);
        id_of_key[e->item[first->value]] = id;
        CHECK(node.shape == (node.switch_box ? "box" : "box3d"));
    }
    std::size_t alone = 0;
    for (std::uint32_t v = 0; v < net.num_vertices(); ++v) alone += !e->item[v].starts_with("box:");
    CHECK(d.nodes.size() == alone + e->boxes.size());

    // One edge per link between two vertices drawn alone, one per pair of
    // nodes for the links into a box, none inside a box; the end farther
    // from the machines first.
    std::multiset<std::pair<std::string, std::string>> want, got;
    std::set<std::pair<std::string, std::string>> box_pairs;
    const auto node_id = [&](std::uint32_t v) {
        const std::string& item = e->item[v];
        return item.starts_with("box:") ? id_of_key.at(item) : item;
    };
    for (const Link& l : net.links()) {
        const std::string a = node_id(l.a.value), b = node_id(l.b.value);
        if (a == b) continue;
        const auto pair = std::minmax(a, b);
        const bool boxed =
            e->item[l.a.value].starts_with("box:") || e->item[l.b.value].starts_with("box:");
        if (boxed && !box_pairs.insert(pair).second) continue;
        want.insert(pair);
    }
    std::map<std::string, std::uint32_t> level_of_id;
    for (std::uint32_t v = 0; v < net.num_vertices(); ++v) level_of_id[node_id(v)] = e->level[v];
    for (const Drawing::Edge& edge : d.edges) {
        CHECK(ids.contains(edge.a));
        CHECK(ids.contains(edge.b));
        got.insert(std::minmax(edge.a, edge.b));
        const std::uint32_t la = level_of_id[edge.a], lb = level_of_id[edge.b];
        if (la != ~0u && lb != ~0u) CHECK(la >= lb);
        if (!edge.label.empty())
            CHECK(std::regex_search(edge.label,
                                    std::regex(R"(^[0-9.e+-]+(-[0-9.e+-]+)? ns|^\d+ links$)")));
    }
    CHECK(got == want);

    // Layered: each tier of switches on one row.
    if (!d.placed)
        for (const std::vector<std::string>& tier : d.tiers) {
            std::set<std::uint32_t> levels;
            for (const std::string& id : tier) levels.insert(level_of_id.at(id));
            CHECK(levels.size() == 1);
        }

    // Deterministic.
    CHECK(dot_of(c, options) == text);
    return e->machine_boxes;
}

} // namespace nettopo::test
