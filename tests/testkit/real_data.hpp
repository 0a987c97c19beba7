// The real inputs of ../shared/data used by several tests.
#pragma once

#include "nettopo/assemble/assemble.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace nettopo::test {

// Exports of the shared hwloc-xml directory that nettopo still gets wrong,
// each with the open issue that fixes it. None is left: issue 13 made the
// restricted export (hagrid-restricted.xml) and the hybrid CPU
// (Intel-ArrowLake-CoreUltra5-225U.v3as2.xml) load right. real_xmls()
// leaves them out; "real data: the exports of open issues still fail as
// reported" (test_hwloc_import.cpp) checks the list against the directory,
// so it cannot go stale: add a file here with the issue that will fix it.
inline const std::vector<std::string>& xmls_of_open_issues() {
    static const std::vector<std::string> names = {};
    return names;
}

// Every other file of the shared hwloc-xml directory, sorted for stable output.
inline std::vector<std::string> real_xmls() {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    const fs::path dir = fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml";
    const std::vector<std::string>& open = xmls_of_open_issues();
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".xml" &&
            std::find(open.begin(), open.end(), e.path().filename().string()) == open.end())
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The exports of hybrid CPUs (several CPU kinds) of the shared hwloc-xml
// directory that are there; one missing is warned about and left out.
inline std::vector<std::string> hybrid_xmls() {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const char* name : {"fakecpukinds.xml", "Intel-ArrowLake-CoreUltra5-225U.v3as2.xml"}) {
        const fs::path path = fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml" / name;
        if (fs::exists(path))
            files.push_back(path);
        else
            WARN("no " << path << ": skipped");
    }
    return files;
}

// A real cluster of the shared clusters directory: its per-host hwloc
// exports and its ibnetdiscover fabric.
inline std::string real_cluster_dir(const std::string& name) {
    return std::string(NETTOPO_SHARED_DATA) + "/clusters/" + name;
}

// Whether it is there; a test without it warns and skips.
inline bool have_real_cluster(const std::string& name) {
    if (std::filesystem::exists(real_cluster_dir(name))) return true;
    WARN("no " << real_cluster_dir(name) << ": skipped");
    return false;
}

inline Assembly assemble_real_cluster(const std::string& name, AssembleOptions options = {}) {
    ClusterSources s;
    s.hosts = {real_cluster_dir(name) + "/hwloc"};
    s.ibnetdiscover = {real_cluster_dir(name) + "/ib-subnet-0.txt"};
    return assemble_from_files(s, options);
}

} // namespace nettopo::test
