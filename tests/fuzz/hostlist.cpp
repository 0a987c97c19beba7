// Slurm hostlist expressions (support/hostlist.hpp). Oracles: a refusal is
// an InputError; an expression that expands compresses to one that expands
// to the same names, in order, and compresses to itself again.
#include "nettopo/support/hostlist.hpp"

#include "fuzz_target.hpp"

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(hostlist) {
    const std::string_view text = text_of(data, size);
    // The library's own count, before expanding: what a reader holds to
    // its per-file limit. It must count what expand_hostlist then gives.
    std::uint64_t count = 0;
    if (!accepted([&] { count = count_hostlist(text); }, Refusal::input)) return;
    if (count > (1 << 14)) return;
    std::vector<std::string> names;
    if (!accepted([&] { names = expand_hostlist(text); }, Refusal::input)) return;
    if (names.size() != count) fail("count_hostlist differs from what expand_hostlist gives");
    const std::string compressed =
        must("compress_hostlist", [&] { return compress_hostlist(names); });
    const auto back =
        must("expanding a compressed hostlist", [&] { return expand_hostlist(compressed); });
    if (back != names) fail("hostlist expand -> compress -> expand differs", compressed);
    require_same("hostlist compress -> expand -> compress", compressed, compress_hostlist(back));
    (void)must("hostlist_excerpt", [&] { return hostlist_excerpt(names, 3); });
}
