#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace nettopo {

std::string read_all(const std::string& path) {
    if (path == "-")
        return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, fmt::format("cannot read: {}", std::strerror(errno)));
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(path, 0, "is a directory, not a topology file");
    std::ostringstream buffer; // one bulk copy, not a character at a time
    buffer << in.rdbuf();
    if (in.bad()) throw InputError(path, 0, fmt::format("read error: {}", std::strerror(errno)));
    return std::move(buffer).str();
}

} // namespace nettopo
