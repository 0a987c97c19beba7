// Shell-style patterns over whole texts: '*' any run of characters (none
// included), '?' any one character, everything else itself. What a site's
// accept file (`--check --accept`) matches problems with.
#pragma once

#include <string_view>

namespace nettopo {

// Whether `pattern` matches the whole of `text`. O(|pattern| x |text|) at
// worst, linear in practice; throws nothing.
bool glob_match(std::string_view pattern, std::string_view text) noexcept;

} // namespace nettopo
