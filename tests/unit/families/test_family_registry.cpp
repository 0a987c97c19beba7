// The registry of families (family_registry.hpp), the one table behind
// family_from_spec, nettopo-gen's sub-commands and the shell completion:
//  - every entry is well formed (names, help, forms) and finds itself;
//  - every family made from the registry, through family_from_spec and
//    through its factory directly, gives a spec() that reads back to the
//    same spec and names only the registry's parameters, and the specs here
//    use every parameter of the registry;
//  - family_from_spec's messages for unknown, repeated, missing and mixed
//    options are those it gave before the registry drove it.
// That nettopo-gen offers exactly these families and options, and the
// completion completes them, is checked on the tool by tests/tools/gen_registry.sh.
#include "nettopo/families/detail/family_registry.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

using namespace nettopo;

namespace {

// The words of a spec() text: blank-separated, quotes dropped (spec() quotes
// only --xgft, whose value holds no blank).
std::vector<std::string> words_of(std::string_view spec) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : std::string(spec) + ' ') {
        if (c == ' ') {
            if (!word.empty()) words.push_back(word);
            word.clear();
        } else if (c != '"') {
            word += c;
        }
    }
    return words;
}

// The values of a spec() text, parsed by their kinds without family_from_spec.
FamilyValues values_of(const FamilyEntry& family, const std::vector<std::string>& words) {
    FamilyValues values(family);
    for (std::size_t i = 1; i + 1 < words.size(); i += 2) {
        const FamilyParam* p = family.param(words[i]);
        REQUIRE(p);
        switch (p->kind) {
        case ParamKind::Count:
            values.set(p->name, static_cast<std::uint32_t>(std::stoul(words[i + 1])));
            break;
        case ParamKind::Dims:
            values.set(p->name, parse_dims(words[i + 1]));
            break;
        case ParamKind::Xgft:
            values.set(p->name, parse_xgft(words[i + 1]));
            break;
        }
    }
    return values;
}

} // namespace

TEST_CASE("the registry names each family once, with its help and parameters", "[registry]") {
    std::vector<std::string_view> names;
    for (const FamilyEntry& f : family_registry()) {
        INFO(f.name);
        names.push_back(f.name);
        CHECK(find_family(f.name) == &f);
        CHECK(f.description.ends_with('.'));
        CHECK(f.description.find('\n') == std::string_view::npos);
        REQUIRE(!f.examples.empty());
        for (const std::string_view e : f.examples) CHECK(e.starts_with(std::string(f.name) + " "));
        REQUIRE(f.make != nullptr);
        std::set<std::string_view> params;
        for (const FamilyParam& p : f.params) {
            INFO(p.name);
            CHECK(p.name.starts_with("--"));
            CHECK(params.insert(p.name).second);
            CHECK(f.param(p.name) == &p);
            CHECK(!p.help.empty());
            CHECK(p.help.find('\n') == std::string_view::npos);
            // Only counts have a value of their own when left out.
            if (p.use != ParamUse::Required) CHECK(p.kind == ParamKind::Count);
            if (p.use == ParamUse::Derived) CHECK(p.fallback == 0);
            CHECK(p.alternative <= f.forms());
        }
        CHECK(f.param("--no-such") == nullptr);
        for (std::uint8_t form = 1; form <= f.forms(); ++form) CHECK(!f.form_params(form).empty());
    }
    CHECK(names == std::vector<std::string_view>{"fat-tree", "tree", "mesh", "torus", "hypercube",
                                                 "dragonfly", "butterfly", "slimfly", "complete",
                                                 "ring", "rail-optimized"});
    CHECK(family_names() == "fat-tree, tree, mesh, torus, hypercube, dragonfly, butterfly, "
                            "slimfly, complete, ring, rail-optimized");
    CHECK(find_family("fattree") == nullptr);
    CHECK(find_family("") == nullptr);

    const FamilyEntry& fat_tree = *find_family("fat-tree");
    CHECK(fat_tree.forms() == 2);
    CHECK(fat_tree.form_params(1) == "--k and --n");
    CHECK(fat_tree.form_params(2) == "--xgft");
    CHECK(find_family("torus")->forms() == 0);
    CHECK(find_family("torus")->form_params(0) == "--dims and --concentration");
}

TEST_CASE("every family made from the registry reads back from its spec", "[registry]") {
    // The registry's examples, and specs that give every parameter left out there.
    std::vector<std::string> specs;
    for (const FamilyEntry& f : family_registry())
        for (const std::string_view e : f.examples) specs.emplace_back(e);
    for (const char* more :
         {"fat-tree --xgft 2;4,4;1,4", "tree --levels 3 --concentration 2",
          "mesh --dims 3x4 --concentration 2", "torus --dims 4x3x2 --concentration 1",
          "hypercube --dim 3 --concentration 2", "dragonfly --p 2 --a 3 --h 2 --g 5",
          "dragonfly --p 2", "slimfly --q 5 --p 2", "complete --machines 4 --concentration 2",
          "ring --machines 5 --concentration 3"})
        specs.emplace_back(more);

    std::map<std::string_view, std::set<std::string>> used; // by family
    for (const std::string& spec : specs) {
        INFO(spec);
        const std::unique_ptr<Family> made = family_from_spec(spec);
        const std::string canonical = made->spec();
        INFO(canonical);
        const std::vector<std::string> words = words_of(canonical);
        const FamilyEntry* entry = find_family(words.at(0));
        REQUIRE(entry);
        CHECK(entry->name == words_of(spec).at(0));
        // spec() speaks the registry's language: NAME, then --PARAM VALUE pairs.
        CHECK(words.size() % 2 == 1);
        for (std::size_t i = 1; i < words.size(); i += 2) {
            CHECK(entry->param(words[i]) != nullptr);
            used[entry->name].insert(words[i]);
        }
        for (const std::string& w : words_of(spec))
            if (w.starts_with("--")) used[entry->name].insert(w);

        CHECK(family_from_spec(canonical)->spec() == canonical);
        // The factory, fed the values without family_from_spec, makes the same family.
        const std::unique_ptr<Family> direct = entry->make(values_of(*entry, words));
        CHECK(direct->spec() == canonical);
        CHECK(direct->num_machines() == made->num_machines());
        CHECK(direct->num_links() == made->num_links());
    }
    for (const FamilyEntry& f : family_registry())
        for (const FamilyParam& p : f.params) {
            INFO(f.name << " " << p.name << " is given by no spec here");
            CHECK(used[f.name].contains(std::string(p.name)));
        }
}

TEST_CASE("read_family_spec gives the parameters that make the same family", "[registry]") {
    for (const FamilyEntry& f : family_registry())
        for (const std::string_view e : f.examples) {
            const std::string canonical = family_from_spec(e)->spec();
            INFO(canonical);
            const FamilySpec read = read_family_spec(canonical);
            REQUIRE(read.family == &f);
            // Fed to the factory, the values make the family the spec names.
            FamilyValues values(f);
            for (const auto& [name, value] : read.params) values.set(name, value);
            CHECK(f.make(values)->spec() == canonical);
            // Every parameter the spec names is there, in the registry's order.
            const std::vector<std::string> words = words_of(canonical);
            for (std::size_t i = 1; i < words.size(); i += 2)
                CHECK(std::any_of(read.params.begin(), read.params.end(),
                                  [&](const auto& p) { return p.first == words[i]; }));
            for (std::size_t i = 1; i < read.params.size(); ++i)
                CHECK(f.param(read.params[i - 1].first) < f.param(read.params[i].first));
        }
    // A count left out reads as its fallback; another form's parameters are not listed.
    const FamilySpec torus = read_family_spec("torus --dims 4x3");
    REQUIRE(torus.params.size() == 2);
    CHECK(torus.params[0].first == "--dims");
    CHECK(std::get<std::vector<std::uint32_t>>(torus.params[0].second) ==
          std::vector<std::uint32_t>{4, 3});
    CHECK(torus.params[1].first == "--concentration");
    CHECK(std::get<std::uint32_t>(torus.params[1].second) == 0);
    const FamilySpec xgft = read_family_spec("fat-tree --xgft \"2;4,4;1,4\"");
    REQUIRE(xgft.params.size() == 1);
    CHECK(std::get<XgftParams>(xgft.params[0].second).w == std::vector<std::uint32_t>{1, 4});
    CHECK(read_family_spec("fat-tree --k 4 --n 2").params.size() == 2);
    CHECK_THROWS_AS(read_family_spec("torus --k 3"), UsageError);
}

TEST_CASE("family_from_spec says what is wrong as it did before the registry", "[registry]") {
    // Messages as the hand-written reader gave them.
    const std::vector<std::pair<const char*, const char*>> cases = {
        {"", "empty family: expected a family and its options"},
        {"   ", "empty family: expected a family and its options"},
        {"blob --x 1", "family 'blob --x 1': unknown family 'blob' (fat-tree, tree, mesh, torus, "
                       "hypercube, dragonfly, butterfly, slimfly, complete, ring, "
                       "rail-optimized)"},
        {"torus", "family 'torus': --dims is missing"},
        {"torus --dims", "family 'torus --dims': --dims lacks its value"},
        {"torus 4x4", "family 'torus 4x4': '4x4' is not an option"},
        {"torus --dims 4x4 --dims 2", "family 'torus --dims 4x4 --dims 2': --dims given twice"},
        {"torus --dims 4x4 --k 3", "family 'torus --dims 4x4 --k 3': torus has no option --k"},
        {"torus --dims 4x0", "--dims '4x0': a size of 0"},
        {"torus --concentration x", "family 'torus --concentration x': --dims is missing"},
        {"torus --concentration x --dims 4x0", "--dims '4x0': a size of 0"},
        {"ring --machines -3",
         "family 'ring --machines -3': --machines '-3' is not a whole number"},
        {"ring --machines=", "family 'ring --machines=': --machines '' is not a whole number"},
        {"ring --machines", "family 'ring --machines': --machines lacks its value"},
        {"mesh --dims=4x4 --concentration=x",
         "family 'mesh --dims=4x4 --concentration=x': --concentration 'x' is not a whole number"},
        {"tree --levels 3 --concentration 1 --levels 2",
         "family 'tree --levels 3 --concentration 1 --levels 2': --levels given twice"},
        {"fat-tree --k 4 --n 2 --xgft 1;2;1",
         "family 'fat-tree --k 4 --n 2 --xgft 1;2;1': --xgft excludes --k and --n"},
        {"fat-tree --xgft 1;2;1 --k 2", "family 'fat-tree --xgft 1;2;1 --k 2': --xgft excludes "
                                        "--k and --n"},
        {"fat-tree --k 4", "family 'fat-tree --k 4': --n is missing"},
        {"fat-tree --n 4", "family 'fat-tree --n 4': --k is missing"},
        {"butterfly --n 3", "family 'butterfly --n 3': --k is missing"},
        {"dragonfly", "family 'dragonfly': --p is missing"},
        {"fat-tree --xgft '2;4,4;1,4", "family 'fat-tree --xgft '2;4,4;1,4': unmatched '"},
        {"fat-tree --xgft 2;4,4;1", "--xgft '2;4,4;1': h = 2 levels, so give h child counts m "
                                    "and h parent counts w (got 2 and 1)"},
        {"complete --machines 0", "complete: --machines must be at least 1 (got 0)"},
        // With nothing given, the first missing parameter in the registry's
        // order (the hand-written reader's choice depended on the compiler's
        // order of evaluating arguments: it said --n).
        {"fat-tree", "family 'fat-tree': --k is missing"},
        {"butterfly", "family 'butterfly': --k is missing"},
    };
    for (const auto& [spec, message] : cases) {
        INFO("'" << spec << "'");
        CHECK_THROWS_AS(family_from_spec(spec), UsageError);
        CHECK_THROWS_WITH(family_from_spec(spec), message);
    }

    // Every family: an option it lacks, and each required option left out of an example.
    for (const FamilyEntry& f : family_registry()) {
        const std::string unknown = std::string(f.name) + " --no-such 1";
        CHECK_THROWS_WITH(family_from_spec(unknown), "family '" + unknown +
                                                         "': " + std::string(f.name) +
                                                         " has no option --no-such");
        for (const std::string_view example : f.examples) {
            const std::vector<std::string> words = words_of(example);
            for (std::size_t i = 1; i + 1 < words.size(); i += 2) {
                const FamilyParam& p = *f.param(words[i]);
                if (p.use != ParamUse::Required) continue;
                std::string spec(f.name);
                bool form_left = p.alternative == 0;
                for (std::size_t j = 1; j + 1 < words.size(); j += 2) {
                    if (j == i) continue;
                    spec += " " + words[j] + " " + words[j + 1];
                    form_left = form_left || f.param(words[j])->alternative == p.alternative;
                }
                if (!form_left) continue; // then it is another form that lacks its options
                INFO(spec);
                CHECK_THROWS_WITH(family_from_spec(spec),
                                  "family '" + spec + "': " + std::string(p.name) + " is missing");
            }
        }
    }
}

TEST_CASE("FamilyValues: fallbacks, and parameters a family lacks", "[registry]") {
    FamilyValues torus(*find_family("torus"));
    CHECK(!torus.given("--dims"));
    CHECK(torus.count("--concentration") == 0);
    CHECK_THROWS_WITH(torus.dims("--dims"), "torus: --dims is missing");
    CHECK_THROWS_AS(torus.count("--dims"), std::invalid_argument);   // not a count
    CHECK_THROWS_AS(torus.set("--dims", 4u), std::invalid_argument); // a count for sizes
    CHECK_THROWS_AS(torus.set("--k", 4u), std::invalid_argument);    // not torus'
    CHECK_THROWS_AS(torus.given("--levels"), std::invalid_argument); // not torus'
    torus.set("--dims", std::vector<std::uint32_t>{4, 4});
    torus.set("--concentration", 2u);
    CHECK(torus.given("--dims"));
    CHECK(find_family("torus")->make(torus)->spec() == "torus --dims 4x4 --concentration 2");

    FamilyValues dragonfly(*find_family("dragonfly"));
    CHECK_THROWS_WITH(dragonfly.count("--p"), "dragonfly: --p is missing");
    dragonfly.set("--p", 2u);
    CHECK(dragonfly.count("--a") == 0); // derived by make_dragonfly
    CHECK(find_family("dragonfly")->make(dragonfly)->spec() == "dragonfly --p 2 --a 4 --h 2 --g 9");
}
