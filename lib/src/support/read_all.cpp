#include "nettopo/support/detail/huge_pages.hpp"
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
    // A regular file is read at its size into one string: a stream growing
    // by doubling copied a 66 MB archive several times and held up to twice
    // its size (issue 25). What is left after that (a pipe, a file that
    // grew meanwhile) is read in bulk, not a character at a time.
    std::string content;
    if (const auto size = std::filesystem::file_size(path, ec); !ec && size > 0) {
        content.reserve(static_cast<std::size_t>(size));
        advise_huge_pages(content.data(), static_cast<std::size_t>(size));
        content.resize(static_cast<std::size_t>(size));
        in.read(content.data(), static_cast<std::streamsize>(size));
        content.resize(static_cast<std::size_t>(in.gcount()));
    }
    if (!in.eof() && !in.bad()) {
        std::ostringstream rest;
        rest << in.rdbuf();
        content += std::move(rest).str();
    }
    if (in.bad()) throw InputError(path, 0, fmt::format("read error: {}", std::strerror(errno)));
    return content;
}

} // namespace nettopo
