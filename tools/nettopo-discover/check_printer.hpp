// nettopo-discover --check: the validation report as text or JSON.
#pragma once

#include "nettopo/assemble/check_report.hpp"

#include <ostream>

namespace nettopo {

void write_check_text(const CheckReport& report, std::ostream& out);
void write_check_json(const CheckReport& report, std::ostream& out);

} // namespace nettopo
