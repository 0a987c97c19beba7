// The PEs nearest a device inside a job's allocation (device_nearest.hpp)
// against the whole cluster's answer filtered to the allocation: the same
// PEs at the same distances, in the same order, for every k, for devices on
// and off the allocation.
#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/query/device_nearest.hpp"

#include <catch2/catch.hpp>

using namespace nettopo;

namespace {

// Four copies of the SNC4 server with 4 H100s, two per leaf switch under one spine.
Cluster four_gpu_servers() {
    const Cluster one =
        load_cluster(std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/ipa20-snc4-4xH100.xml");
    ClusterBuilder b;
    const TypeId t = b.add_type(one.type(TypeId(0)));
    for (const char* name : {"g0", "g1", "g2", "g3"}) b.add_machine(name, t);
    b.add_switch("leaf0");
    b.add_switch("leaf1");
    b.add_switch("spine");
    for (std::uint32_t m = 0; m < 4; ++m) b.add_link({false, m}, {true, m / 2}, 100);
    b.add_link({true, 0}, {true, 2}, 200);
    b.add_link({true, 1}, {true, 2}, 200);
    return std::move(b).build();
}

} // namespace

TEST_CASE("nearest to a device: an allocation's answer is the cluster's, filtered",
          "[devices][allocation]") {
    const Cluster c = four_gpu_servers();
    QueryEngine engine(c);
    const std::uint32_t per = c.pes_of_machine(MachineId(0)).count;
    for (const std::vector<std::uint32_t>& hosts :
         {std::vector<std::uint32_t>{0, 1, 2, 3}, {1, 3}, {0, 2}, {2}}) {
        std::vector<MachineId> machines;
        for (std::uint32_t h : hosts) machines.emplace_back(h);
        const JobView view(c, machines);
        for (const char* name : {"g1:gpu2", "g2:mlx5_0", "g3:gpu0"}) {
            CAPTURE(hosts, name);
            const MachineDevice d = find_devices(c, name).at(0);
            const std::vector<NearPe> all = nearest_to_device(engine, d, c.num_pes());
            std::vector<NearPe> filtered;
            for (const NearPe& n : all)
                if (view.contains(c.machine_of(n.pe))) filtered.push_back(n);
            for (const std::uint32_t k : {1u, 5u, per, per + 3, view.num_pes()}) {
                CAPTURE(k);
                const std::vector<NearPe> got = nearest_to_device_in_view(engine, view, d, k);
                const std::size_t want = std::min<std::size_t>(k, filtered.size());
                REQUIRE(got.size() == want);
                for (std::size_t i = 0; i < want; ++i) {
                    CHECK(got[i].pe == filtered[i].pe);
                    CHECK(got[i].distance_ns == filtered[i].distance_ns);
                }
            }
        }
    }
}
