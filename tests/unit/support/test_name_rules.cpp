// The rule of names (support/detail/name_rules.hpp): printable UTF-8 of at most
// max_name_bytes bytes; each forbidden class of bytes, the limit and the
// limit + 1. tests/tools/names_oracle.py checks the same rule against
// Python's UTF-8 decoder and xmllint on archives written at the edge.
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostfile.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;

TEST_CASE("names: the length limit", "[names]") {
    CHECK(max_name_bytes == 255);
    CHECK(name_problem(std::string(max_name_bytes, 'a')).empty());
    CHECK(name_problem(std::string(max_name_bytes + 1, 'a')) ==
          "is 256 bytes long, more than the 255 allowed");
    // Bytes, not characters: 127 two-byte characters and one byte fit, one more does not.
    std::string e_acute;
    for (int i = 0; i < 127; ++i) e_acute += "\xc3\xa9";
    CHECK(name_problem(e_acute + "a").empty());
    CHECK_FALSE(name_problem(e_acute + "\xc3\xa9").empty());
    CHECK(name_problem("").empty()); // whether a name may be empty is the caller's rule
}

TEST_CASE("names: printable UTF-8 is allowed", "[names]") {
    for (const std::string& name :
         {std::string("node01"), std::string("plafrim-ib01 HCA-1"), std::string("a \"b\" 'c'"),
          std::string("<&>;=#[]"), std::string("~"), std::string("\xc2\xa0"),  // U+00A0
          std::string("\xc3\xa9t\xc3\xa9"), std::string("\xed\x9f\xbf"),       // U+D7FF
          std::string("\xee\x80\x80"), std::string("\xef\xbf\xbd"),            // U+E000, U+FFFD
          std::string("\xf0\x9f\x96\xa5"), std::string("\xf4\x8f\xbf\xbf")}) { // U+1F5A5, U+10FFFF
        INFO(name);
        CHECK(name_problem(name).empty());
        CHECK_NOTHROW(check_name("machine name", name));
    }
}

TEST_CASE("names: each forbidden class is refused, saying which byte", "[names]") {
    struct Case {
        std::string name, problem;
    };
    const std::vector<Case> cases = {
        {std::string("a\0b", 3), "holds the control character U+0000 at byte 2"},
        {"a\x01", "holds the control character U+0001 at byte 2"},
        {"\tx", "holds the control character U+0009 at byte 1"},
        {"x\n", "holds the control character U+000A at byte 2"},
        {"x\r", "holds the control character U+000D at byte 2"},
        {"B\x1b[31m", "holds the control character U+001B at byte 2"},
        {"a\x1f", "holds the control character U+001F at byte 2"},
        {"a\x7f", "holds the control character U+007F at byte 2"},         // DEL
        {"a\xc2\x80", "holds the control character U+0080 at byte 2"},     // C1
        {"a\xc2\x9b", "holds the control character U+009B at byte 2"},     // C1 CSI
        {"a\xc2\x9f", "holds the control character U+009F at byte 2"},     // C1
        {"a\xef\xbf\xbe", "holds the control character U+FFFE at byte 2"}, // not XML
        {"a\xef\xbf\xbf", "holds the control character U+FFFF at byte 2"}, // not XML
        {"a\x80", "is not valid UTF-8 at byte 2"},                         // lone continuation
        {"a\xe9t\xe9", "is not valid UTF-8 at byte 2"},                    // Latin-1
        {"a\xc0\x80", "is not valid UTF-8 at byte 2"},                     // overlong NUL
        {"a\xe0\x80\xaf", "is not valid UTF-8 at byte 2"},                 // overlong '/'
        {"a\xed\xa0\x80", "is not valid UTF-8 at byte 2"},                 // surrogate
        {"a\xe2\x82", "is not valid UTF-8 at byte 2"},                     // cut short
        {"a\xf4\x90\x80\x80", "is not valid UTF-8 at byte 2"},             // > U+10FFFF
        {"a\xf8\x88\x80\x80\x80", "is not valid UTF-8 at byte 2"},         // 5 bytes
        {"a\xff", "is not valid UTF-8 at byte 2"},
    };
    for (const Case& c : cases) {
        INFO(shown_name(c.name));
        CHECK(name_problem(c.name) == c.problem);
        CHECK_THROWS_AS(check_name("switch name", c.name), InputError);
    }
    CHECK_THROWS_WITH(check_name("machine name", "B\x01\x1b[31m"),
                      "machine name 'B\\x01\\x1b[31m' holds the control character U+0001 at byte "
                      "2");
}

TEST_CASE("type descriptions: the characters of names, any length", "[names]") {
    // hwloc synthetic strings with indexes= (1582 bytes for a 384-PU export).
    const std::string long_text(2000, 'p');
    CHECK(text_problem(long_text).empty());
    CHECK_NOTHROW(check_text("machine type description", long_text));
    CHECK(text_problem("pu:1\x1b") == "holds the control character U+001B at byte 5");
    CHECK(text_problem("pu:1\xff") == "is not valid UTF-8 at byte 5");
    CHECK_THROWS_WITH(check_text("machine type description", long_text + "\x01"),
                      "machine type description '" + std::string(255, 'p') +
                          "...' holds the control character U+0001 at byte 2001");
}

TEST_CASE("names: shown in messages without control bytes", "[names]") {
    CHECK(shown_name("plain name") == "plain name");
    CHECK(shown_name(std::string("\0\0C", 3)) == "\\x00\\x00C");
    CHECK(shown_name("a\\b") == "a\\\\b");
    CHECK(shown_name("\xc3\xa9\xc2\x9b\xff") == "\xc3\xa9\\xc2\\x9b\\xff");
    CHECK(shown_name(std::string(300, 'a')) == std::string(255, 'a') + "...");
    CHECK(printable_text("line 1\n\tline 2 \x1b[31m \\ \xc3\xa9") ==
          "line 1\n\tline 2 \\x1b[31m \\ \xc3\xa9");
}

TEST_CASE("host files: a name against the rule is refused at its line", "[names]") {
    const auto read = [](const std::string& text) {
        std::istringstream in(text);
        return read_hostfile(in, "hosts.txt");
    };
    CHECK(read("n1\n" + std::string(255, 'n') + " slots=2\n").size() == 2);
    CHECK_THROWS_WITH(read("n1\n" + std::string(256, 'n') + "\n"),
                      Contains("hosts.txt:2: host name 'nnn") && Contains("is 256 bytes long"));
    CHECK_THROWS_WITH(read("n1\nn\x1b[2\n"), "hosts.txt:2: host name 'n\\x1b[2' holds the "
                                             "control character U+001B at byte 2");
}
