#include "tree/io_signature.hpp"

#include "nettopo/support/error.hpp"

#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <vector>

namespace nettopo::detail {

namespace {

bool needs_escape(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f || c == '%' || c == '/' || c == ';' || c == ',' || c == '|' ||
           c == ':';
}

void escape(std::string& out, std::string_view s) {
    for (char c : s)
        if (needs_escape(c))
            out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
            out += c;
}

[[noreturn]] void bad(std::string_view what) {
    throw InputError(fmt::format("not a machine tree signature: a bad I/O entry ({})", what));
}

std::string unescape(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        unsigned v = 0;
        if (i + 2 >= s.size() + 0 ||
            std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16).ptr != s.data() + i + 3)
            bad("escape");
        out += static_cast<char>(v);
        i += 2;
    }
    return out;
}

// Splits `s` at `sep` (no empty-string special case: "" gives one field).
std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> v;
    for (;;) {
        const std::size_t at = s.find(sep);
        v.push_back(s.substr(0, at));
        if (at == std::string_view::npos) return v;
        s.remove_prefix(at + 1);
    }
}

std::uint64_t number(std::string_view s, std::uint64_t max) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v > max) bad("number");
    return v;
}

} // namespace

std::string io_signature(std::span<const PciObject> pci, std::span<const IoDevice> devices,
                         std::span<const Interconnect> interconnects) {
    std::string s;
    for (const PciObject& p : pci)
        s +=
            fmt::format("p{}/{}/{}/{}/{}/{}/{}/{}/{};", static_cast<int>(p.kind), p.parent,
                        p.locality.value, p.domain, p.bus, p.dev, p.func, p.vendor_id, p.device_id);
    for (const IoDevice& d : devices) {
        s += fmt::format("d{}/{}/{}/", static_cast<int>(d.kind), d.pci, d.locality.value);
        escape(s, d.name);
        s += '/';
        for (std::size_t i = 0; i < d.names.size(); ++i) {
            if (i) s += ',';
            escape(s, d.names[i]);
        }
        for (const std::string* t : {&d.vendor, &d.model, &d.subtype}) {
            s += '/';
            escape(s, *t);
        }
        s += ';';
    }
    // "mKIND/LINK_MBPS/K.I,K.I,.../V,V,...;": kind, endpoints, values.
    for (const Interconnect& m : interconnects) {
        s += fmt::format("m{}/{}/", static_cast<int>(m.kind), m.link_mbps);
        for (std::size_t i = 0; i < m.endpoints.size(); ++i)
            s += fmt::format("{}{}.{}", i ? "," : "", static_cast<int>(m.endpoints[i].kind),
                             m.endpoints[i].index);
        s += fmt::format("/{};", fmt::join(m.values, ","));
    }
    return s;
}

void read_io_signature(std::string_view payload, MachineTree::Builder& builder) {
    for (std::string_view entry : split(payload, ';')) {
        if (entry.empty()) continue;
        const char tag = entry.front();
        const auto f = split(entry.substr(1), '/');
        if (tag == 'p') {
            if (f.size() != 9) bad("PCI object fields");
            const auto kind = number(f[0], 2);
            builder.add_pci({static_cast<PciKind>(kind),
                             static_cast<std::uint32_t>(number(f[1], no_pci)),
                             ObjectId(static_cast<std::uint32_t>(number(f[2], 0xffffffffu))),
                             static_cast<std::uint32_t>(number(f[3], 0xffffffffu)),
                             static_cast<std::uint8_t>(number(f[4], 0xff)),
                             static_cast<std::uint8_t>(number(f[5], 0xff)),
                             static_cast<std::uint8_t>(number(f[6], 0xff)),
                             static_cast<std::uint16_t>(number(f[7], 0xffff)),
                             static_cast<std::uint16_t>(number(f[8], 0xffff))});
        } else if (tag == 'd') {
            if (f.size() != 8) bad("device fields");
            IoDevice d{static_cast<DeviceKind>(number(f[0], 3)),
                       unescape(f[3]),
                       {},
                       static_cast<std::uint32_t>(number(f[1], no_pci)),
                       ObjectId(static_cast<std::uint32_t>(number(f[2], 0xffffffffu))),
                       unescape(f[5]),
                       unescape(f[6]),
                       unescape(f[7])};
            if (!f[4].empty())
                for (std::string_view n : split(f[4], ',')) d.names.push_back(unescape(n));
            builder.add_device(std::move(d));
        } else if (tag == 'm') {
            if (f.size() != 4 || f[2].empty() || f[3].empty()) bad("matrix fields");
            Interconnect m{static_cast<InterconnectKind>(number(f[0], 3)),
                           {},
                           {},
                           number(f[1], ~std::uint64_t{0})};
            for (std::string_view e : split(f[2], ',')) {
                const std::size_t dot = e.find('.');
                if (dot == std::string_view::npos) bad("matrix endpoint");
                m.endpoints.push_back(
                    {static_cast<EndpointKind>(number(e.substr(0, dot), 2)),
                     static_cast<std::uint32_t>(number(e.substr(dot + 1), 0xffffffffu))});
            }
            for (std::string_view v : split(f[3], ','))
                m.values.push_back(number(v, ~std::uint64_t{0}));
            builder.add_interconnect(std::move(m));
        } else {
            bad("tag");
        }
    }
}

} // namespace nettopo::detail
