"""The Python module against the real tool.

Every answer of the module is compared with what nettopo-query prints (--json)
for the same input, on real inputs: the example fat-tree description (and
allocations of it, --nodes), hwloc XML exports of real machines (one with 4
GPUs and 6 adapters: devices, GPU bindings), and an archive of the real
PlaFRIM cluster that nettopo-discover assembles from its hosts' hwloc exports
and InfiniBand dump. Pairs are drawn at random with a fixed seed.

CTest sets: PYTHONPATH (the built module), NETTOPO_QUERY and NETTOPO_DISCOVER
(the tools), NETTOPO_SOURCE_DIR (the project) and NETTOPO_SHARED_DATA (real
inputs, ../shared/data).
"""

import gc
import json
import os
import pathlib
import random
import subprocess
import tempfile
import threading
import unittest

import numpy as np

import nettopo


def required_env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set (CTest sets it: run `ctest -R python`)")
    return value


QUERY = required_env("NETTOPO_QUERY")
DISCOVER = required_env("NETTOPO_DISCOVER")
SOURCE = pathlib.Path(required_env("NETTOPO_SOURCE_DIR"))
SHARED = pathlib.Path(required_env("NETTOPO_SHARED_DATA"))

FATTREE = SOURCE / "share/examples/small-fattree.topo"
UV2000 = SHARED / "hwloc-xml/192em64t-24n8c2t.xml"  # 24 NUMA nodes, 384 PUs
IPA20 = SHARED / "hwloc-xml/ipa20-snc4-4xH100.xml"  # 2 SNC4 packages, 4 H100s, 6 adapters
PLAFRIM = SHARED / "clusters/plafrim"

# Two islands: PEs of a* never reach PEs of b*.
SPLIT = """name split
machines a[0-1] pack:1 core:2 pu:1
machines b[0-1] pack:1 core:2 pu:1
switch s0
switch s1
link a0 s0 100
link a1 s0 100
link b0 s1 100
link b1 s1 100
"""


def tool(path, *args, allow_disconnected=False):
    """nettopo-query's JSON lines for one sub-command."""
    extra = ["--allow-disconnected"] if allow_disconnected else []
    run = subprocess.run([QUERY, "-i", str(path), "--json", *extra, *map(str, args)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise AssertionError(f"nettopo-query {' '.join(map(str, args))}: {run.stderr}")
    return [json.loads(line) for line in run.stdout.splitlines()]


def tool_text(path, *args):
    """nettopo-query's text output (no --json)."""
    run = subprocess.run([QUERY, "-i", str(path), *map(str, args)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise AssertionError(f"nettopo-query {' '.join(map(str, args))}: {run.stderr}")
    return run.stdout


def tool_error(path, *args, allow_disconnected=False):
    """nettopo-query's message for a refused query, without the tool's prefix."""
    extra = ["--allow-disconnected"] if allow_disconnected else []
    run = subprocess.run([QUERY, "-i", str(path), *extra, *map(str, args)],
                         capture_output=True, text=True, check=False)
    assert run.returncode != 0, f"nettopo-query {args} should fail"
    return run.stderr.strip().split("error: ", 1)[-1]


def random_pairs(num_pes, count, seed):
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, num_pes, size=(count, 2), dtype=np.int64)
    pairs[: count // 10, 1] = pairs[: count // 10, 0]  # some same-PE pairs
    return pairs


class ToolComparison:
    """Checks shared by every input: the module answers as nettopo-query does."""

    path = None
    allow_disconnected = False
    pair_count = 300

    @classmethod
    def setUpClass(cls):
        cls.t = nettopo.load(cls.path, allow_disconnected=cls.allow_disconnected)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.pairs = random_pairs(cls.t.num_pes, cls.pair_count, seed=12)
        cls.pairs_file = pathlib.Path(cls.tmp.name) / "pairs.txt"
        cls.pairs_file.write_text("".join(f"{a} {b}\n" for a, b in cls.pairs))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def query(self, *args):
        return tool(self.path, *args, allow_disconnected=self.allow_disconnected)

    def query_error(self, *args):
        return tool_error(self.path, *args, allow_disconnected=self.allow_disconnected)

    def pair_answers(self, command, key, *options):
        lines = self.query(command, *options, "--pairs", self.pairs_file)
        self.assertEqual(len(lines), len(self.pairs))
        for line, (a, b) in zip(lines, self.pairs):
            self.assertEqual((line["a"], line["b"]), (a, b))
        return [line[key] for line in lines]

    def assert_pairs_answer(self, command, got, key=None, *options):
        """got[i] (one answer per pair) equals what nettopo-query prints for pair i."""
        want = self.pair_answers(command, key or command, *options)
        self.assertEqual(len(got), len(want))
        for (a, b), g, w in zip(self.pairs, got, want):
            if g != w:
                self.fail(f"{command} {a} {b}: the module says {g!r}, nettopo-query {w!r}")

    def sample_pes(self, count=12):
        rng = random.Random(7)
        return sorted({0, self.t.num_pes - 1, *rng.sample(range(self.t.num_pes),
                                                           min(count, self.t.num_pes))})

    def test_counts(self):
        for command, value in [("num-pes", self.t.num_pes), ("num-machines", self.t.num_machines),
                               ("num-nodes", self.t.num_nodes),
                               ("num-switches", self.t.num_switches),
                               ("num-links", self.t.num_links)]:
            with self.subTest(command):
                self.assertEqual(self.query(command)[0][command.replace("-", "_")], value)

    def test_machine_and_node_of(self):
        for pe in self.sample_pes():
            with self.subTest(pe=pe):
                self.assertEqual(self.t.machine_of(pe), self.query("machine-of", pe)[0]["machine"])
                self.assertEqual(self.t.node_of(pe), self.query("node-of", pe)[0]["node"])

    def test_pes_of_machine_and_node(self):
        names = self.t.machines
        self.assertEqual(len(names), self.t.num_machines)
        for machine in sorted({names[0], names[-1], *random.Random(3).sample(names, min(3, len(names)))}):
            with self.subTest(machine=machine):
                self.assertEqual(self.t.pes_of_machine(machine),
                                 self.query("pes-of-machine", machine)[0]["pes"])
        for node in sorted({0, self.t.num_nodes - 1, self.t.num_nodes // 2}):
            with self.subTest(node=node):
                self.assertEqual(self.t.pes_of_node(node), self.query("pes-of-node", node)[0]["pes"])

    def test_on_same_machine_and_node(self):
        for pe in self.sample_pes(4):
            with self.subTest(pe=pe):
                self.assertEqual(self.t.on_same_machine(pe),
                                 self.query("on-same-machine", pe)[0]["on_same_machine"])
                self.assertEqual(self.t.on_same_node(pe),
                                 self.query("on-same-node", pe)[0]["on_same_node"])

    def test_proximity_and_ancestor(self):
        self.assert_pairs_answer("proximity", [self.t.proximity(a, b) for a, b in self.pairs])
        ancestors = (self.t.common_ancestor(a, b) for a, b in self.pairs)
        self.assert_pairs_answer("ancestor", [x._asdict() if x else None for x in ancestors])

    def test_hops_distance_path(self):
        self.assert_pairs_answer("hops", [self.t.hops(a, b) for a, b in self.pairs])
        self.assert_pairs_answer("distance", [self.t.distance(a, b) for a, b in self.pairs],
                                 "latency_ns")
        self.assert_pairs_answer("path", [self.t.path(a, b) for a, b in self.pairs])
        self.assert_pairs_answer("path", [self.t.path(a, b, by_hops=True) for a, b in self.pairs],
                                 "path", "--hops")

    def test_nearest(self):
        for pe in self.sample_pes(4):
            for k in (0, 1, 7, self.t.num_pes + 5):
                with self.subTest(pe=pe, k=k):
                    want = self.query("nearest", pe, k)[0]["nearest"]
                    self.assertEqual(self.t.nearest(pe, k),
                                     [(n["pe"], n["latency_ns"]) for n in want])

    def test_batches_answer_as_the_tool(self):
        distances = self.t.distances(self.pairs)
        self.assertEqual((distances.dtype, distances.shape), (np.float64, (len(self.pairs),)))
        self.assert_pairs_answer("distance", [None if np.isnan(d) else d for d in distances],
                                 "latency_ns")

        hops = self.t.hop_counts(self.pairs)
        self.assertEqual((hops.dtype, hops.shape), (np.int64, (len(self.pairs),)))
        self.assert_pairs_answer("hops", [None if h == -1 else h for h in hops])

        proximities = self.t.proximities(self.pairs)
        self.assertEqual((proximities.dtype, proximities.shape), (np.int8, (len(self.pairs),)))
        self.assert_pairs_answer("proximity", proximities.tolist())

    def test_batches_take_any_integer_array(self):
        want = self.t.distances(self.pairs)
        for dtype in (np.int32, np.uint32, np.uint64, np.int16):
            if self.t.num_pes > np.iinfo(dtype).max:
                continue
            with self.subTest(dtype=dtype):
                np.testing.assert_array_equal(self.t.distances(self.pairs.astype(dtype)), want)
        np.testing.assert_array_equal(self.t.distances(self.pairs.tolist()), want)
        np.testing.assert_array_equal(self.t.distances(np.asfortranarray(self.pairs)), want)
        np.testing.assert_array_equal(self.t.hop_counts(self.pairs[::-1])[::-1],
                                      self.t.hop_counts(self.pairs))
        self.assertEqual(self.t.distances([]).shape, (0,))
        self.assertEqual(self.t.hop_counts(np.empty((0, 2), dtype=np.int64)).shape, (0,))

    def test_batches_from_several_threads(self):
        want = self.t.distances(self.pairs)
        results = [None] * 4

        def work(i):
            results[i] = self.t.distances(self.pairs)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(results))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for got in results:
            np.testing.assert_array_equal(got, want)

    def test_bad_ids_are_refused_with_the_library_message(self):
        n = self.t.num_pes
        message = self.query_error("machine-of", n)
        self.assertIn(f"PE {n} does not exist", message)
        for call in (lambda: self.t.machine_of(n), lambda: self.t.node_of(n),
                     lambda: self.t.proximity(0, n), lambda: self.t.common_ancestor(n, 0),
                     lambda: self.t.hops(0, n), lambda: self.t.distance(n, 0),
                     lambda: self.t.path(0, n), lambda: self.t.nearest(n, 1),
                     lambda: self.t.on_same_machine(n)):
            with self.assertRaises(IndexError) as caught:
                call()
            self.assertEqual(str(caught.exception), message)
        with self.assertRaisesRegex(IndexError, "PE -1 does not exist"):
            self.t.distance(-1, 0)
        with self.assertRaisesRegex(IndexError, f"node {self.t.num_nodes} does not exist"):
            self.t.pes_of_node(self.t.num_nodes)
        with self.assertRaisesRegex(ValueError, "no machine named 'no-such-host'"):
            self.t.pes_of_machine("no-such-host")
        with self.assertRaisesRegex(ValueError, "k must not be negative"):
            self.t.nearest(0, -1)

    def test_bad_pairs_name_their_row(self):
        n = self.t.num_pes
        bad = self.pairs.copy()
        bad[17, 1] = n
        bad[20, 0] = -3
        for batch in (self.t.distances, self.t.hop_counts, self.t.proximities):
            with self.subTest(batch=batch.__name__):
                with self.assertRaises(IndexError) as caught:
                    batch(bad)
                self.assertEqual(str(caught.exception),
                                 "pairs[17, 1]: " + self.query_error("machine-of", n))
                with self.assertRaisesRegex(IndexError, r"^pairs\[0, 1\]: PE 18446744073709551615 "):
                    batch(np.array([[0, 2**64 - 1]], dtype=np.uint64))
                with self.assertRaisesRegex(IndexError, r"^pairs\[1, 0\]: PE -3 does not exist"):
                    batch([[0, 0], [-3, 0]])
                with self.assertRaisesRegex(TypeError, "integer PE ids, got dtype float64"):
                    batch(self.pairs.astype(float))
                with self.assertRaisesRegex(ValueError, r"shape \(n, 2\), got shape \(3, 3\)"):
                    batch(np.zeros((3, 3), dtype=np.int64))
                with self.assertRaisesRegex(ValueError, r"got shape \(4,\)"):
                    batch([0, 1, 2, 3])


class FatTree(ToolComparison, unittest.TestCase):
    """share/examples/small-fattree.topo: a description, 16 machines on 6 switches."""

    path = FATTREE

    def test_answers_known_from_the_description(self):
        t = self.t
        self.assertEqual((t.name, t.num_pes, t.num_machines, t.num_nodes, t.num_switches),
                         ("small-fattree", 512, 16, 32, 6))
        self.assertEqual(t.machine_of(40), "node02")
        self.assertEqual(t.hops(0, 511), 4)
        self.assertEqual(t.path(0, 100), ["node01", "leaf0", "node04"])
        self.assertEqual(t.common_ancestor(0, 5),
                         nettopo.Ancestor(machine="node01", type="L3", logical_index=0, depth=2))
        self.assertIsNone(t.common_ancestor(0, 100))
        self.assertEqual(t.neighbors("node01"), [("leaf0", 150.0)])
        self.assertTrue(t.forwards("node01"))  # a description's machines forward by default
        self.assertTrue(t.forwards("leaf0"))
        self.assertEqual(t.source, str(FATTREE))
        self.assertIn("dense table", t.build_index())

    def test_neighbors(self):
        for name in ("leaf0", "spine1", "node16"):
            with self.subTest(name=name):
                want = tool(self.path, "neighbors", name)[0]["neighbors"]
                self.assertEqual(self.t.neighbors(name),
                                 [(n["name"], n["latency_ns"]) for n in want])


class HwlocMachine(ToolComparison, unittest.TestCase):
    """An hwloc XML export of a real 384-PU machine (SGI UV 2000): no network."""

    path = UV2000


class Plafrim(ToolComparison, unittest.TestCase):
    """An archive of the real PlaFRIM cluster (17 machine types, 119 machines), assembled by
    nettopo-discover from per-host hwloc exports and the InfiniBand dump."""

    pair_count = 1000

    @classmethod
    def setUpClass(cls):
        cls.archive_dir = tempfile.TemporaryDirectory()
        cls.path = pathlib.Path(cls.archive_dir.name) / "plafrim.xml"
        subprocess.run([DISCOVER, "--hosts", PLAFRIM / "hwloc",
                        "--ibnetdiscover", PLAFRIM / "ib-subnet-0.txt",
                        "--name", "plafrim", "-q", "-o", cls.path], check=True)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.archive_dir.cleanup()

    def test_hosts_do_not_forward(self):
        self.assertFalse(any(self.t.forwards(m) for m in self.t.machines))
        # Switch 0x0008f10500108500, described 'Voltaire 4036 # 4036-8500'.
        self.assertTrue(self.t.forwards("4036-8500"))

    def test_is_heterogeneous(self):
        self.assertEqual(self.t.name, "plafrim")
        self.assertGreater(len({len(self.t.pes_of_machine(m)) for m in self.t.machines}), 2)


class Disconnected(ToolComparison, unittest.TestCase):
    """Two islands (allow_disconnected): unreachable pairs are None, NaN and -1."""

    allow_disconnected = True

    @classmethod
    def setUpClass(cls):
        cls.description_dir = tempfile.TemporaryDirectory()
        cls.path = pathlib.Path(cls.description_dir.name) / "split.topo"
        cls.path.write_text(SPLIT)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.description_dir.cleanup()

    def test_unreachable(self):
        a0, b0 = 0, 4
        self.assertIsNone(self.t.hops(a0, b0))
        self.assertIsNone(self.t.distance(a0, b0))
        self.assertIsNone(self.t.path(a0, b0))
        self.assertEqual([pe for pe, _ in self.t.nearest(a0, 10)], [1, 2, 3])
        self.assertTrue(np.isnan(self.t.distances([[a0, b0]])[0]))
        self.assertEqual(self.t.hop_counts([[a0, b0], [a0, 2]]).tolist(), [-1, 2])

    def test_refused_without_allow_disconnected(self):
        with self.assertRaisesRegex(nettopo.Error, "not connected"):
            nettopo.load(self.path)


class JobViews(unittest.TestCase):
    """Allocations of the example fat-tree, as nettopo-query --nodes HOSTLIST answers."""

    hostlists = ("node[03,01]", "node[16,01-02]", "node05")

    @classmethod
    def setUpClass(cls):
        cls.t = nettopo.load(FATTREE)
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def query(self, nodes, *args):
        return tool(FATTREE, "--nodes", nodes, *args)

    def test_numbering(self):
        for nodes in self.hostlists:
            with self.subTest(nodes=nodes):
                v = self.t.view(nodes)
                for command in ("num-pes", "num-machines", "num-nodes"):
                    self.assertEqual(getattr(v, command.replace("-", "_")),
                                     self.query(nodes, command)[0][command.replace("-", "_")])
                self.assertEqual(v.hostlist, nodes)
                self.assertIs(v.topology, self.t)
                first = self.t.pes_of_machine(v.machines[0])[0]
                self.assertEqual(v.cluster_pe(0), first)
                self.assertEqual(v.view_pe(first), 0)
                self.assertEqual([v.view_pe(v.cluster_pe(i)) for i in range(v.num_pes)],
                                 list(range(v.num_pes)))
                outside = [m for m in self.t.machines if m not in v.machines][0]
                self.assertIsNone(v.view_pe(self.t.pes_of_machine(outside)[0]))
        self.assertEqual(self.t.view("node[03,01]").machines, ["node03", "node01"])
        self.assertEqual(repr(self.t.view("node[03,01]")),
                         "<nettopo.View 'node[03,01]': 2 machines, 64 PEs>")

    def test_pairs_and_nearest(self):
        for nodes in self.hostlists:
            v = self.t.view(nodes)
            pairs = random_pairs(v.num_pes, 40, seed=5)
            path = pathlib.Path(self.tmp.name) / "view-pairs.txt"
            path.write_text("".join(f"{a} {b}\n" for a, b in pairs))
            for command, key, ask in (("proximity", "proximity", v.proximity),
                                      ("hops", "hops", v.hops),
                                      ("distance", "latency_ns", v.distance)):
                with self.subTest(nodes=nodes, command=command):
                    want = [line[key] for line in self.query(nodes, command, "--pairs", path)]
                    self.assertEqual([ask(a, b) for a, b in pairs], want)
            for pe in (0, 5, v.num_pes - 1):
                for k in (0, 3, v.num_pes + 2):
                    with self.subTest(nodes=nodes, pe=pe, k=k):
                        want = self.query(nodes, "nearest", pe, k)[0]["nearest"]
                        self.assertEqual(v.nearest(pe, k),
                                         [(n["pe"], n["latency_ns"]) for n in want])

    def test_distribute_over_a_view(self):
        for nodes in self.hostlists:
            v = self.t.view(nodes)
            for n, policy in ((3, "scatter"), (7, "compact"), (v.num_pes + 5, "scatter")):
                with self.subTest(nodes=nodes, n=n, policy=policy):
                    want = self.query(nodes, "distribute", n, "--policy", policy)
                    for allocation in (v, nodes):
                        got = self.t.distribute(n, policy=policy, nodes=allocation)
                        self.assertEqual([{"rank": r, "machine": p.machine, "pu": p.pu,
                                           "os_index": p.os_index} for r, p in enumerate(got)],
                                         want)
                        self.assertEqual([v.view_pe(p.pe) is not None for p in got], [True] * n)

    def test_bad_views(self):
        with self.assertRaisesRegex(ValueError, r"^hostlist: bad hostlist 'node\[03': "):
            self.t.view("node[03")
        with self.assertRaisesRegex(ValueError, "hostlist: a host is not in the cluster: node99"):
            self.t.view("node[03,99]")
        v = self.t.view("node[03,01]")
        message = tool_error(FATTREE, "--nodes", "node[03,01]", "nearest", 64, 1)
        self.assertIn("PE 64 does not exist: the allocation has 64 PEs (0..63)", message)
        for call in (lambda: v.cluster_pe(64), lambda: v.hops(0, 64), lambda: v.distance(64, 0),
                     lambda: v.proximity(0, 64), lambda: v.nearest(64, 1)):
            with self.assertRaises(IndexError) as caught:
                call()
            self.assertEqual(str(caught.exception), message)
        with self.assertRaisesRegex(IndexError, "PE -1 does not exist"):
            v.cluster_pe(-1)
        with self.assertRaisesRegex(IndexError, "PE 512 does not exist: the cluster has 512"):
            v.view_pe(512)
        with self.assertRaisesRegex(ValueError, "k must not be negative"):
            v.nearest(0, -1)
        other = nettopo.load(FATTREE).view("node01")
        with self.assertRaisesRegex(ValueError, "the view is of another topology"):
            self.t.distribute(3, nodes=other)
        with self.assertRaisesRegex(TypeError, "expected None, a hostlist or a View"):
            self.t.distribute(3, nodes=3)

    def test_a_view_keeps_its_topology(self):
        v = nettopo.load(FATTREE).view("node[01-02]")
        gc.collect()
        self.assertEqual((v.num_pes, v.topology.num_pes), (64, 512))
        self.assertEqual(v.nearest(0, 1), [(1, 5.0)])


class GpuServer(unittest.TestCase):
    """The devices of a real GPU server (ipa20: 2 Sapphire Rapids in SNC4, 4 H100s, 6
    adapters) and its GPU bindings, against nettopo-query and share/doc/gpu-nodes.md."""

    @classmethod
    def setUpClass(cls):
        cls.t = nettopo.load(IPA20)

    def test_devices(self):
        want = [line["device"] for line in tool(IPA20, "devices")]
        self.assertEqual(self.t.devices(), want)
        self.assertEqual(self.t.devices()[7]["guid"], "043f:7203:00ae:a282")  # mlx5_0
        self.assertEqual(self.t.devices("testhost-nvidia"), want)
        gpu2 = self.t.devices()[2]
        self.assertEqual((gpu2["name"], gpu2["kind"], gpu2["names"], gpu2["pci"], gpu2["cpuset"],
                          gpu2["numa"], gpu2["model"]),
                         ("gpu2", "gpu", ["cuda2", "nvml2", "opencl0d2"], "0000:cb:00.0",
                          "98-111,210-223", [7], "NVIDIA H100 80GB HBM3"))
        self.assertEqual([d["name"] for d in self.t.devices() if d["kind"] == "nic"],
                         ["eno8303", "eno8403", "mlx5_2", "mlx5_0", "mlx5_1", "mlx5_3"])

    def test_cpuset_of(self):
        for what in ("gpu2", "mlx5_0", "testhost-nvidia:mlx5_3", "cuda1", "testhost-nvidia", 98):
            with self.subTest(what=what):
                self.assertEqual(self.t.cpuset_of(what),
                                 tool(IPA20, "cpuset-of", what)[0]["cpuset"])
        self.assertEqual(self.t.cpuset_of("gpu2"), "98-111,210-223")
        self.assertEqual(self.t.cpuset_of("mlx5_0"), "42-55,154-167")
        self.assertEqual(self.t.pes_of_device("gpu2"), list(range(196, 224)))

    def test_nearest_devices(self):
        for pe in (0, 98, 223):
            for kind in (None, "gpu", "nic"):
                with self.subTest(pe=pe, kind=kind):
                    options = ["--kind", kind] if kind else []
                    want = tool(IPA20, "nearest-device", pe, *options)[0]["devices"]
                    got = self.t.nearest_devices(pe, kind)
                    self.assertEqual(got, [(d["name"], d["kind"], d["latency_ns"]) for d in want])
                    self.assertEqual(self.t.nearest_device(pe, kind=kind), want[0]["name"])
        self.assertEqual(self.t.nearest_device(98, kind="nic"), "mlx5_0")
        self.assertEqual(self.t.nearest_device(223, kind="nic"), "mlx5_3")
        self.assertIsNone(self.t.nearest_device(0, kind="storage"))

    def test_nearest_to_device(self):
        for name in ("gpu2", "mlx5_0", "testhost-nvidia:gpu3"):
            for k in (0, 5, 40, 300):
                with self.subTest(device=name, k=k):
                    want = tool(IPA20, "nearest", name, k)[0]["nearest"]
                    self.assertEqual(self.t.nearest_to_device(name, k),
                                     [(n["pe"], n["latency_ns"]) for n in want])
        self.assertEqual(self.t.nearest_to_device("gpu2", 2), [(196, 0.0), (197, 0.0)])

    def test_distribute(self):
        for n, policy in ((7, "scatter"), (5, "compact"), (230, "compact")):
            with self.subTest(n=n, policy=policy):
                got = self.t.distribute(n, policy=policy)
                self.assertEqual([{"rank": r, "machine": p.machine, "pu": p.pu,
                                   "os_index": p.os_index} for r, p in enumerate(got)],
                                 tool(IPA20, "distribute", n, "--policy", policy))
                self.assertEqual([p.pe for p in got], [p.pu for p in got])  # one machine
        self.assertEqual(self.t.distribute(3)[1], nettopo.Placement(56, "testhost-nvidia", 56, 28))

    def test_distribute_gpus(self):
        for n, gpus, nics in ((4, 1, None), (2, 2, 2), (3, 1, 0), (1, 4, None)):
            with self.subTest(n=n, gpus=gpus, nics=nics):
                options = ["--nics-per-rank", nics] if nics is not None else []
                want = tool(IPA20, "distribute", n, "--gpus-per-rank", gpus, *options)
                got = self.t.distribute_gpus(n, gpus_per_rank=gpus, nics_per_rank=nics)
                self.assertEqual([{"rank": r, "machine": x.machine, "cpuset": x.cpuset,
                                   "gpus": x.gpus, "nics": x.nics} for r, x in enumerate(got)],
                                 want)
        # share/doc/gpu-nodes.md: rank 0 on gpu0 with mlx5_0, rank 2 on gpu2 with mlx5_3.
        ranks = self.t.distribute_gpus(4)
        self.assertEqual(ranks[0][:4], ("testhost-nvidia", "42-55,154-167", ["gpu0"], ["mlx5_0"]))
        self.assertEqual(ranks[2][:4], ("testhost-nvidia", "98-111,210-223", ["gpu2"], ["mlx5_3"]))
        self.assertEqual(ranks[2].pes, self.t.pes_of_device("gpu2"))
        self.assertEqual(self.t.distribute_gpus(4, nodes="testhost-nvidia"), ranks)

    def test_gpu_env(self):
        for n, gpus, nics in ((4, 1, None), (2, 2, 2)):
            with self.subTest(n=n, gpus=gpus, nics=nics):
                options = ["--nics-per-rank", str(nics)] if nics is not None else []
                args = ["distribute", str(n), "--gpus-per-rank", str(gpus), *options, "--env"]
                command = " ".join(["nettopo-query", "-i", str(IPA20), *args])
                self.assertEqual(self.t.gpu_env(n, gpus_per_rank=gpus, nics_per_rank=nics,
                                                command=command),
                                 tool_text(IPA20, *args))
        # What a rank's wrapper gets from it.
        with tempfile.TemporaryDirectory() as tmp:
            env = pathlib.Path(tmp) / "ranks.env"
            env.write_text(self.t.gpu_env(4))
            run = subprocess.run(["sh", "-c", f". {env} && echo $NETTOPO_CPUSET "
                                  "$CUDA_VISIBLE_DEVICES $NCCL_IB_HCA"],
                                 env={"PMIX_RANK": "2", "PATH": os.environ["PATH"]},
                                 capture_output=True, text=True, check=True)
            self.assertEqual(run.stdout, "98-111,210-223 2 =mlx5_3:1\n")

    def test_bad_requests(self):
        message = tool_error(IPA20, "distribute", 5, "--gpus-per-rank", 1)
        self.assertEqual(message, "5 ranks of 1 GPU need 5 GPUs; the 1 host given holds 4 GPUs, "
                                  "room for 4 such ranks")
        for call in (lambda: self.t.distribute_gpus(5), lambda: self.t.gpu_env(5)):
            with self.assertRaises(ValueError) as caught:
                call()
            self.assertEqual(str(caught.exception), message)
        for call, pattern in (
                (lambda: self.t.distribute_gpus(1, gpus_per_rank=0), "needs at least 1 GPU"),
                (lambda: self.t.distribute_gpus(2, nics_per_rank=9), "9 adapters a rank"),
                (lambda: self.t.distribute_gpus(-1), "must not be negative"),
                (lambda: self.t.distribute_gpus(1, nodes="nohost"), "nohost"),
                (lambda: self.t.distribute(0), "processes must be at least 1"),
                (lambda: self.t.distribute(3, policy="round-robin"), "policy 'round-robin'"),
                (lambda: self.t.cpuset_of("gpu9"), "no machine named 'gpu9'"),
                (lambda: self.t.pes_of_device("gpu9"), "no device named 'gpu9'"),
                (lambda: self.t.nearest_to_device("nohost:gpu2", 3), "no device named"),
                (lambda: self.t.nearest_to_device("gpu2", -1), "k must not be negative"),
                (lambda: self.t.nearest_devices(0, kind="tpu"), "unknown device kind 'tpu'"),
                (lambda: self.t.devices("nohost"), "no machine named 'nohost'")):
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(ValueError, pattern):
                    call()
        for call in (lambda: self.t.nearest_devices(224), lambda: self.t.cpuset_of(224),
                     lambda: self.t.nearest_device(-1)):
            with self.assertRaisesRegex(IndexError, "PE (224|-1) does not exist"):
                call()


class Loading(unittest.TestCase):
    def test_unreadable_file_names_the_file(self):
        missing = SOURCE / "no-such-topology.xml"
        with self.assertRaises(nettopo.Error) as caught:
            nettopo.load(missing)
        self.assertIn(str(missing), str(caught.exception))

    def test_bad_line_names_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "bad.topo"
            path.write_text("name bad\nmachine m0 pack:1 pu:2\nlink m0 nowhere 5\n")
            with self.assertRaises(nettopo.Error) as caught:
                nettopo.load(str(path))
            message = str(caught.exception)
            self.assertTrue(message.startswith(f"{path}:3: "), message)
            self.assertEqual(message, tool_error(path, "num-pes"))

    def test_node_level(self):
        t = nettopo.load(FATTREE, node_level="core")
        self.assertEqual(t.num_nodes, int(tool(FATTREE, "--node-level", "core",
                                               "num-nodes")[0]["num_nodes"]))
        with self.assertRaisesRegex(ValueError, "unknown node level 'l9'"):
            nettopo.load(FATTREE, node_level="l9")

    def test_repr(self):
        self.assertEqual(repr(nettopo.load(FATTREE)),
                         "<nettopo.Topology 'small-fattree': 16 machines, 512 PEs, 6 switches>")


if __name__ == "__main__":
    unittest.main()
