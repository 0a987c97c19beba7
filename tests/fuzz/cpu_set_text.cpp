// CPU sets as text (support/cpu_set_text.hpp), which the library writes
// and hwloc reads: the input is a set of PU OS indexes (2 bytes each, below
// 4096). Oracle, independent: hwloc's own parsers read format_cpu_list and
// format_cpu_mask back to the same set; and parse_cpu_list, the library's
// reader, reads the list back to the set hwloc holds.
#include "nettopo/support/cpu_set_text.hpp"

#include "fuzz_target.hpp"

#include <hwloc.h>
#include <memory>
#include <vector>

using namespace nettopo;
using namespace nettopo::fuzz;

namespace {

struct BitmapFree {
    void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapFree>;

void require_reads_back(const char* what, const std::string& text, hwloc_const_bitmap_t expected,
                        int (*parse)(hwloc_bitmap_t, const char*)) {
    const Bitmap read(hwloc_bitmap_alloc());
    if (parse(read.get(), text.c_str()) != 0)
        fail(std::string("hwloc does not read the ") + what, text);
    if (!hwloc_bitmap_isequal(read.get(), expected))
        fail(std::string("hwloc reads another set from the ") + what, text);
}

} // namespace

NETTOPO_FUZZ_TARGET(cpu_set_text) {
    std::vector<std::uint32_t> pus;
    const Bitmap expected(hwloc_bitmap_alloc());
    for (std::size_t i = 0; i + 1 < size; i += 2) {
        const std::uint32_t pu = (data[i] | (std::uint32_t{data[i + 1]} << 8)) % 4096;
        pus.push_back(pu);
        hwloc_bitmap_set(expected.get(), pu);
    }
    const std::string list = format_cpu_list(pus);
    if (pus.empty() ? !list.empty() : list.empty()) fail("format_cpu_list of an empty set", list);
    if (!pus.empty())
        require_reads_back("CPU list", list, expected.get(), hwloc_bitmap_list_sscanf);
    std::vector<std::uint32_t> in_hwloc;
    for (int i = hwloc_bitmap_first(expected.get()); i >= 0;
         i = hwloc_bitmap_next(expected.get(), i))
        in_hwloc.push_back(static_cast<std::uint32_t>(i));
    if (parse_cpu_list(list, 4096) != in_hwloc) fail("parse_cpu_list reads another set", list);
    require_reads_back("CPU mask", format_cpu_mask(pus), expected.get(), hwloc_bitmap_sscanf);
}
