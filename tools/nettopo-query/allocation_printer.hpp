// nettopo-query summary in a job's view: how far the allocation spreads
// (query/allocation.hpp), as text or one JSON object.
#pragma once

#include "nettopo/query/allocation.hpp"

#include <ostream>

namespace nettopo {

void write_allocation_summary_text(const JobView& view, const AllocationSummary& s,
                                   std::ostream& out);
void write_allocation_summary_json(const JobView& view, const AllocationSummary& s,
                                   std::ostream& out);

} // namespace nettopo
