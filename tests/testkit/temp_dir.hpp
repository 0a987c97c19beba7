// Files for the tests: a temporary directory removed at the end of the test,
// and a whole file read back.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace nettopo::test {

// A fresh, empty directory, `prefix` followed by a random suffix in the
// system's temporary directory, removed with its content at the end of the test.
struct TempDir {
    std::filesystem::path path;

    explicit TempDir(std::string_view prefix) {
        std::random_device rd;
        for (int i = 0;; ++i) {
            path = std::filesystem::temp_directory_path() / fmt::format("{}{:x}", prefix, rd());
            if (std::filesystem::create_directory(path)) break;
            REQUIRE(i < 100);
        }
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // The file `name` of the directory, as a string.
    std::string operator/(std::string_view name) const { return (path / name).string(); }

    // The names of the directory's entries, sorted.
    std::vector<std::string> entries() const {
        std::vector<std::string> v;
        for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(path))
            v.push_back(e.path().filename().string());
        std::sort(v.begin(), v.end());
        return v;
    }
};

// The whole content of a file, which must exist.
inline std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace nettopo::test
