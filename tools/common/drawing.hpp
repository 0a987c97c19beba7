// nettopo-query draw (and the tests): the network as a DOT file, or rendered to SVG, PNG or
// PDF by Graphviz's `dot`, run as a child process (which is why this lives
// with the tool and not in the library).
#pragma once

#include "common/dot_writer.hpp"

#include <string>

namespace nettopo {

// Writes FILE: .dot as text, .svg/.png/.pdf rendered by Graphviz's `dot`
// (found on PATH). Throws Error saying clearly when `dot` is not installed.
void save_drawing(const Cluster& cluster, const std::string& path, const DotOptions& options = {});

} // namespace nettopo
