#include "common/identity_text.hpp"

#include <fmt/format.h>

namespace nettopo {

std::string identities_text(const std::vector<DeviceIdentity>& identities) {
    std::string s = fmt::format("i {}\n", identities.size());
    for (const DeviceIdentity& d : identities)
        s += fmt::format("{} {} {} {}\n{}{}{}", d.device, d.view.size(), d.name.size(),
                         d.value.size(), d.view, d.name, d.value);
    return s;
}

std::optional<std::vector<DeviceIdentity>> read_identities_text(std::istream& in,
                                                                std::size_t max_bytes) {
    std::size_t count = 0;
    char kind = 0;
    if (!(in >> kind >> count) || kind != 'i' || in.get() != '\n' || count > max_bytes)
        return std::nullopt;
    std::vector<DeviceIdentity> out;
    for (std::size_t i = 0; i < count; ++i) {
        DeviceIdentity d;
        std::size_t lengths[3] = {};
        if (!(in >> d.device >> lengths[0] >> lengths[1] >> lengths[2]) || in.get() != '\n')
            return std::nullopt;
        std::string* const fields[] = {&d.view, &d.name, &d.value};
        for (int k = 0; k < 3; ++k) {
            if (lengths[k] > max_bytes) return std::nullopt;
            fields[k]->resize(lengths[k]);
            if (!in.read(fields[k]->data(), static_cast<std::streamsize>(lengths[k])))
                return std::nullopt;
        }
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace nettopo
