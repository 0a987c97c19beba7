// Archives in memory, for tests that compare them byte for byte or edit them.
#pragma once

#include "nettopo/formats/archive.hpp"

#include <sstream>
#include <string>

namespace nettopo::test {

inline std::string archive_text(const Cluster& c) {
    std::ostringstream out;
    write_archive(c, out);
    return out.str();
}

inline Cluster from_archive_text(const std::string& text, const std::string& source = "t.xml") {
    std::istringstream in(text);
    return read_archive(in, source);
}

} // namespace nettopo::test
