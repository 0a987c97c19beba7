// What a name may hold: machine, switch and cluster names, and (but for
// the length) the descriptions of machine types. One rule for every reader, so that nothing a
// reader accepts makes a writer emit a file its reader refuses (a NUL cut a
// name short in the archive; control characters are not XML 1.0) and no
// name sends terminal controls to a user's screen in a message.
//
// A name is UTF-8 text of at most max_name_bytes bytes, without control
// characters: no C0 (U+0000-U+001F, tab and newline included), no DEL
// (U+007F), no C1 (U+0080-U+009F), and none of the two code points XML 1.0
// excludes (U+FFFE, U+FFFF). Spaces, quotes, '<', '&' and any other printable
// character are allowed (the writers escape what their format requires).
// Whether a name may be empty or hold a space is the caller's rule.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nettopo {

// The longest name, in bytes: a file name's limit on Linux (NAME_MAX), above
// the 253 of a DNS name and the 64 of an InfiniBand node description.
inline constexpr std::size_t max_name_bytes = 255;

// Why `name` breaks the rule above ("is 256 bytes long, more than the 255
// allowed", "holds the control character U+001B at byte 3", "is not valid
// UTF-8 at byte 2"), empty when it does not. Bytes are counted from 1.
std::string name_problem(std::string_view name);

// Why `text` breaks the rule's characters (not its length), empty when it
// does not: the rule of machine type descriptions, which hwloc's synthetic
// strings with their indexes= make longer than any name.
std::string text_problem(std::string_view text);

// Throws InputError("<what> '<shown>' <problem>") when `name` breaks the
// rule, with no location (the reader adds its file and line); `what` is
// "machine name", "switch name", ...
void check_name(std::string_view what, std::string_view name);
// The same for text_problem.
void check_text(std::string_view what, std::string_view text);

// `name` as a message may quote it: bytes that are not printable UTF-8
// written as \xHH, a backslash as \\, at most max_name_bytes bytes of it
// shown (then "...").
std::string shown_name(std::string_view name);

// `text` (a message) safe to print on a terminal: control characters other
// than newline and tab, and bytes that are not UTF-8, written as \xHH; the
// rest unchanged.
std::string printable_text(std::string_view text);

} // namespace nettopo
