// The shell completion is generated from the tools' own option tables at
// build time (share/completion/generate.sh): each tool, asked
// `--completion-table` as its only argument, prints what its CLI11 app
// declares, and the generator turns that into bash. So an option added to a
// tool is completed without touching the completion.
//
// The table, one line each:
//   command SUB                       a subcommand
//   option SUB NAMES KIND HOW [WORD ...]
//                                     SUB is '-' for the tool itself; NAMES
//                                     as "-i,--input"; KIND: flag, value,
//                                     file, files (several paths), words;
//                                     HOW: once or many (repeatable), with
//                                     "-alone" when it stands in for a
//                                     subcommand (completion_alone)
//   positional SUB KIND               a subcommand's positional argument
// An option's value is a file when its type name is FILE or DIR, words when
// it has a CLI11::IsMember check or a completion_words hint (words ending in
// '=' are KEY=VALUE prefixes).
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Validator;
} // namespace CLI

namespace nettopo {

// The words a value completes to, as a validator that accepts everything
// (the tool checks the value itself): `->check(completion_words({...}))`.
// --help shows them after the type, as CLI11 shows an IsMember's.
CLI::Validator completion_words(const std::vector<std::string>& words);

// The words of a list as the library writes it for messages ("a, b or c",
// "l1..l5" for l1 to l5), for completion_words.
std::vector<std::string> list_words(std::string_view list);

// Marks an option that stands in for a subcommand (nettopo-gen's --preset
// for a family): not offered once a subcommand is given.
CLI::Validator completion_alone();

// Whether the tool was asked for its table (its only argument).
bool completion_table_asked(int argc, char** argv);
// Writes the table of `app` and its subcommands.
void write_completion_table(const CLI::App& app, std::ostream& out);

} // namespace nettopo
