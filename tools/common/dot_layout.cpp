// Where a DOT drawing puts things (dot_layout.hpp).
#include "common/dot_layout.hpp"

#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"

#include <cmath>
#include <fmt/format.h>

namespace nettopo::detail {

namespace {

constexpr std::uint32_t none = ~0u;

// Inches per grid step of a family's layout.
constexpr double inches_per_step = 1.2;

// Inches to the millimetre, without a "-0".
std::string inches(double steps) {
    return format_number(std::round(steps * inches_per_step * 1000) / 1000 + 0.0);
}

} // namespace

std::vector<std::uint32_t> levels(const Network& net) {
    std::vector<std::uint32_t> level(net.num_vertices(), none);
    std::vector<VertexId> queue;
    queue.reserve(net.num_vertices());
    for (std::uint32_t m = 0; m < net.num_machines(); ++m) {
        level[m] = 0;
        queue.push_back(VertexId(m));
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const VertexId v = queue[head];
        for (VertexId u : net.neighbors(v))
            if (level[u.value] == none) {
                level[u.value] = level[v.value] + 1;
                queue.push_back(u);
            }
    }
    return level;
}

Layout family_layout(const Cluster& c) {
    Layout l;
    if (c.family().empty()) return l;
    try {
        l.family = family_from_spec(c.family());
    } catch (const Error&) { // a record this version does not read: drawn in layers
        return l;
    }
    if (l.family->num_machines() != c.num_machines() ||
        l.family->num_switches() != c.num_switches())
        return l;
    l.points = l.family->layout();
    return l;
}

std::string position(PlanePoint p) {
    // Graphviz's y grows upwards; "!" pins the node where it is.
    return fmt::format("pos=\"{},{}!\"", inches(p.x), inches(-p.y));
}

Places place(const Cluster& c, const std::vector<PlanePoint>& laid_out, const DotGroups& d) {
    const Network& net = c.network();
    Places p{laid_out, std::vector<PlanePoint>(d.groups.size())};
    std::vector<bool> box_placed(d.groups.size(), false);
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        std::vector<std::uint32_t> hanging;
        for (VertexId u : net.neighbors(c.vertex(SwitchId(s))))
            if (d.hangs(net, u) &&
                d.groups[d.group_of[u.value]].switches == std::vector<std::uint32_t>{s})
                hanging.push_back(u.value);
        std::vector<PlanePoint*> items;
        for (std::uint32_t m : hanging) {
            const std::uint32_t g = d.group_of[m];
            if (!d.groups[g].collapsed)
                items.push_back(&p.vertices[m]);
            else if (!box_placed[g]) {
                box_placed[g] = true;
                items.push_back(&p.groups[g]);
            }
        }
        for (std::size_t k = 0; k < items.size(); ++k) *items[k] = laid_out[hanging[k]];
        if (items.size() == hanging.size() || items.size() > 3) continue;
        const PlanePoint at = laid_out[c.vertex(SwitchId(s)).value];
        PlanePoint mid;
        for (std::uint32_t m : hanging) {
            mid.x += laid_out[m].x - at.x;
            mid.y += laid_out[m].y - at.y;
        }
        const double angle = std::atan2(mid.y, mid.x), apart = 0.7;
        for (std::size_t k = 0; k < items.size(); ++k) {
            const double a = angle + apart * (static_cast<double>(k) - (items.size() - 1) / 2.0);
            *items[k] = {at.x + 0.9 * std::cos(a), at.y + 0.9 * std::sin(a)};
        }
    }
    return p;
}

} // namespace nettopo::detail
