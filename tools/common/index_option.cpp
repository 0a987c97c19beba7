// The --index option (see index_option.hpp).
#include "common/index_option.hpp"

#include <CLI/CLI.hpp>

namespace nettopo {

CLI::Option* add_index_option(CLI::App& app, std::string& value, const std::string& help) {
    return app.add_option("--index", value, help)
        ->check(CLI::IsMember({"auto", "always", "never"}));
}

} // namespace nettopo
