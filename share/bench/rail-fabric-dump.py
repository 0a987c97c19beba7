#!/usr/bin/env python3
"""rail-fabric-dump.py HOSTS RAILS [HOSTS_PER_UNIT] : a synthetic ibnetdiscover -p
report of a rail-optimized fabric, for timing only (never real data). Units of
HOSTS_PER_UNIT (32) hosts; host adapter r (mlx5_r) is cabled to its unit's rail-r
leaf; each rail is a plane of its own: the rail-r leaves of up to 32 units (a group)
share 16 spines, and the group spines of one rail meet at 16 core switches (spine k
of every group to core k). Hops: 2 within a unit, 4 within a group, 6 across groups.
No switch has more than 255 ports (ibnetdiscover's port numbers are one byte). Both
ends of every cable are printed, as ibnetdiscover does."""
import sys

hosts, rails = int(sys.argv[1]), int(sys.argv[2])
per_unit = int(sys.argv[3]) if len(sys.argv) > 3 else 32
units = (hosts + per_unit - 1) // per_unit
units_per_group, spines = 32, 16
groups = (units + units_per_group - 1) // units_per_group
out = sys.stdout
port = {}

def leaf(u, r): return 0x10000000 + u * rails + r, f"MF0;su{u:03d}-rail{r}:MQM9700/U1"
def spine(r, g, k): return 0x20000000 + (r * groups + g) * spines + k, f"MF0;spine-r{r}-g{g:02d}-{k:02d}:MQM9700/U1"
def core(r, k): return 0x30000000 + r * spines + k, f"MF0;core-r{r}-{k:02d}:MQM9700/U1"

def next_port(g):
    port[g] = port.get(g, 0) + 1
    assert port[g] < 256, "a switch with more than 255 ports"
    return port[g]

def cable(ka, a, kb, b):
    (ga, da), (gb, db) = a, b
    pa, pb = next_port(ga), next_port(gb)
    out.write(f"{ka} 1 {pa} 0x{ga:016x} 4x NDR - {kb} 2 {pb} 0x{gb:016x} ( '{da}' - '{db}' )\n")
    out.write(f"{kb} 2 {pb} 0x{gb:016x} 4x NDR - {ka} 1 {pa} 0x{ga:016x} ( '{db}' - '{da}' )\n")

for h in range(hosts):
    for r in range(rails):
        cable("CA", (0x40000000 + h * rails + r, f"gpu{h:05d} mlx5_{r}"), "SW", leaf(h // per_unit, r))
for r in range(rails):
    for u in range(units):
        for k in range(spines):
            cable("SW", leaf(u, r), "SW", spine(r, u // units_per_group, k))
    for g in range(groups):
        for k in range(spines):
            cable("SW", spine(r, g, k), "SW", core(r, k))
