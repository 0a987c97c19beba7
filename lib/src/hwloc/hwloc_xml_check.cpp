#include "hwloc/hwloc_xml_check.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo::detail {

void parse_xml(pugi::xml_document& doc, std::string_view buffer, const std::string& source) {
    if (auto ok = doc.load_buffer(buffer.data(), buffer.size()); !ok) {
        const auto offset = static_cast<std::size_t>(ok.offset);
        const auto line =
            1 + std::count(buffer.begin(), buffer.begin() + std::min(offset, buffer.size()), '\n');
        throw InputError(source, static_cast<std::size_t>(line),
                         fmt::format("malformed XML: {}", ok.description()));
    }
}

std::size_t declared_pus(const pugi::xml_document& doc) {
    return doc.select_nodes("//object[@type='PU']").size();
}

void check_kept_pus(const MachineTree& tree, std::size_t declared, const std::string& source) {
    // hwloc drops PUs whose cpusets contradict each other, after a banner on
    // stderr (which the isolated child sends to /dev/null).
    if (tree.num_pus() != declared)
        throw InputError(source, 0,
                         fmt::format("hwloc kept {} of the {} PUs of this export: its cpusets "
                                     "are inconsistent",
                                     tree.num_pus(), declared));
}

} // namespace nettopo::detail
