#include "nettopo/support/detail/text.hpp"

#include <fmt/format.h>

namespace nettopo {

std::string format_number(double v) {
    return fmt::format("{}", v);
}

std::string counted(std::uint64_t n, std::string_view noun) {
    if (n == 1) return fmt::format("1 {}", noun);
    const bool es = noun.ends_with("ch") || noun.ends_with("s") || noun.ends_with("x");
    return fmt::format("{} {}{}", n, noun, es ? "es" : "s");
}

} // namespace nettopo
