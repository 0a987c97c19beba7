// The names an error suggests for an unknown one (support/nearest_names.hpp):
// the banded, early-stopping distance against the whole table computed the
// obvious way, and the choice of the nearest names.
#include "nettopo/support/detail/nearest_names.hpp"
#include "testkit/sanitizer_scale.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <fmt/format.h>
#include <random>
#include <string>
#include <vector>

using namespace nettopo;

namespace {

bool look_alike(char x, char y) {
    const auto fold = [](char c) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (c == '0') return 'o';
        if (c == '1' || c == 'i') return 'l';
        if (c == '2') return 'z';
        if (c == '5') return 's';
        if (c == '8') return 'b';
        return c;
    };
    return fold(x) == fold(y);
}

// The whole optimal string alignment table, in half edits: the slow twin.
std::size_t full_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = 2 * i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = 2 * j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t sub = a[i - 1] == b[j - 1]             ? 0
                                    : look_alike(a[i - 1], b[j - 1]) ? 1
                                                                     : 2;
            d[i][j] = std::min({d[i - 1][j] + 2, d[i][j - 1] + 2, d[i - 1][j - 1] + sub});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 2);
        }
    return d[a.size()][b.size()];
}

std::vector<std::string> nearest(const std::string& wanted, const std::vector<std::string>& names,
                                 std::size_t count = 3) {
    NearestNames n(wanted, count);
    for (const std::string& name : names) n.offer(name);
    return n.names();
}

} // namespace

TEST_CASE("name distance: edits cost 2, look-alikes and case 1", "[support][names]") {
    CHECK(name_distance("node013", "node013", 10) == 0);
    CHECK(name_distance("node0l3", "node013", 10) == 1); // l for 1
    CHECK(name_distance("node0l3", "node003", 10) == 2);
    CHECK(name_distance("Node013", "node013", 10) == 1);
    CHECK(name_distance("nod013", "node013", 10) == 2);  // a deletion
    CHECK(name_distance("ndoe013", "node013", 10) == 2); // a swap
    CHECK(name_distance("kitten", "sitting", 10) == 6);  // Levenshtein's 3
    CHECK(name_distance("", "abc", 10) == 6);
    // Past the bound: bound + 1, however far.
    CHECK(name_distance("kitten", "sitting", 5) == 6);
    CHECK(name_distance("kitten", "sitting", 3) == 4);
    CHECK(name_distance("a", "abcdefgh", 4) == 5);
    CHECK(name_distance("node013", "login", 0) == 1);
}

TEST_CASE("name distance: the band and its early stop agree with the whole table",
          "[support][names]") {
    std::mt19937_64 rng(25);
    const std::string alphabet = "ab01lOnde-";
    const auto random_name = [&](std::size_t most) {
        std::string s(rng() % (most + 1), ' ');
        for (char& c : s) c = alphabet[rng() % alphabet.size()];
        return s;
    };
    const int rounds = test::random_cases(20000);
    for (int round = 0; round < rounds; ++round) {
        const std::string a = random_name(9);
        std::string b = a;
        // Names near each other as often as far apart.
        if (round % 2 == 0)
            b = random_name(9);
        else
            for (int edits = static_cast<int>(rng() % 4); edits > 0; --edits) {
                const std::size_t at = b.empty() ? 0 : rng() % b.size();
                switch (rng() % 3) {
                case 0:
                    b.insert(at, 1, alphabet[rng() % alphabet.size()]);
                    break;
                case 1:
                    if (!b.empty()) b.erase(at, 1);
                    break;
                default:
                    if (at + 1 < b.size()) std::swap(b[at], b[at + 1]);
                }
            }
        const std::size_t whole = full_distance(a, b);
        const std::size_t bound = rng() % 12;
        INFO(a << " / " << b << " bound " << bound);
        CHECK(name_distance(a, b, bound) == std::min(whole, bound + 1));
        CHECK(name_distance(b, a, bound) == std::min(whole, bound + 1));
    }
    // Names longer than the stack rows.
    const std::string long_a(300, 'x'), long_b = std::string(299, 'x') + "y";
    CHECK(name_distance(long_a, long_b, 4) == 2);
}

TEST_CASE("nearest names: the equally nearest, at most three, in natural order",
          "[support][names]") {
    std::vector<std::string> nodes;
    for (int i = 1; i <= 128; ++i) nodes.push_back(fmt::format("node{:03}", i));
    CHECK(nearest("node0l3", nodes) == std::vector<std::string>{"node013"});
    CHECK(nearest("nod013", nodes) == std::vector<std::string>{"node013"});
    // Ties: the first three in natural order, whatever the order offered.
    CHECK(nearest("node13", nodes) == std::vector<std::string>{"node013", "node103", "node113"});
    std::vector<std::string> shuffled = nodes;
    std::mt19937_64 rng(7);
    for (int round = 0; round < 5; ++round) {
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        CHECK(nearest("node13", shuffled) == nearest("node13", nodes));
        CHECK(nearest("node13", shuffled, 2) == std::vector<std::string>{"node013", "node103"});
    }
    CHECK(nearest("node13", nodes, 0).empty());
    // Nothing within a typo: nothing suggested.
    CHECK(nearest("login", nodes).empty());
    // A one-letter name matches a case change or a look-alike only.
    CHECK(nearest("C", {"A", "B"}).empty());
    CHECK(nearest("b", {"A", "B"}) == std::vector<std::string>{"B"});
}

TEST_CASE("nearest names: a typo is a third of the name", "[support][names]") {
    CHECK(NearestNames::typo_bound("") == 0);
    CHECK(NearestNames::typo_bound("C") == 1);
    CHECK(NearestNames::typo_bound("ab") == 2);
    CHECK(NearestNames::typo_bound("node0l3") == 4);
    CHECK(NearestNames::typo_bound("a-rather-long-host-name") == 14);
    CHECK(or_list({}).empty());
    CHECK(or_list({"a"}) == "a");
    CHECK(or_list({"a", "b"}) == "a or b");
    CHECK(or_list({"a", "b", "c"}) == "a, b or c");
}
