// The dense table of the folded core (see dense_table.hpp).
#include "query/index/dense_table.hpp"

#include "query/index/core_rows.hpp"
#include "query/index/terminal_table.hpp"

#include <fmt/format.h>
#include <limits>
#include <type_traits>

namespace nettopo::detail {

namespace {

struct NoLatency {}; // the core is uniform: latency = hops x the link latency

template <class T> constexpr std::uint64_t sentinel = std::numeric_limits<T>::max();

// Upper triangle without diagonal, row by row: (u, v), u < v.
std::size_t triangle_index(std::size_t n, std::size_t u, std::size_t v) {
    if (u > v) std::swap(u, v);
    return u * (2 * n - u - 1) / 2 + (v - u - 1);
}

struct Shape {
    std::uint32_t n, hop_bytes, latency_bytes; // latency_bytes 0: uniform
};
constexpr std::uint32_t shape_tag = array_tag("DSHP"), hops_tag = array_tag("DHOP"),
                        latency_tag = array_tag("DLAT");

template <class H, class L> class DenseTable final : public FoldedIndex<DenseTable<H, L>> {
    static constexpr bool uniform = std::is_same_v<L, NoLatency>;
    using Base = FoldedIndex<DenseTable<H, L>>;

public:
    DenseTable(FoldedCore f, unsigned threads, Progress* progress)
        : Base(f), n_(f.num_core()), uniform_ps_(f.uniform_ps.value_or(0)) {
        const std::size_t pairs = pairs_of(n_);
        hops_.resize(pairs);
        if constexpr (!uniform) latency_.resize(pairs);
        for_each_core_row(f, !uniform, threads, progress, "dense table",
                          [&](std::uint32_t s, const CoreRow& row) { store(s, row); });
    }

    // A kept table (read_dense_table checked the sizes).
    DenseTable(KeptCore& k, std::vector<H> hops, std::vector<L> latency)
        : Base(k), n_(k.num_core), uniform_ps_(k.uniform_ps.value_or(0)), hops_(std::move(hops)) {
        if constexpr (!uniform) latency_ = std::move(latency);
    }

    bool can_keep() const override { return true; }
    void write_kept(ArrayWriter& out) const override {
        this->write_core(out, uniform ? std::optional<std::int64_t>(uniform_ps_) : std::nullopt);
        out.value(shape_tag,
                  Shape{n_, sizeof(H), uniform ? 0u : static_cast<std::uint32_t>(sizeof(L))});
        out.array(hops_tag, hops_);
        if constexpr (!uniform) out.array(latency_tag, latency_);
    }

    std::string description() const override {
        std::string lat = uniform ? fmt::format("latency = hops x {} ps", uniform_ps_)
                                  : fmt::format("{}-bit latency", 8 * sizeof(L));
        return fmt::format("dense table: {}, {}-bit hops, {}, {}", this->core_summary(),
                           8 * sizeof(H), lat, format_bytes(memory_bytes()));
    }
    DistanceIndexKind kind() const override { return DistanceIndexKind::DenseTable; }
    std::size_t memory_bytes() const override {
        std::size_t b = sizeof(*this) + this->machine_bytes() + hops_.capacity() * sizeof(H);
        if constexpr (!uniform) b += latency_.capacity() * sizeof(L);
        return b;
    }

    std::uint32_t core_hops(std::uint32_t u, std::uint32_t v) const {
        const H h = hops_[triangle_index(n_, u, v)];
        return h == sentinel<H> ? no_hops : h;
    }
    std::int64_t core_ps(std::uint32_t u, std::uint32_t v) const {
        if constexpr (uniform) {
            return uniform_latency(core_hops(u, v), uniform_ps_);
        } else {
            const L l = latency_[triangle_index(n_, u, v)];
            return l == sentinel<L> ? no_ps : static_cast<std::int64_t>(l);
        }
    }

private:
    // Row s of the triangle: pairs (s, t), t > s. Rows are disjoint.
    void store(std::uint32_t s, const CoreRow& row) {
        const std::size_t base = triangle_index(n_, s, s + 1);
        for (std::uint32_t t = s + 1; t < n_; ++t) {
            const std::uint32_t h = row.hops[t];
            hops_[base + (t - s - 1)] =
                h == no_hops ? static_cast<H>(sentinel<H>) : static_cast<H>(h);
            if constexpr (!uniform) {
                const std::int64_t l = row.latency_ps[t];
                latency_[base + (t - s - 1)] =
                    l == no_ps ? static_cast<L>(sentinel<L>) : static_cast<L>(l);
            }
        }
    }

    std::uint32_t n_;
    std::int64_t uniform_ps_;
    std::vector<H> hops_;
    std::vector<std::conditional_t<uniform, char, L>> latency_;
};

// The narrowest of the candidate types whose largest value (the sentinel)
// exceeds the bound, passed to `f` as a value of that type.
template <class F> auto with_hop_type(std::uint64_t bound, F&& f) {
    if (bound < sentinel<std::uint8_t>) return f(std::uint8_t{});
    if (bound < sentinel<std::uint16_t>) return f(std::uint16_t{});
    return f(std::uint32_t{});
}
template <class F> auto with_latency_type(const FoldedCore& c, std::int64_t bound, F&& f) {
    const auto b = static_cast<std::uint64_t>(bound);
    if (c.uniform_ps) return f(NoLatency{});
    if (b < sentinel<std::uint16_t>) return f(std::uint16_t{});
    if (b < sentinel<std::uint32_t>) return f(std::uint32_t{});
    return f(std::uint64_t{});
}

} // namespace

std::size_t dense_table_bytes(const FoldedCore& f, const CoreBounds& bounds) {
    return with_hop_type(bounds.hops, [&](auto h) {
        return with_latency_type(f, bounds.latency_ps, [&](auto l) {
            using H = decltype(h);
            using L = decltype(l);
            const std::size_t lat = std::is_same_v<L, NoLatency> ? 0 : sizeof(L);
            return sizeof(DenseTable<H, L>) + f.machine_bytes() +
                   pairs_of(f.num_core()) * (sizeof(H) + lat);
        });
    });
}

std::unique_ptr<DistanceIndex> read_dense_table(KeptCore k, ArrayReader& in) {
    if (in.peek_tag() == terminal_shape_tag) return read_terminal_table(std::move(k), in);
    const auto shape = in.value<Shape>(shape_tag);
    if (shape.n != k.num_core || (shape.latency_bytes == 0) != k.uniform_ps.has_value())
        in.fail(shape_tag, "does not match the core");
    const std::size_t pairs = pairs_of(shape.n);
    auto read = [&](auto h, auto l) -> std::unique_ptr<DistanceIndex> {
        using H = decltype(h);
        using L = decltype(l);
        auto hops = in.array<H>(hops_tag, pairs);
        if (hops.size() != pairs) in.fail(hops_tag, "does not hold every pair");
        std::vector<L> latency;
        if constexpr (!std::is_same_v<L, NoLatency>) {
            latency = in.array<L>(latency_tag, pairs);
            if (latency.size() != pairs) in.fail(latency_tag, "does not hold every pair");
            for (const L v : latency)
                if (v != sentinel<L> && static_cast<std::uint64_t>(v) > std::uint64_t{1} << 62)
                    in.fail(latency_tag, "holds a latency out of range");
        }
        return std::make_unique<DenseTable<H, L>>(k, std::move(hops), std::move(latency));
    };
    auto with_latency = [&](auto h) -> std::unique_ptr<DistanceIndex> {
        switch (shape.latency_bytes) {
        case 0:
            return read(h, NoLatency{});
        case 2:
            return read(h, std::uint16_t{});
        case 4:
            return read(h, std::uint32_t{});
        case 8:
            return read(h, std::uint64_t{});
        default:
            in.fail(shape_tag, "has an unknown latency width");
        }
    };
    switch (shape.hop_bytes) {
    case 1:
        return with_latency(std::uint8_t{});
    case 2:
        return with_latency(std::uint16_t{});
    case 4:
        return with_latency(std::uint32_t{});
    default:
        in.fail(shape_tag, "has an unknown hop width");
    }
}

std::unique_ptr<DistanceIndex> make_dense_table(FoldedCore f, const CoreBounds& bounds,
                                                unsigned threads, Progress* progress) {
    return with_hop_type(bounds.hops, [&](auto h) {
        return with_latency_type(f, bounds.latency_ps,
                                 [&](auto l) -> std::unique_ptr<DistanceIndex> {
                                     return std::make_unique<DenseTable<decltype(h), decltype(l)>>(
                                         std::move(f), threads, progress);
                                 });
    });
}

} // namespace nettopo::detail
