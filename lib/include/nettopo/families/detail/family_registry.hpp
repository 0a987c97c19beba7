// The registry of network families: for each family its name, what it is,
// and its parameters, with the factory that makes it from their values. One
// table read by everything that names a family's options: family_from_spec
// (and so the archive's `family` attribute), nettopo-gen's sub-commands and
// their options, and the shell completion (through nettopo-gen).
//
// Parameter names are those of the spec language ("torus --dims 16x16
// --concentration 2"), which nettopo-gen's options follow.
#pragma once

#include "nettopo/families/family.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace nettopo {

// What text a parameter takes.
enum class ParamKind : std::uint8_t {
    Count, // a whole number, "4" (0 allowed: the factory judges it)
    Dims,  // sizes joined by 'x', "16x16" (parse_dims)
    Xgft,  // "h;m1,..,mh;w1,..,wh" (parse_xgft)
};

// Whether a parameter may be left out, and what it then means.
enum class ParamUse : std::uint8_t {
    Required, // must be given (when the family has alternatives: whenever its alternative is)
    Default,  // may be left out for `fallback`, a value of its own (help shows it)
    Derived,  // may be left out for `fallback` (0), which the factory derives from the
              // others as the help says ("default 2p")
};

struct FamilyParam {
    std::string_view name; // with its dashes, as a spec spells it: "--dims"
    ParamKind kind;
    ParamUse use;
    std::string_view help;      // one line
    std::uint32_t fallback = 0; // the value of a Default or Derived Count left out
    // 0 for a parameter every form of the family takes. A family made in
    // more than one way numbers its forms 1, 2, ... (fat-tree: --k and --n
    // in 1, --xgft in 2): parameters of two forms exclude each other, and
    // the Required ones of the form used must all be given.
    std::uint8_t alternative = 0;
};

// One parameter's value, parsed by its kind: the alternatives follow
// ParamKind's order (Count, Dims, Xgft).
using ParamValue = std::variant<std::uint32_t, std::vector<std::uint32_t>, XgftParams>;

struct FamilyEntry;

// The parameters given to one family, by name. Whoever reads the text (a spec,
// a command line) fills it and has judged presence (required, alternatives);
// the factory reads it. A parameter left out reads as its fallback.
class FamilyValues {
public:
    explicit FamilyValues(const FamilyEntry& family);

    // std::invalid_argument for a name the family lacks or a value of another kind.
    void set(std::string_view name, ParamValue value);

    // std::invalid_argument for a name the family lacks; UsageError
    // "<name> is missing" for a Required one not given (a Dims or Xgft one
    // has no fallback).
    bool given(std::string_view name) const;
    std::uint32_t count(std::string_view name) const;
    const std::vector<std::uint32_t>& dims(std::string_view name) const;
    const XgftParams& xgft(std::string_view name) const;

private:
    const ParamValue& value(std::string_view name, ParamKind kind) const;
    std::size_t index(std::string_view name) const;

    const FamilyEntry* family_;
    std::vector<std::optional<ParamValue>> values_; // by parameter, in the family's order
};

struct FamilyEntry {
    std::string_view name;                      // "torus"
    std::string_view description;               // one sentence: what it is and its size
    std::span<const std::string_view> examples; // specs, e.g. "torus --dims 8x8x8"
    std::span<const FamilyParam> params;        // in the order help lists them
    // Makes the family; UsageError from its factory (make_torus, ...).
    std::unique_ptr<Family> (*make)(const FamilyValues&);

    const FamilyParam* param(std::string_view param_name) const; // nullptr if it has none such
    // How many forms the family has (see FamilyParam::alternative): 0 for
    // most, 2 for fat-tree.
    std::uint8_t forms() const;
    // "--k and --n": the names of the parameters of form `form` (0: of those every form takes).
    std::string form_params(std::uint8_t form) const;
};

// Every family, in the order help lists them. The table is constant: safe
// from any thread.
std::span<const FamilyEntry> family_registry();

// The family named `name`, or nullptr.
const FamilyEntry* find_family(std::string_view name);

// "fat-tree, tree, mesh, ...": the registry's names, for messages.
std::string family_names();

// A spec's parameters by name, as a program reports what it generated: each
// parameter the spec gives and each Count it leaves out (at its fallback), in
// the family's order; a family made in several ways lists the parameters of
// the form used. The specs Family::spec() writes name every derived value.
// UsageError as family_from_spec.
struct FamilySpec {
    const FamilyEntry* family = nullptr;
    std::vector<std::pair<std::string_view, ParamValue>> params; // "--dims", {16, 16}
};
FamilySpec read_family_spec(std::string_view spec);

} // namespace nettopo
