// What the tools add to the library's messages: the flag of a remedy, the
// option a value came from. The library's messages name no flag; these put
// the tools' flags back exactly where users have always seen them.
#include "common/tool_support.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>

using namespace nettopo;

TEST_CASE("remedies become the tools' flags", "[tools]") {
    CHECK(remedy_hint(Remedy::none).empty());
    CHECK(remedy_hint(Remedy::allow_disconnected) ==
          "use --allow-disconnected if this is intended");
    CHECK(remedy_hint(Remedy::default_machine) == "give --default-machine");
    CHECK(remedy_hint(Remedy::hosts_or_default_machine) == "give --hosts, or --default-machine");
    const InputError located("t.topo", 0, InputError("not connected", Remedy::allow_disconnected));
    CHECK(error_message(located) ==
          "t.topo: not connected (use --allow-disconnected if this is intended)");
    CHECK(error_message(UsageError("plain")) == "plain");
    CHECK(error_message(std::runtime_error("not ours")) == "not ours");
    // Finding D2: bytes of the input quoted in a message reach no terminal as controls.
    CHECK(error_message(InputError("t.topo", 2, "unknown statement 'B\x01\x1b[31m'")) ==
          "t.topo:2: unknown statement 'B\\x01\\x1b[31m'");
    CHECK(error_message(UsageError("a\xc2\x9b\xff\n\tb")) == "a\\xc2\\x9b\\xff\n\tb");
}

TEST_CASE("a file another option reads: that option with the file", "[tools]") {
    CHECK(remedy_hint(Remedy::read_as_ibnetdiscover, "ib.txt") ==
          "give it to nettopo-discover --ibnetdiscover ib.txt, with --hosts or --default-machine");
    CHECK(remedy_hint(Remedy::read_as_slurm, "etc/slurm/topology.conf") ==
          "give it to nettopo-discover --slurm etc/slurm/topology.conf, with --hosts or "
          "--default-machine");
    CHECK(remedy_hint(Remedy::read_as_host_export, "node003.diff.xml") ==
          "give it to nettopo-discover --hosts node003.diff.xml, with a fabric or --hosts-only");
    // Standard input names no file; a name a shell would split is quoted.
    CHECK(remedy_hint(Remedy::read_as_slurm, "<stdin>") ==
          "give it to nettopo-discover --slurm FILE, with --hosts or --default-machine");
    CHECK(remedy_hint(Remedy::read_as_slurm) ==
          "give it to nettopo-discover --slurm FILE, with --hosts or --default-machine");
    CHECK(remedy_hint(Remedy::read_as_ibnetdiscover, "my dump's.txt") ==
          "give it to nettopo-discover --ibnetdiscover 'my dump'\\''s.txt', with --hosts or "
          "--default-machine");
    const InputError e("ib.txt", 12, "this is an ibnetdiscover dump, not a cluster topology",
                       Remedy::read_as_ibnetdiscover);
    CHECK(error_message(e) ==
          "ib.txt:12: this is an ibnetdiscover dump, not a cluster topology (give it to "
          "nettopo-discover --ibnetdiscover ib.txt, with --hosts or --default-machine)");
    // The file name reaches no terminal as a control, in the hint either.
    const InputError odd("a\x1b.txt", 0, "this is a Slurm topology.conf, not a cluster topology",
                         Remedy::read_as_slurm);
    CHECK(error_message(odd) ==
          "a\\x1b.txt: this is a Slurm topology.conf, not a cluster topology (give it to "
          "nettopo-discover --slurm 'a\\x1b.txt', with --hosts or --default-machine)");
}

TEST_CASE("a value's error names the option it came from", "[tools]") {
    LinkClasses links;
    CHECK_THROWS_WITH(set_link_class(links, LinkField::Latency, "uplink=5"),
                      "'uplink=5': unknown link kind 'uplink' (host-switch, switch-switch, "
                      "local, global or all)");
    CHECK_THROWS_WITH(
        read_named("--latency", [&] { set_link_class(links, LinkField::Latency, "uplink=5"); }),
        "--latency 'uplink=5': unknown link kind 'uplink' (host-switch, "
        "switch-switch, local, global or all)");
    CHECK_THROWS_WITH(read_named("--latency", [] { throw ValueError("uplink=5", "unknown"); }),
                      "--latency 'uplink=5': unknown");
    CHECK_THROWS_WITH(read_named("--strategy",
                                 [] {
                                     throw ValueError("", "empty name");
                                     return 0;
                                 }),
                      "--strategy: empty name");
    // Errors that are not about the value's text pass unchanged.
    CHECK_THROWS_WITH(read_named("--strategy", [] { throw UsageError("unknown strategy 'x'"); }),
                      "unknown strategy 'x'");
    CHECK(read_named("--machine", [] { return 7; }) == 7);
}
