// The binary image (formats/image.hpp), read from a file holding the input.
// Oracles: a refusal is an InputError naming the file; an image read writes
// an archive that reads back to the same archive, and saved again
// (save_image) it reads back to the same archive.
#include "nettopo/formats/image.hpp"

#include "fuzz_target.hpp"

#include <optional>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(image) {
    const TempFile file(text_of(data, size), ".ntimg");
    std::optional<Image> image;
    if (!accepted([&] { image.emplace(read_image(file.path(), true)); }, Refusal::input_named,
                  file.path()))
        return;
    const std::string archive = archive_text(image->cluster);
    require_same("image -> archive -> archive", archive, archive_text(read_back_archive(archive)));
    const TempFile again("", ".ntimg");
    must("save_image", [&] { (void)save_image(image->cluster, image->index.get(), again.path()); });
    const Image back = must("reading back an image the library wrote",
                            [&] { return read_image(again.path(), true); });
    require_same("image -> image -> archive", archive, archive_text(back.cluster));
}
