#include "nettopo/model/attachment.hpp"

#include <cctype>

namespace nettopo {

std::optional<std::uint32_t> adapter_index(std::string_view device) {
    std::size_t digits = 0;
    while (digits < device.size() &&
           std::isdigit(static_cast<unsigned char>(device[device.size() - 1 - digits])))
        ++digits;
    if (digits == 0 || digits > 6) return std::nullopt;
    std::uint32_t n = 0;
    for (const char c : device.substr(device.size() - digits))
        n = n * 10 + static_cast<std::uint32_t>(c - '0');
    if (device.substr(0, device.size() - digits) == "HCA-") {
        if (n == 0) return std::nullopt; // numbered from 1
        return n - 1;
    }
    return n;
}

} // namespace nettopo
