// Descriptions in memory, for tests that write a cluster as text and read
// it back (disconnected ones too: many test clusters are fragments).
#pragma once

#include "nettopo/formats/description.hpp"
#include "nettopo/formats/load.hpp"

#include <sstream>
#include <string>

namespace nettopo::test {

inline Cluster from_description_text(const std::string& text, const std::string& source) {
    std::istringstream in(text);
    LoadOptions o;
    o.build.allow_disconnected = true;
    return read_description(in, source, o);
}

inline std::string description_text(const Cluster& c) {
    std::ostringstream out;
    write_description(c, out);
    return out.str();
}

} // namespace nettopo::test
