// Aligned text tables and CSV fields, one writer shared by every tool.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace nettopo {

// Rows of cells, the first row the heading. Columns are padded to their
// widest cell (UTF-8 aware), two spaces apart; columns marked numeric are
// right-aligned; trailing spaces are trimmed.
void write_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                      const std::vector<bool>& numeric);

// A CSV field (RFC 4180), quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s);

} // namespace nettopo
