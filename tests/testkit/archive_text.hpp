// Archives in memory, for tests that compare them byte for byte or edit them.
#pragma once

#include "nettopo/formats/archive.hpp"
#include "nettopo/support/error.hpp"

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

// The error of reading `good` with its first `from` made `to`, read as
// "bad.xml": its message ("bad.xml:LINE: ..."), else "accepted", or "no
// FROM" when `good` holds no `from` (either fails a Contains check).
inline std::string edited_archive_error(const std::string& good, const std::string& from,
                                        const std::string& to) {
    const auto at = good.find(from);
    if (at == std::string::npos) return "no " + from;
    try {
        from_archive_text(good.substr(0, at) + to + good.substr(at + from.size()), "bad.xml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "accepted";
}

} // namespace nettopo::test
