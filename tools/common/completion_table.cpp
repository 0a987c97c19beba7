// The tools' option tables for the generated shell completion (completion_table.hpp).
#include "common/completion_table.hpp"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstring>
#include <string_view>

namespace nettopo {

namespace {

constexpr const char* words_validator = "completion-words";
constexpr const char* alone_validator = "completion-alone";

// "{a,b,c}" (CLI11's description of an IsMember, and ours) as "a b c".
std::string words_of(std::string text) {
    if (text.size() < 2 || text.front() != '{' || text.back() != '}') return {};
    text = text.substr(1, text.size() - 2);
    for (char& c : text)
        if (c == ',') c = ' ';
    return text;
}

std::string kind_of(const CLI::Option& opt, std::string& words) {
    if (opt.get_items_expected_max() == 0) return "flag";
    const std::string type = opt.get_type_name();
    if (type == "FILE" || type == "DIR") return opt.get_expected_max() > 1 ? "files" : "file";
    // The option's validators: an IsMember's, or a completion_words hint.
    for (int i = 0;; ++i) {
        const CLI::Validator* v = nullptr;
        try {
            v = const_cast<CLI::Option&>(opt).get_validator(i);
        } catch (const CLI::OptionNotFound&) {
            break;
        }
        if (!v) break;
        words = words_of(v->get_description());
        if (!words.empty()) return "words";
    }
    return "value";
}

void write_options(const CLI::App& app, std::string_view sub, std::ostream& out) {
    for (const CLI::Option* opt : app.get_options()) {
        if (opt->get_group().empty()) continue; // hidden: not offered
        std::string words;
        const std::string kind = kind_of(*opt, words);
        if (opt->get_positional()) {
            if (opt->get_lnames().empty() && opt->get_snames().empty())
                out << "positional " << sub << ' ' << kind << '\n';
            continue;
        }
        std::string names;
        for (const std::string& s : opt->get_snames()) names += (names.empty() ? "-" : ",-") + s;
        for (const std::string& l : opt->get_lnames()) names += (names.empty() ? "--" : ",--") + l;
        if (names.empty()) continue;
        // Given once (a single value, or a flag): not offered again.
        const bool once = opt->get_items_expected_max() <= 1 && opt->get_expected_max() <= 1;
        bool alone = false;
        try {
            alone = const_cast<CLI::Option*>(opt)->get_validator(alone_validator) != nullptr;
        } catch (const CLI::OptionNotFound&) {
        }
        out << "option " << sub << ' ' << names << ' ' << kind << (once ? " once" : " many")
            << (alone ? "-alone" : "");
        if (!words.empty()) out << ' ' << words;
        out << '\n';
    }
}

} // namespace

CLI::Validator completion_words(const std::vector<std::string>& words) {
    std::string text = "{";
    for (const std::string& w : words) text += (text.size() > 1 ? "," : "") + w;
    text += '}';
    return CLI::Validator([](std::string&) { return std::string(); }, text, words_validator);
}

std::vector<std::string> list_words(std::string_view list) {
    std::vector<std::string> words;
    std::string word;
    const auto flush = [&] {
        const std::size_t dots = word.find("..");
        if (dots != std::string::npos && dots > 0 && dots + 2 < word.size()) {
            // "l1..l5": the prefix and the two digits.
            std::size_t digits = dots;
            while (digits > 0 && std::isdigit(static_cast<unsigned char>(word[digits - 1])))
                --digits;
            const std::string prefix = word.substr(0, digits);
            const int from = std::stoi(word.substr(digits, dots - digits));
            const int to = std::stoi(word.substr(dots + 2 + prefix.size()));
            for (int i = from; i <= to; ++i) words.push_back(prefix + std::to_string(i));
        } else if (!word.empty() && word != "or" && word != "and") {
            words.push_back(word);
        }
        word.clear();
    };
    for (const char c : list) {
        if (c == ',' || c == ' ')
            flush();
        else
            word += c;
    }
    flush();
    return words;
}

CLI::Validator completion_alone() {
    return CLI::Validator([](std::string&) { return std::string(); }, "", alone_validator);
}

bool completion_table_asked(int argc, char** argv) {
    return argc == 2 && std::strcmp(argv[1], "--completion-table") == 0;
}

void write_completion_table(const CLI::App& app, std::ostream& out) {
    write_options(app, "-", out);
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        out << "command " << sub->get_name() << '\n';
        write_options(*sub, sub->get_name(), out);
    }
}

} // namespace nettopo
