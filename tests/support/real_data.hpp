// The real inputs of ../shared/data used by several tests.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace nettopo::test {

// Every file of the shared hwloc-xml directory, sorted for stable output.
inline std::vector<std::string> real_xmls() {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    const fs::path dir = fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml";
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".xml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace nettopo::test
