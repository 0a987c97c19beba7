#include "common/text_table.hpp"

#include <algorithm>

namespace nettopo {

namespace {

// Display width: UTF-8 continuation bytes take no column.
std::size_t columns(const std::string& s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xc0) != 0x80; }));
}

} // namespace

void write_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                      const std::vector<bool>& numeric) {
    std::vector<std::size_t> width;
    for (const auto& r : rows) {
        width.resize(std::max(width.size(), r.size()), 0);
        for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], columns(r[i]));
    }
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i) {
            const std::string pad(width[i] - columns(r[i]), ' ');
            if (i + 1 == r.size()) {
                line += r[i];
            } else {
                line += i < numeric.size() && numeric[i] ? pad + r[i] : r[i] + pad;
                line += "  ";
            }
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << '\n';
    }
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + '"';
}

} // namespace nettopo
