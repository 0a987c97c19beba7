/// \file
/// Where hwloc parses a user's input. hwloc 2.9 dereferences NULL on some
/// malformed XML exports, and it takes the attributes of a synthetic
/// description unchecked. nettopo refuses what it knows hwloc crashes on before
/// hwloc sees it (an export whose NUMA node has a nodeset without its
/// complete_nodeset, a root without its complete sets: see
/// hwloc_xml_check.cpp), but cannot know every such file: siblings of which
/// one lacks its complete_cpuset crash hwloc too, unchecked here because
/// whether they do depends on hwloc's sort of the siblings
/// (tests/data/hwloc-crasher-siblings.xml).
///
/// By default (no sandbox) the parse runs in the calling thread: safe in a
/// threaded program (MPI ranks, OpenMP; the library never forks), but an
/// input that crashes hwloc crashes the caller. A program that must survive
/// such files (nettopo's tools) passes a sandbox that runs the parse
/// elsewhere, e.g. in a child process, and turns a crash into an InputError.
/// The library implements no sandbox itself.
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"

#include <functional>
#include <string>

namespace nettopo {

/// Where hwloc parses a user's input (see the file's comment); a program
/// implements it, the library only calls run().
/// \threads The library calls run() from the thread that loads; it must be
/// safe to call from several threads at once if the program loads from
/// several threads.
/// \cost The implementation's: typically a process started per call.
class HwlocSandbox {
public:
    virtual ~HwlocSandbox() = default; ///< a sandbox is owned by the program

    /// Runs `parse` and returns what it returns, or throws: an exception
    /// thrown by `parse` is rethrown (an InputError as an InputError with the
    /// same file, line and message); a crash of `parse` becomes an InputError
    /// naming `source` (the file, or the synthetic description). `parse` reads
    /// only what it captured and touches nothing outside its result, so it may
    /// run in another process. Called once per file or description; must be
    /// safe to call from several threads at once if the caller loads from
    /// several threads.
    virtual HwlocMachine run(const std::string& source,
                             const std::function<HwlocMachine()>& parse) const = 0;
};

} // namespace nettopo
