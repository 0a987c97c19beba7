// The dense table of the core's terminals (see terminal_table.hpp).
#include "query/index/terminal_table.hpp"

#include "query/index/core_rows.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <exception>
#include <fmt/format.h>
#include <mutex>
#include <numeric>
#include <system_error>
#include <thread>

namespace nettopo::detail {

namespace {

constexpr std::uint32_t none = 0xffffffffu;
constexpr std::uint32_t terms_tag = array_tag("TTRM"), dict_tag = array_tag("TDIC"),
                        codes_tag = array_tag("TCOD");

struct TerminalShape {
    std::uint32_t num_terminals, code_bits;
};

// Byte offset of each row of the triangle (row i: pairs (i, j), j > i), each
// row starting on a byte so that threads filling different rows never
// write the same byte; the last entry is the table's size.
std::vector<std::uint64_t> row_offsets(std::uint32_t t, unsigned bits) {
    std::vector<std::uint64_t> off(std::size_t{t} + 1, 0);
    for (std::uint32_t i = 0; i < t; ++i)
        off[i + 1] = off[i] + (std::uint64_t{t - 1 - i} * bits + 7) / 8;
    return off;
}

// Core vertex -> terminal number (none for the others).
std::vector<std::uint32_t> terminal_numbers(std::uint32_t num_core,
                                            std::span<const std::uint32_t> terminals) {
    std::vector<std::uint32_t> of(num_core, none);
    for (std::uint32_t i = 0; i < terminals.size(); ++i) of[terminals[i]] = i;
    return of;
}

std::size_t table_bytes(const FoldedCore& f, std::uint32_t t, unsigned bits) {
    return row_offsets(t, bits).back() + (std::size_t{t} + 1) * 8 + std::size_t{f.num_core()} * 4 +
           f.machine_bytes() + (std::size_t{4} << bits);
}

template <unsigned Bits> class TerminalTable final : public FoldedIndex<TerminalTable<Bits>> {
    using Base = FoldedIndex<TerminalTable<Bits>>;

public:
    // dict: 2^Bits entries, code -> hops (no_hops for unused codes and the
    // all-ones code).
    TerminalTable(FoldedCore& f, std::vector<std::uint32_t> terminals,
                  std::vector<std::uint32_t> dict, std::vector<std::uint8_t> codes,
                  std::size_t distinct)
        : Base(f), uniform_ps_(*f.uniform_ps), terminals_(std::move(terminals)),
          terminal_of_(terminal_numbers(f.num_core(), terminals_)),
          offsets_(row_offsets(static_cast<std::uint32_t>(terminals_.size()), Bits)),
          dict_(std::move(dict)), owned_(std::move(codes)), codes_(owned_), distinct_(distinct) {}

    // A kept table: codes in the reader's mapping.
    TerminalTable(KeptCore& k, std::vector<std::uint32_t> terminals,
                  std::vector<std::uint32_t> dict, std::span<const std::uint8_t> codes,
                  std::shared_ptr<const void> mapping)
        : Base(k), uniform_ps_(*k.uniform_ps), terminals_(std::move(terminals)),
          terminal_of_(terminal_numbers(k.num_core, terminals_)),
          offsets_(row_offsets(static_cast<std::uint32_t>(terminals_.size()), Bits)),
          dict_(std::move(dict)), codes_(codes), mapping_(std::move(mapping)),
          distinct_(static_cast<std::size_t>(
              std::count_if(dict_.begin(), dict_.end(), [](auto h) { return h != no_hops; }))) {}

    bool can_keep() const override { return true; }
    void write_kept(ArrayWriter& out) const override {
        this->write_core(out, uniform_ps_);
        out.value(terminal_shape_tag,
                  TerminalShape{static_cast<std::uint32_t>(terminals_.size()), Bits});
        out.array(terms_tag, terminals_);
        out.array(dict_tag, dict_);
        out.array(codes_tag, codes_);
    }

    std::string description() const override {
        return fmt::format("dense table of {} terminals: {}, {}-bit codes of {} hop counts, "
                           "latency = hops x {} ps, {}",
                           terminals_.size(), this->core_summary(), Bits, distinct_, uniform_ps_,
                           format_bytes(memory_bytes()));
    }
    DistanceIndexKind kind() const override { return DistanceIndexKind::TerminalTable; }
    std::size_t memory_bytes() const override {
        return sizeof(*this) + this->machine_bytes() + terminals_.capacity() * 4 +
               terminal_of_.capacity() * 4 + offsets_.capacity() * 8 + dict_.capacity() * 4 +
               codes_.size();
    }

    std::uint32_t core_hops(std::uint32_t u, std::uint32_t v) const {
        std::uint32_t a = terminal_of_[u], b = terminal_of_[v];
        if (a > b) std::swap(a, b);
        const std::uint64_t j = b - a - 1;
        if constexpr (Bits == 8) {
            return dict_[codes_[offsets_[a] + j]];
        } else {
            return dict_[(codes_[offsets_[a] + j / 2] >> ((j & 1) * 4)) & 15u];
        }
    }
    std::int64_t core_ps(std::uint32_t u, std::uint32_t v) const {
        return uniform_latency(core_hops(u, v), uniform_ps_);
    }

private:
    std::int64_t uniform_ps_;
    std::vector<std::uint32_t> terminals_, terminal_of_;
    std::vector<std::uint64_t> offsets_;
    std::vector<std::uint32_t> dict_;
    std::vector<std::uint8_t> owned_;
    std::span<const std::uint8_t> codes_;
    std::shared_ptr<const void> mapping_;
    std::size_t distinct_;
};

// Sources searched at once: one bit each in `words` 64-bit words per vertex.
constexpr unsigned words = 4;
struct Bits256 {
    std::array<std::uint64_t, words> w;
};

// The bit-parallel fill of the codes (see terminal_table.hpp). Codes are
// handed out in the order hop counts are met, then renumbered by increasing
// hop count (renumber) so that the table does not depend on the threads.
class Fill {
public:
    Fill(const FoldedCore& f, std::span<const std::uint32_t> terminals, unsigned bits,
         std::vector<std::uint8_t>& codes)
        : core_(f.core), terminals_(terminals), of_(terminal_numbers(f.num_core(), terminals)),
          offsets_(row_offsets(static_cast<std::uint32_t>(terminals.size()), bits)), bits_(bits),
          max_codes_((1u << bits) - 1), codes_(codes) {
        codes_.assign(offsets_.back(), 0xff); // all ones: unreachable
    }

    // False when the hop counts needed more codes than `bits` give.
    bool run(unsigned threads, Progress* progress) {
        const std::uint32_t t = static_cast<std::uint32_t>(terminals_.size());
        const std::uint32_t batches = (t + 64 * words - 1) / (64 * words);
        if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
        threads = std::max(1u, std::min(threads, batches));
        std::atomic<std::uint32_t> next{0}, done{0};
        std::exception_ptr failure;
        std::mutex failure_mutex;
        auto work = [&](bool reporter) {
            try {
                ProgressTicker tick(reporter ? progress : nullptr, "terminal table", t, 1);
                Search s(core_.num_vertices());
                for (std::uint32_t b; (b = next.fetch_add(1)) < batches && !overflow_;) {
                    batch(s, b * 64 * words,
                          std::min<std::uint32_t>(64 * words, t - b * 64 * words));
                    tick(std::min<std::uint64_t>(t, std::uint64_t{done.fetch_add(1) + 1} * 64 *
                                                        words));
                }
            } catch (...) {
                const std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
                next.store(batches);
            }
        };
        std::vector<std::thread> pool;
        for (unsigned i = 1; i < threads; ++i) {
            try {
                pool.emplace_back(work, false);
            } catch (const std::system_error&) {
                break;
            }
        }
        work(true);
        for (std::thread& th : pool) th.join();
        if (failure) std::rethrow_exception(failure);
        if (progress) progress->update("terminal table", t, t);
        return !overflow_;
    }

    // Renumbers the codes by increasing hop count; returns code -> hops
    // (2^bits entries, no_hops for the unused codes and all ones).
    std::vector<std::uint32_t> renumber() {
        std::vector<std::uint32_t> order(dict_.size());
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return dict_[a] < dict_[b]; });
        std::array<std::uint8_t, 256> code{};
        for (unsigned c = 0; c < 256; ++c) code[c] = static_cast<std::uint8_t>(c);
        for (std::uint32_t i = 0; i < order.size(); ++i)
            code[order[i]] = static_cast<std::uint8_t>(i);
        std::vector<std::uint32_t> out(std::size_t{1} << bits_, no_hops);
        for (std::uint32_t i = 0; i < order.size(); ++i) out[i] = dict_[order[i]];
        if (!std::is_sorted(dict_.begin(), dict_.end())) {
            std::array<std::uint8_t, 256> byte{}; // both nibbles at once when 4-bit
            for (unsigned x = 0; x < 256; ++x)
                byte[x] = bits_ == 8 ? code[x]
                                     : static_cast<std::uint8_t>(code[x & 15] | code[x >> 4] << 4);
            for (std::uint8_t& c : codes_) c = byte[c];
        }
        return out;
    }
    std::size_t distinct() const { return dict_.size(); }

private:
    struct Search {
        explicit Search(std::uint32_t n) : frontier(n), next(n), visited(n) {}
        std::vector<Bits256> frontier, next, visited;
        std::vector<std::uint32_t> active, reached, touched; // vertex lists of a level
        std::vector<std::uint16_t> code_of_level;            // this thread's copy of the dictionary
    };

    static bool equal(const Bits256& a, const Bits256& b) { return a.w == b.w; }
    static bool is_zero(const Bits256& a) {
        std::uint64_t any = 0;
        for (unsigned k = 0; k < words; ++k) any |= a.w[k];
        return any == 0;
    }

    // The code of hop count `level`, handed out on first sight.
    std::uint32_t code_for(Search& s, std::uint32_t level) {
        if (level < s.code_of_level.size() && s.code_of_level[level] != 0xffff)
            return s.code_of_level[level];
        const std::lock_guard lock(dict_mutex_);
        auto it = std::find(dict_.begin(), dict_.end(), level);
        if (it == dict_.end()) {
            if (dict_.size() == max_codes_) {
                overflow_ = true;
                return none;
            }
            it = dict_.insert(dict_.end(), level);
        }
        if (s.code_of_level.size() <= level) s.code_of_level.resize(level + 1, 0xffff);
        return s.code_of_level[level] = static_cast<std::uint16_t>(it - dict_.begin());
    }

    // Searches from terminals [base, base + count) at once; stores the pairs
    // (s, t), s in the batch, t > s: rows owned by this batch alone.
    void batch(Search& s, std::uint32_t base, std::uint32_t count) {
        const std::uint32_t n = core_.num_vertices();
        // Invariant at each level's start: `next` is all zero, `active` lists
        // the vertices whose `frontier` is not.
        std::fill(s.frontier.begin(), s.frontier.end(), Bits256{});
        std::fill(s.next.begin(), s.next.end(), Bits256{});
        std::fill(s.visited.begin(), s.visited.end(), Bits256{});
        s.active.clear();
        Bits256 full{};
        for (std::uint32_t j = 0; j < count; ++j) {
            full.w[j / 64] |= std::uint64_t{1} << (j % 64);
            const std::uint32_t v = terminals_[base + j];
            if (is_zero(s.frontier[v])) s.active.push_back(v);
            s.frontier[v].w[j / 64] |= std::uint64_t{1} << (j % 64);
            s.visited[v].w[j / 64] |= std::uint64_t{1} << (j % 64);
        }
        const std::uint64_t ends = 2 * std::uint64_t{core_.num_links()};
        for (std::uint32_t level = 1; !s.active.empty(); ++level) {
            std::uint32_t code = none;
            // What vertex v newly reaches at this level: acc (already ORed
            // from its neighbours' frontiers), less what it had seen.
            auto settle = [&](std::uint32_t v, Bits256 acc) {
                Bits256& seen = s.visited[v];
                std::uint64_t nonzero = 0;
                for (unsigned k = 0; k < words; ++k) {
                    acc.w[k] &= ~seen.w[k];
                    seen.w[k] |= acc.w[k];
                    nonzero |= acc.w[k];
                }
                s.next[v] = acc;
                if (!nonzero) return true;
                s.reached.push_back(v);
                const std::uint32_t t = of_[v];
                if (t == none || t <= base) return true;
                if (code == none && (code = code_for(s, level)) == none) return false; // overflow
                store(acc, base, t, code);
                return true;
            };
            s.reached.clear();
            std::uint64_t frontier_ends = 0;
            for (const std::uint32_t u : s.active)
                frontier_ends += core_.neighbors(VertexId(u)).size();
            if (frontier_ends * 8 < ends) {
                // A small frontier: push it to its neighbours, then settle those.
                s.touched.clear();
                for (const std::uint32_t u : s.active) {
                    const Bits256& f = s.frontier[u];
                    for (const VertexId v : core_.neighbors(VertexId(u))) {
                        Bits256& out = s.next[v.value];
                        if (is_zero(out)) s.touched.push_back(v.value);
                        for (unsigned k = 0; k < words; ++k) out.w[k] |= f.w[k];
                    }
                }
                for (const std::uint32_t v : s.touched)
                    if (!settle(v, s.next[v])) return;
            } else {
                // A large one: every vertex not yet reached by every source
                // pulls from its neighbours.
                for (std::uint32_t v = 0; v < n; ++v) {
                    if (equal(s.visited[v], full)) continue; // its `next` stays zero
                    Bits256 acc{};
                    for (const VertexId u : core_.neighbors(VertexId(v))) {
                        const Bits256& f = s.frontier[u.value];
                        for (unsigned k = 0; k < words; ++k) acc.w[k] |= f.w[k];
                    }
                    if (!settle(v, acc)) return;
                }
            }
            for (const std::uint32_t u : s.active) s.frontier[u] = Bits256{};
            std::swap(s.frontier, s.next);
            std::swap(s.active, s.reached);
        }
    }

    void store(const Bits256& acc, std::uint32_t base, std::uint32_t t, std::uint32_t code) {
        for (unsigned k = 0; k < words; ++k)
            for (std::uint64_t b = acc.w[k]; b; b &= b - 1) {
                const std::uint32_t src =
                    base + 64 * k + static_cast<std::uint32_t>(std::countr_zero(b));
                if (src >= t) return; // sources increase with the bit
                const std::uint64_t j = t - src - 1;
                if (bits_ == 8) {
                    codes_[offsets_[src] + j] = static_cast<std::uint8_t>(code);
                } else {
                    std::uint8_t& c = codes_[offsets_[src] + j / 2];
                    const unsigned shift = (j & 1) * 4;
                    c = static_cast<std::uint8_t>((c & ~(15u << shift)) | code << shift);
                }
            }
    }

    const Network& core_;
    std::span<const std::uint32_t> terminals_;
    std::vector<std::uint32_t> of_;
    std::vector<std::uint64_t> offsets_;
    unsigned bits_;
    std::uint32_t max_codes_;
    std::vector<std::uint8_t>& codes_;
    std::mutex dict_mutex_;
    std::vector<std::uint32_t> dict_; // code -> hop count, in the order met
    std::atomic<bool> overflow_{false};
};

} // namespace

std::vector<std::uint32_t> core_terminals(const FoldedCore& f) {
    std::vector<char> is(f.num_core(), 0);
    for (std::uint32_t m = 0; m < f.num_machines(); ++m)
        for (const HostLink& a : f.machines.anchors_of(m)) is[a.core_vertex] = 1;
    std::vector<std::uint32_t> terminals;
    for (std::uint32_t v = 0; v < f.num_core(); ++v)
        if (is[v]) terminals.push_back(v);
    terminals.shrink_to_fit(); // as read back: the same memory_bytes
    return terminals;
}

std::size_t terminal_table_min_bytes(const FoldedCore& f, std::uint32_t terminals) {
    return table_bytes(f, terminals, 4);
}

std::unique_ptr<DistanceIndex> make_terminal_table(FoldedCore& f, std::size_t budget,
                                                   unsigned threads, Progress* progress) {
    if (!f.uniform_ps) return nullptr;
    std::vector<std::uint32_t> terminals = core_terminals(f);
    const auto t = static_cast<std::uint32_t>(terminals.size());
    for (const unsigned bits : {4u, 8u}) {
        if (table_bytes(f, t, bits) > budget) return nullptr;
        std::vector<std::uint8_t> codes;
        Fill fill(f, terminals, bits, codes);
        if (!fill.run(threads, progress)) continue; // more hop counts than codes
        std::vector<std::uint32_t> dict = fill.renumber();
        const std::size_t distinct = fill.distinct();
        if (bits == 4)
            return std::make_unique<TerminalTable<4>>(f, std::move(terminals), std::move(dict),
                                                      std::move(codes), distinct);
        return std::make_unique<TerminalTable<8>>(f, std::move(terminals), std::move(dict),
                                                  std::move(codes), distinct);
    }
    return nullptr;
}

std::unique_ptr<DistanceIndex> read_terminal_table(KeptCore k, ArrayReader& in) {
    const auto shape = in.value<TerminalShape>(terminal_shape_tag);
    if ((shape.code_bits != 4 && shape.code_bits != 8) || shape.num_terminals > k.num_core)
        in.fail(terminal_shape_tag, "does not match the core");
    if (!k.uniform_ps) in.fail(terminal_shape_tag, "needs a core of one latency");
    std::vector<std::uint32_t> terminals = in.array<std::uint32_t>(terms_tag, shape.num_terminals);
    if (terminals.size() != shape.num_terminals) in.fail(terms_tag, "does not hold every terminal");
    for (std::size_t i = 0; i < terminals.size(); ++i)
        if (terminals[i] >= k.num_core || (i > 0 && terminals[i] <= terminals[i - 1]))
            in.fail(terms_tag, "holds a core vertex out of range or out of order");
    // Every code is then a valid position: unused ones read no_hops.
    std::vector<std::uint32_t> dict = in.array<std::uint32_t>(dict_tag, 256);
    if (dict.size() != (std::size_t{1} << shape.code_bits))
        in.fail(dict_tag, "does not hold one entry per code");
    const std::uint64_t size = row_offsets(shape.num_terminals, shape.code_bits).back();
    const auto codes = in.view<std::uint8_t>(codes_tag, size);
    if (codes.size() != size) in.fail(codes_tag, "does not hold every pair");
    // Every machine's anchors must be terminals, or a query would read past them.
    const std::vector<std::uint32_t> of = terminal_numbers(k.num_core, terminals);
    for (std::uint32_t m = 0; m < k.machines.links.size(); ++m)
        for (const HostLink& a : k.machines.anchors_of(m))
            if (of[a.core_vertex] == none) in.fail(terms_tag, "misses a machine's anchor");
    if (shape.code_bits == 4)
        return std::make_unique<TerminalTable<4>>(k, std::move(terminals), std::move(dict), codes,
                                                  in.mapping());
    return std::make_unique<TerminalTable<8>>(k, std::move(terminals), std::move(dict), codes,
                                              in.mapping());
}

} // namespace nettopo::detail
