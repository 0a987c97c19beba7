// Family specs and the cluster spec language (families/, gen/generate.hpp).
// Oracles: a refusal is a nettopo::Error; a family is as large as it says
// (generate_from_spec's cluster has num_machines() machines and
// num_switches() switches), and its spec() reads back to the same spec.
// Bounded work: generation is held to low limits (fuzz_limits), which
// generate_from_spec checks before building.
#include "fuzz_target.hpp"
#include "nettopo/families/detail/family_registry.hpp"
#include "nettopo/families/family.hpp"
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
    // Generated only within the targets' limits, which generate_from_spec
    // checks (with its estimate of memory) before it builds anything: a
    // spec past them must be refused at once, whatever its size.
    GenerateOptions options;
    options.limits = fuzz_limits();
    std::optional<Cluster> cluster;
    if (!accepted([&] { cluster.emplace(generate_from_spec(spec, options)); }, Refusal::any_error))
        return;
    if (family_only && (cluster->num_machines() != family->num_machines() ||
                        cluster->num_switches() != family->num_switches()))
        fail("generate_from_spec: another size than the family says", spec);
    const std::string archive = archive_text(*cluster);
    require_same("generated -> archive -> archive", archive,
                 archive_text(read_back_archive(archive)));
}
