// The --index option (see index_option.hpp).
#include "common/index_option.hpp"

#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace nettopo {

CLI::Option* add_index_option(CLI::App& app, std::string& value, const std::string& help) {
    return app.add_option("--index", value, help)
        ->check(CLI::IsMember({"auto", "always", "never"}));
}

IndexUse parse_index_use(std::string_view word) {
    if (word == "auto") return IndexUse::Auto;
    if (word == "always") return IndexUse::Always;
    if (word == "never") return IndexUse::Never;
    throw UsageError(fmt::format("--index: '{}' is not auto, always or never", word));
}

} // namespace nettopo
