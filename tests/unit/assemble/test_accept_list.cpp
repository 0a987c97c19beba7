// A site's accept file (`--check --accept`): the patterns, what they match,
// and what a check keeps as problems (issue 27 part 3). The brute-force
// matcher below is the oracle of glob_match on random patterns.
#include "nettopo/assemble/detail/accept_list.hpp"
#include "nettopo/support/detail/glob.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <sstream>

using namespace nettopo;

namespace {

// Every way of matching, tried: exponential, fine for short texts.
bool brute_match(std::string_view p, std::string_view t) {
    if (p.empty()) return t.empty();
    if (p.front() == '*')
        for (std::size_t k = 0; k <= t.size(); ++k)
            if (brute_match(p.substr(1), t.substr(k))) return true;
    if (p.front() == '*') return false;
    if (t.empty()) return false;
    return (p.front() == '?' || p.front() == t.front()) && brute_match(p.substr(1), t.substr(1));
}

AcceptList list_of(const std::string& text) {
    std::istringstream in(text);
    return read_accept_list(in, "accept.txt");
}

} // namespace

TEST_CASE("accept list: glob_match against a brute-force matcher", "[accept]") {
    CHECK(glob_match("ion2102 *", "ion2102 HCA-3 (rail 2)"));
    CHECK(glob_match("oss0?: host*", "oss04: host in the fabric"));
    CHECK_FALSE(glob_match("oss0?: host*", "oss10: host in the fabric"));
    CHECK(glob_match("*", ""));
    CHECK(glob_match("*", "*x"));
    CHECK(glob_match("*a", "*ba"));
    CHECK_FALSE(glob_match("a", ""));
    std::mt19937_64 rng(5);
    // Texts hold '*' and '?' too: problems quote names and patterns.
    const std::string pattern_chars = "ab*?", text_chars = "ab*?";
    for (int i = 0; i < 20000; ++i) {
        std::string p, t;
        for (int k = int(rng() % 7); k > 0; --k) p += pattern_chars[rng() % pattern_chars.size()];
        for (int k = int(rng() % 9); k > 0; --k) t += text_chars[rng() % text_chars.size()];
        INFO(p << " / " << t);
        REQUIRE(glob_match(p, t) == brute_match(p, t));
    }
}

TEST_CASE("accept list: the file", "[accept]") {
    const AcceptList l = list_of("# comment\n\n  mds01: *  # a comment\nion2102 *\r\n\t\n");
    REQUIRE(l.patterns.size() == 2);
    CHECK(l.patterns[0].pattern == "mds01: *");
    CHECK(l.patterns[0].line == 3);
    CHECK(l.patterns[1].pattern == "ion2102 *");
    CHECK(l.patterns[1].line == 4);
    try {
        list_of("a\nb\x01\n");
        FAIL("accepted a control character");
    } catch (const InputError& e) {
        CHECK(e.file() == "accept.txt");
        CHECK(e.line() == 2);
    }
}

TEST_CASE("accept list: what a check keeps", "[accept]") {
    CheckReport r;
    r.issues.push_back(
        {"host", "in the fabric without an hwloc export, left out", {"mds01", "oss01", "oss02"}});
    r.issues.push_back({"hwloc export", "of hosts not in the fabric, left out", {"riri"}});
    // Assigned whole: g++ 12 warns falsely (array-bounds) on a push_back of a literal here.
    r.problems = std::vector<std::string>(1, std::string("the network has 2 connected components"));
    RailProblem p;
    p.text = "ion2102 HCA-3 (rail 2) is cabled to leaf L, which serves rail 4";
    r.rails.problems.push_back(p);
    REQUIRE(r.num_problems() == 4);
    accept_problems(r, list_of("oss0?: host *\nriri: *\nion2102 *\nnobody *\n"));
    // mds01 is left, alone in its issue; the export issue is gone.
    REQUIRE(r.issues.size() == 1);
    CHECK(r.issues[0].names == std::vector<std::string>{"mds01"});
    CHECK(r.rails.problems.empty());
    CHECK(r.num_problems() == 2);
    CHECK(r.accepted.size() == 4);
    CHECK(r.accepted[0] ==
          "oss01: host in the fabric without an hwloc export, left out (accept.txt line 1)");
    CHECK(r.unused_accepts == std::vector<std::string>{"accept.txt line 4: nobody *"});
}
