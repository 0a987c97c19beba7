#include "nettopo-gen/gen_report.hpp"

#include "common/cluster_printer.hpp"
#include "common/json_writer.hpp"
#include "nettopo/families/detail/family_registry.hpp"

#include <variant>

namespace nettopo {

namespace {

// A parameter's value as JSON: a count, a list of sizes, or XGFT's m and w.
void param_json(JsonWriter& j, const ParamValue& v) {
    const auto list = [&](const std::vector<std::uint32_t>& xs) {
        j.begin_array();
        for (std::uint32_t x : xs) j.value(x);
        j.end_array();
    };
    if (const auto* n = std::get_if<std::uint32_t>(&v))
        j.value(*n);
    else if (const auto* dims = std::get_if<std::vector<std::uint32_t>>(&v))
        list(*dims);
    else {
        const XgftParams& x = std::get<XgftParams>(v);
        j.begin_object().key("m");
        list(x.m);
        j.key("w");
        list(x.w);
        j.end_object();
    }
}

} // namespace

void write_gen_report_json(const GenReport& r, std::ostream& out) {
    const std::string spec = r.family.spec();
    const FamilySpec read = read_family_spec(spec);
    JsonWriter j(out);
    j.begin_object().field("family", read.family->name);
    j.key("preset");
    r.preset.empty() ? j.null() : j.value(r.preset);
    j.field("spec", spec).key("parameters").begin_object();
    // Named as in the spec, without the dashes: "--dims" is "dims".
    for (const auto& [name, value] : read.params) {
        j.key(name.substr(name.find_first_not_of('-')));
        param_json(j, value);
    }
    j.end_object();
    j.field("name", r.cluster.name());
    // The type every machine is an instance of ("machine" names a machine elsewhere).
    j.field("machine_type", r.cluster.type(TypeId(0)).description());
    j.field("num_machines", r.cluster.num_machines())
        .field("num_switches", r.cluster.num_switches());
    j.field("num_links", r.cluster.num_net_links()).field("num_pes", r.cluster.num_pes());
    j.field("num_nodes", r.cluster.num_nodes());
    j.field("diameter_hops", r.family.diameter());
    j.field("verified", r.verified);
    j.field("output", r.output).field("format", r.description ? "description" : "archive");
    if (r.summary) {
        j.key("summary");
        write_summary_object(*r.summary, j);
    }
    j.end_object().line();
}

} // namespace nettopo
