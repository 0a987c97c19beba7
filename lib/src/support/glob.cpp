#include "nettopo/support/detail/glob.hpp"

#include <cstddef>

namespace nettopo {

bool glob_match(std::string_view pattern, std::string_view text) noexcept {
    // Greedy with one backtrack point: the last '*' seen, and where in the
    // text it was last tried to end.
    std::size_t p = 0, t = 0, star = std::string_view::npos, star_text = 0;
    while (t < text.size()) {
        // A '*' first: a '*' in the text is a character like any other.
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            star_text = t;
        } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++star_text;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

} // namespace nettopo
