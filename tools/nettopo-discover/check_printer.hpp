// nettopo-discover --check: the validation report as text or JSON.
#pragma once

#include "nettopo/assemble/detail/check_report.hpp"

#include <ostream>
#include <string>

namespace nettopo {

// An issue of the assembly in nettopo-discover's words: its summary with the
// flag of its remedy ("... left out (give --default-machine): a[1-3]").
std::string issue_text(const AssemblyIssue& issue);

void write_check_text(const CheckReport& report, std::ostream& out);
void write_check_json(const CheckReport& report, std::ostream& out);

} // namespace nettopo
