// Rails (nettopo/fabric/rails.hpp) as nettopo-discover --check and
// nettopo-query summary print them: one JSON object (discover-check and
// summary schemas), or a "rails:" line and one line per problem.
#pragma once

#include "common/json_writer.hpp"
#include "nettopo/fabric/rails.hpp"

#include <ostream>

namespace nettopo {

// "rails": {"rails": [...], "leaves": N, ..., "problems": [...]}.
void write_rails_json(const Rails& rails, JsonWriter& w);
// "rails:         8, 1 leaves each; ..." then "  problem: ..." lines; nothing
// without rails.
void write_rails_text(const Rails& rails, std::ostream& out);

} // namespace nettopo
