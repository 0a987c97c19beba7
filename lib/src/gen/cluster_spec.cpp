// Cluster specs: one line of nettopo's spec language, a family spec with the
// machine and link options of every generated cluster among its own
// ("ring --machines 3 --machine 'core:2 pu:1' --latency all=5"). Workload
// presets and archives store such lines; the option names are the
// language's, so its messages name them.
#include "families/spec_words.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

namespace nettopo {

// The machine and link options are taken out here; what is left is the
// family's own spec, which family_from_spec judges.
Cluster generate_from_spec(std::string_view spec, const GenerateOptions& options) {
    const std::vector<std::string> words = detail::spec_words(spec, "cluster");
    std::string family_spec, machine;
    GenerateOptions opts = options;
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::string_view w = words[i];
        std::string value;
        const std::size_t eq = w.find('=');
        const std::string_view name = w.substr(0, eq);
        const bool ours = name == "--machine" || name == "--latency" || name == "--bandwidth";
        if (!ours) {
            if (!family_spec.empty()) family_spec += ' ';
            const bool quote = w.find_first_of(" \t") != std::string_view::npos;
            family_spec += quote ? fmt::format("\"{}\"", w) : std::string(w);
            continue;
        }
        if (eq != std::string_view::npos) {
            value = w.substr(eq + 1);
        } else if (i + 1 < words.size()) {
            value = words[++i];
        } else {
            throw UsageError(fmt::format("cluster '{}': {} lacks its value", spec, name));
        }
        if (name == "--machine") {
            if (!machine.empty())
                throw UsageError(fmt::format("cluster '{}': --machine given twice", spec));
            machine = value;
        } else {
            read_named(name, [&] {
                set_link_class(opts.links,
                               name == "--latency" ? LinkField::Latency : LinkField::Bandwidth,
                               value);
            });
        }
    }
    const std::unique_ptr<Family> family = family_from_spec(family_spec);
    const MachineType type = read_named("--machine", [&] {
        return synthetic_machine(machine.empty() ? default_machine : machine, {},
                                 options.hwloc_sandbox);
    });
    return generate(*family, type, opts);
}

} // namespace nettopo
