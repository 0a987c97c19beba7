// nettopo-query index: builds the distance index and keeps it, with the
// cluster, in a binary image (formats/image.hpp) that later calls read
// instead of the archive.
#pragma once

#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace nettopo {

struct IndexCommand {
    std::string input;  // what -i named ("" for this machine)
    std::string output; // -o; "" for the image beside the archive
    std::string kind;   // --kind: auto, dense, labels or none
    std::uint64_t budget_mb = 512;
    bool json = false;
    Progress* progress = nullptr;
    // The input's stamp taken before it was read: an archive replaced while
    // it is read then makes the image stale, never wrong (a stamp taken after
    // reading could be the new archive's, on an image of the old one).
    std::optional<FileStamp> input_stamp;
};

// Writes the image and says what it holds on `out` (one line, or one JSON
// object). UsageError when no output can be chosen (the input is not an
// archive file) or the index chosen cannot be kept.
void run_index_command(const LoadedTopology& topology, const IndexCommand& c, std::ostream& out);

} // namespace nettopo
