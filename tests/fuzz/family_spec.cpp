// Family specs and the cluster spec language (families/, gen/generate.hpp).
// Oracles: a refusal is a nettopo::Error; a family is as large as it says
// (generate_from_spec's cluster has num_machines() machines and
// num_switches() switches), and its spec() reads back to the same spec.
// Bounded work: families of more than 4096 vertices, and specs naming a
// number above 2^16 (machine descriptions), are not generated.
#include "fuzz_target.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/families/family_registry.hpp"
#include "nettopo/gen/generate.hpp"

#include <memory>
#include <optional>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(family_spec) {
    const std::string_view spec = text_of(data, size);
    (void)accepted([&] { (void)read_family_spec(spec); }, Refusal::any_error);
    std::unique_ptr<Family> family;
    // The family alone: generate_from_spec's options (--machine, ...) are refused here.
    const bool family_only = accepted([&] { family = family_from_spec(spec); }, Refusal::any_error);
    if (family_only) {
        const std::string written = must("Family::spec", [&] { return family->spec(); });
        const auto back =
            must("reading back Family::spec", [&] { return family_from_spec(written); });
        require_same("family spec -> spec -> spec", written, back->spec());
        if (back->num_machines() != family->num_machines() ||
            back->num_links() != family->num_links())
            fail("family spec -> spec: another size", written);
    }
    if (names_more_than(spec, 1 << 16) ||
        spec.find_first_of("0123456789") == std::string_view::npos)
        return;
    for (std::size_t i = 0; i < spec.size();
         ++i) // a number above 2^16 anywhere: a machine too large
        if (spec[i] >= '0' && spec[i] <= '9' && i + 5 < spec.size() &&
            spec.substr(i, 6).find_first_not_of("0123456789") == std::string_view::npos)
            return;
    if (family_only && (family->num_vertices() > 4096 || family->num_links() > 65536)) return;
    if (!family_only) return; // the cluster spec's size is not known before generating it
    std::optional<Cluster> cluster;
    if (!accepted([&] { cluster.emplace(generate_from_spec(spec)); }, Refusal::any_error)) return;
    if (cluster->num_machines() != family->num_machines() ||
        cluster->num_switches() != family->num_switches())
        fail("generate_from_spec: another size than the family says", spec);
    const std::string archive = archive_text(*cluster);
    require_same("generated -> archive -> archive", archive,
                 archive_text(read_back_archive(archive)));
}
