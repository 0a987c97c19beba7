// NCCL's topology file (formats/nccl_topology.hpp), read back by a reader
// of this test that follows NCCL's own parser (github NVIDIA/nccl,
// src/graph/xml.cc: xmlGetNode, xmlGetToken, xmlGetValue; no declaration,
// elements separated by blanks and newlines only, one blank before each
// attribute, quoted values without entities, at most 253 bytes; no comment,
// which NCCL would skip but nettopo does not write): a made-up
// machine whose PCI chains have every depth from 1 to 4 (NCCL's parents two
// levels up), a hierarchy below a Machine of two NUMA nodes (numaid -1), the
// refusals, the parser's limits, and the real H100 server's devices: each
// GPU and adapter at its bus id, under its NUMA node's cpu element. Every GPU
// export of ../shared/data is held to a reading of its hwloc XML in
// tests/tools/nccl_oracle.py.
#include "nettopo/formats/load.hpp"
#include "nettopo/formats/nccl_topology.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

// An element as NCCL's parser keeps it.
struct Element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attrs;
    std::vector<std::unique_ptr<Element>> children;
    const Element* parent = nullptr;
    const std::string* attr(const std::string& key) const {
        for (const auto& [k, v] : attrs)
            if (k == key) return &v;
        return nullptr;
    }
};

// NCCL's reading, strictly: anything its parser would not read the same
// way throws std::runtime_error.
class NcclReader {
public:
    explicit NcclReader(std::string text) : s_(std::move(text)) {}

    std::unique_ptr<Element> read() {
        auto root = element(nullptr);
        if (!root || root->name != "system") throw std::runtime_error("no <system> element");
        skip();
        if (i_ != s_.size()) throw std::runtime_error("text after </system>");
        return root;
    }

private:
    void skip() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    char next() {
        if (i_ == s_.size()) throw std::runtime_error("unexpected end");
        return s_[i_++];
    }
    // xmlGetToken: up to ' ', '>', '/', '\n', '\r' or '='.
    std::string token(char& last) {
        std::string t;
        for (;;) {
            const char c = next();
            if (c == ' ' || c == '>' || c == '/' || c == '\n' || c == '\r' || c == '=') {
                last = c;
                return t;
            }
            t += c;
        }
    }
    std::unique_ptr<Element> element(const Element* parent) {
        skip();
        if (next() != '<') throw std::runtime_error("expected '<'");
        char c = 0;
        auto e = std::make_unique<Element>();
        e->name = token(c);
        e->parent = parent;
        if (e->name.empty() || e->name[0] == '?' || e->name[0] == '!')
            throw std::runtime_error("a declaration or comment: " + e->name);
        while (c == ' ') {
            std::string key = token(c);
            if (c != '=') throw std::runtime_error("attribute '" + key + "' without '='");
            if (next() != '"') throw std::runtime_error("unquoted value of " + key);
            std::string value;
            for (char v = next(); v != '"'; v = next()) value += v;
            if (value.size() > 253) throw std::runtime_error("value of " + key + " too long");
            if (value.find_first_of("<>&") != std::string::npos)
                throw std::runtime_error("markup in the value of " + key);
            e->attrs.emplace_back(std::move(key), std::move(value));
            c = next();
        }
        if (e->attrs.size() > 16) throw std::runtime_error("more than 16 attributes");
        if (c == '/') {
            if (next() != '>') throw std::runtime_error("expected '/>'");
            return e;
        }
        if (c != '>') throw std::runtime_error(std::string("expected '>', got '") + c + "'");
        for (;;) {
            skip();
            if (s_.compare(i_, 2, "</") == 0) {
                i_ += 2;
                char last = 0;
                const std::string closing = token(last);
                if (closing != e->name || last != '>')
                    throw std::runtime_error("mismatched </" + closing + ">");
                return e;
            }
            e->children.push_back(element(e.get()));
        }
    }
    std::string s_;
    std::size_t i_ = 0;
};

void index_pci(const Element& e, std::map<std::string, const Element*>& by_bus) {
    for (const auto& c : e.children) {
        if (c->name == "pci") by_bus[*c->attr("busid")] = c.get();
        index_pci(*c, by_bus);
    }
}

std::size_t count_elements(const Element& e) {
    std::size_t n = 1;
    for (const auto& c : e.children) n += count_elements(*c);
    return n;
}

// Two NUMA nodes under two packages (PUs P#0-1, P#32-33: two words of
// affinity), and PCI chains of every depth (see the expected text).
MachineTree made_up(bool os_indexes = true) {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    std::vector<ObjectId> pack;
    for (std::uint32_t p = 0; p < 2; ++p) {
        pack.push_back(b.add(ObjectType::Package, root, p));
        b.add_memory(ObjectType::NUMANode, pack[p], p, 1 << 30);
        for (std::uint32_t c = 0; c < 2; ++c)
            b.add(ObjectType::PU, b.add(ObjectType::Core, pack[p], c),
                  os_indexes ? 32 * p + c : unknown_os_index);
    }
    const auto pci = [&](PciKind k, std::uint32_t parent, ObjectId loc, std::uint8_t bus,
                         std::uint8_t dev, std::uint16_t vendor) {
        return b.add_pci({k, parent, loc, 0, bus, dev, 0, vendor, 0x1234});
    };
    using K = PciKind;
    const std::uint32_t hb0 = pci(K::HostBridge, no_pci, pack[0], 0, 0, 0);
    const std::uint32_t rp1 = pci(K::Bridge, hb0, pack[0], 0, 1, 0x8086);
    const std::uint32_t up = pci(K::Bridge, rp1, pack[0], 1, 0, 0x1000);
    const std::uint32_t dn1 = pci(K::Bridge, up, pack[0], 2, 0, 0x1000);
    const std::uint32_t dn2 = pci(K::Bridge, up, pack[0], 2, 1, 0x1000);
    const std::uint32_t gpu0 = pci(K::Device, dn1, pack[0], 3, 0, 0x10de); // depth 4
    const std::uint32_t nic0 = pci(K::Device, dn2, pack[0], 4, 0, 0x15b3); // depth 4
    const std::uint32_t rp2 = pci(K::Bridge, hb0, pack[0], 0, 2, 0x8086);
    const std::uint32_t gpu1 = pci(K::Device, rp2, pack[0], 5, 0, 0x10de);    // depth 2
    const std::uint32_t nic1 = pci(K::Device, hb0, pack[0], 0, 0x1f, 0x8086); // depth 1
    const std::uint32_t rp3 = pci(K::Bridge, hb0, pack[0], 0, 3, 0x8086);
    const std::uint32_t br = pci(K::Bridge, rp3, pack[0], 6, 0, 0x104c);
    const std::uint32_t gpu2 = pci(K::Device, br, pack[0], 7, 0, 0x10de);  // depth 3
    const std::uint32_t disk = pci(K::Device, rp3, pack[0], 8, 0, 0x144d); // no GPU, no NIC
    const std::uint32_t hb1 = pci(K::HostBridge, no_pci, root, 0x80, 0, 0);
    const std::uint32_t rp4 = pci(K::Bridge, hb1, root, 0x80, 1, 0x8086);
    const std::uint32_t gpu3 = pci(K::Device, rp4, root, 0x81, 0, 0x10de);
    b.add_device({DeviceKind::Gpu, "gpu0", {"cuda0"}, gpu0, pack[0], "", "", ""});
    b.add_device({DeviceKind::Gpu, "gpu1", {"cuda1"}, gpu1, pack[0], "", "", ""});
    b.add_device({DeviceKind::Gpu, "gpu2", {"cuda2"}, gpu2, pack[0], "", "", ""});
    b.add_device({DeviceKind::Gpu, "gpu3", {"cuda3"}, gpu3, root, "", "", ""});
    b.add_device({DeviceKind::Nic, "mlx5_0", {"mlx5_0"}, nic0, pack[0], "", "", ""});
    b.add_device({DeviceKind::Nic, "eno1", {"eno1"}, nic1, pack[0], "", "", ""});
    b.add_device({DeviceKind::Storage, "nvme0n1", {"nvme0n1"}, disk, pack[0], "", "", ""});
    return std::move(b).finish();
}

} // namespace

TEST_CASE("nccl: each function hangs two PCI levels up, as NCCL builds it from sysfs", "[nccl]") {
    const std::string text = nccl_topology(made_up(), "host1");
    CHECK(
        text ==
        "<system version=\"1\" name=\"host1\">\n"
        "  <cpu numaid=\"0\" affinity=\"00000000,00000003\">\n"
        "    <pci busid=\"0000:00:03.0\" class=\"0x060400\" vendor=\"0x8086\" device=\"0x1234\">\n"
        "      <pci busid=\"0000:07:00.0\" class=\"0x03\" vendor=\"0x10de\" device=\"0x1234\"/>\n"
        "    </pci>\n"
        "    <pci busid=\"0000:00:1f.0\" class=\"0x02\" vendor=\"0x8086\" device=\"0x1234\"/>\n"
        "    <pci busid=\"0000:01:00.0\" class=\"0x060400\" vendor=\"0x1000\" device=\"0x1234\">\n"
        "      <pci busid=\"0000:03:00.0\" class=\"0x03\" vendor=\"0x10de\" device=\"0x1234\"/>\n"
        "      <pci busid=\"0000:04:00.0\" class=\"0x02\" vendor=\"0x15b3\" device=\"0x1234\"/>\n"
        "    </pci>\n"
        "    <pci busid=\"0000:05:00.0\" class=\"0x03\" vendor=\"0x10de\" device=\"0x1234\"/>\n"
        "  </cpu>\n"
        "  <cpu numaid=\"-1\" affinity=\"00000003,00000003\">\n"
        "    <pci busid=\"0000:81:00.0\" class=\"0x03\" vendor=\"0x10de\" device=\"0x1234\"/>\n"
        "  </cpu>\n"
        "</system>\n");
    const auto root = NcclReader(text).read();
    CHECK(count_elements(*root) == 11);
}

TEST_CASE("nccl: what nettopo does not know is left out", "[nccl]") {
    // PUs without OS indexes: no affinity; a name NCCL's parser would
    // misread: no name.
    const std::string text = nccl_topology(made_up(false), "a\"b");
    CHECK_THAT(text, Contains("<system version=\"1\">\n  <cpu numaid=\"0\">\n"));
    CHECK(text.find("affinity") == std::string::npos);
    CHECK_NOTHROW(NcclReader(text).read());
    CHECK_THAT(nccl_topology(made_up(), ""), Contains("<system version=\"1\">\n"));
}

TEST_CASE("nccl: refusals", "[nccl]") {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    b.add(ObjectType::PU, root, 0);
    SECTION("no GPU") {
        const std::uint32_t hb = b.add_pci({PciKind::HostBridge, no_pci, root});
        const std::uint32_t f = b.add_pci({PciKind::Device, hb, root, 0, 1, 0, 0, 0x15b3, 1});
        b.add_device({DeviceKind::Nic, "mlx5_0", {}, f, root, "", "", ""});
        const MachineTree t = std::move(b).finish();
        CHECK_THROWS_WITH(nccl_topology(t, "x"), Contains("no GPU with a PCI address"));
    }
    SECTION("an adapter without PCI address") {
        b.add_device({DeviceKind::Nic, "eth0", {}, no_pci, root, "", "", ""});
        const MachineTree t = std::move(b).finish();
        CHECK_THROWS_WITH(nccl_topology(t, "x"), Contains("eth0 has no PCI address"));
    }
    SECTION("a GPU without PCI address") {
        b.add_device({DeviceKind::Gpu, "gpu0", {"cuda0"}, no_pci, root, "", "", ""});
        const MachineTree t = std::move(b).finish();
        CHECK_THROWS_AS(nccl_topology(t, "x"), InputError);
        CHECK_THROWS_WITH(nccl_topology(t, "x"),
                          Contains("gpu0 has no PCI address") && Contains("PCI discovery"));
    }
    SECTION("no device at all") {
        const MachineTree t = std::move(b).finish();
        CHECK_THROWS_WITH(nccl_topology(t, "x"), Contains("no GPU with a PCI address"));
    }
}

TEST_CASE("nccl: NCCL's parser limits are refused, not written", "[nccl]") {
    const auto gpus_on_root_ports = [](std::uint32_t n) {
        MachineTree::Builder b;
        const ObjectId root = b.add(ObjectType::Machine, ObjectId());
        b.add(ObjectType::PU, root, 0);
        const std::uint32_t hb = b.add_pci({PciKind::HostBridge, no_pci, root});
        for (std::uint32_t i = 0; i < n; ++i) {
            const auto bus = std::uint8_t(1 + (i >> 5)), dev = std::uint8_t(i & 31);
            const std::uint32_t port = b.add_pci({PciKind::Bridge, hb, root, 0, 0, dev, 0, 1, 1});
            const std::uint32_t f =
                b.add_pci({PciKind::Device, port, root, std::uint32_t(i >> 13), bus, dev, 0, 2, 3});
            b.add_device({DeviceKind::Gpu, fmt::format("gpu{}", i), {}, f, root, "", "", ""});
        }
        return std::move(b).finish();
    };
    // system > cpu > n functions (their root ports are left out): n + 2
    // elements; NCCL reads 256 (NCCL_TOPO_XML_MAX_NODES).
    CHECK_NOTHROW(NcclReader(nccl_topology(gpus_on_root_ports(254), "x")).read());
    CHECK_THROWS_WITH(nccl_topology(gpus_on_root_ports(255), "x"),
                      Contains("257 elements, more than the 256"));
    // An affinity of 28 words (251 bytes) is read, one of 29 (260) is not.
    const auto pu_numbered = [](std::uint32_t os) {
        MachineTree::Builder b;
        const ObjectId root = b.add(ObjectType::Machine, ObjectId());
        b.add_memory(ObjectType::NUMANode, root, 0, 1 << 30);
        b.add(ObjectType::PU, root, os);
        const std::uint32_t hb = b.add_pci({PciKind::HostBridge, no_pci, root});
        const std::uint32_t f = b.add_pci({PciKind::Device, hb, root, 0, 1, 0, 0, 0x10de, 1});
        b.add_device({DeviceKind::Gpu, "gpu0", {}, f, root, "", "", ""});
        return std::move(b).finish();
    };
    CHECK_NOTHROW(NcclReader(nccl_topology(pu_numbered(895), "x")).read());
    CHECK_THROWS_WITH(nccl_topology(pu_numbered(896), "x"),
                      Contains("take 260 bytes, more than the 253"));
}

TEST_CASE("nccl: the real H100 server's GPUs and adapters, at their bus ids and NUMA nodes",
          "[nccl][real]") {
    const Cluster c =
        load_cluster(std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/ipa20-snc4-4xH100.xml");
    const MachineTree& tree = c.type(TypeId(0)).tree();
    const auto root = NcclReader(nccl_topology(tree, c.machine_name(MachineId(0)))).read();
    CHECK(*root->attr("version") == "1");
    std::map<std::string, const Element*> by_bus;
    index_pci(*root, by_bus);
    int checked = 0;
    for (std::uint32_t i = 0; i < tree.devices().size(); ++i) {
        const IoDevice& d = tree.devices()[i];
        if (d.kind != DeviceKind::Gpu && d.kind != DeviceKind::Nic) continue;
        INFO(d.name);
        const MachineDevice md{MachineId(0), i};
        const auto it = by_bus.find(device_pci_bus_id(c, md));
        REQUIRE(it != by_bus.end());
        CHECK(*it->second->attr("class") == (d.kind == DeviceKind::Gpu ? "0x03" : "0x02"));
        const Element* up = it->second;
        while (up->name != "cpu") up = up->parent;
        const std::vector<std::uint32_t> numa = device_numa_nodes(c, md);
        REQUIRE(numa.size() == 1);
        CHECK(*up->attr("numaid") == std::to_string(numa[0]));
        ++checked;
    }
    CHECK(checked == 10);       // 4 H100, 4 mlx5, 2 Broadcom Ethernet ports
    CHECK(by_bus.size() == 14); // and the 4 PCIe switches
}
