// Rails in the tools' words (rails_printer.hpp).
#include "common/rails_printer.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace {

const char* kind_name(RailProblem::Kind k) {
    switch (k) {
    case RailProblem::Kind::wrong_leaf:
        return "wrong_leaf";
    case RailProblem::Kind::missing_rail:
        return "missing_rail";
    case RailProblem::Kind::mixed_leaf:
        return "mixed_leaf";
    }
    return "wrong_leaf";
}

} // namespace

void write_rails_json(const Rails& rails, JsonWriter& w) {
    w.key("rails").begin_object();
    w.key("rails").begin_array();
    for (const Rail& rail : rails.rails) {
        w.begin_object();
        w.field("index", rail.index);
        w.field("leaves", rail.leaves);
        w.field("hosts", rail.hosts);
        w.end_object();
    }
    w.end_array();
    w.field("leaves", rails.leaves.size());
    w.field("single_rail_leaves", rails.single_rail_leaves);
    w.field("rail_hosts", rails.rail_hosts);
    w.field("other_hosts", rails.other_hosts);
    w.key("problems").begin_array();
    for (const RailProblem& p : rails.problems) {
        w.begin_object();
        w.field("kind", kind_name(p.kind));
        w.field("host", p.host);
        w.field("adapter", p.adapter);
        w.field("leaf", p.leaf);
        if (p.kind == RailProblem::Kind::mixed_leaf)
            w.key("rail").null();
        else
            w.field("rail", p.index);
        w.key("leaf_serves").begin_array();
        for (const std::uint32_t i : p.serves) w.value(i);
        w.end_array();
        w.field("text", p.text);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

void write_rails_text(const Rails& rails, std::ostream& out) {
    if (rails.rails.empty()) return;
    out << fmt::format("rails:         {}\n", rails.summary());
    for (const RailProblem& p : rails.problems) out << fmt::format("  problem: {}\n", p.text);
}

} // namespace nettopo
