#!/usr/bin/env python3
"""Every JSON output of the tools against its JSON Schema (share/schema/).

The table tests/golden/json-schemas.txt says which schema each output obeys:
the pinned outputs of the golden cases (tests/golden/cases.txt; the golden
tests keep them equal to what the tools print) and commands run here (outputs
no golden case can pin: timings, dates, files written). Checked:

- every schema is a valid draft 2020-12 schema, and every schema is used;
- every line of every JSON output is one JSON document (no NaN, no duplicate
  key) valid against its schema;
- every JSON output of a golden case has exactly one schema (a case that asks
  --json, or whose output starts with '{'), and every line of the table
  matches some output: a new JSON output without a schema fails here;
- the schemas can fail: documents made wrong on purpose (an unknown key, a
  required key left out, a number written as a string, a renamed quantity)
  are rejected.

Needs Debian's python3-jsonschema (4.10 or later).
Usage: json_schemas.py BIN_DIR PROJECT_ROOT
"""
import copy
import fnmatch
import json
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile
import warnings

try:
    import jsonschema
except ImportError:
    sys.exit("json_schemas.py: this Python has no jsonschema module: install Debian's "
             "python3-jsonschema (" + sys.executable + ")")

bin_dir = pathlib.Path(sys.argv[1]).resolve()
root = pathlib.Path(sys.argv[2]).resolve()
schema_dir = root / "share" / "schema"
golden = root / "tests" / "golden"
failures = []


def fail(message):
    failures.append(message)
    print("FAIL:", message)


# --- the schemas ---------------------------------------------------------------
schemas = {}
for path in sorted(schema_dir.glob("*.schema.json")):
    name = path.name[: -len(".schema.json")]
    schemas[name] = json.loads(path.read_text())
    try:
        jsonschema.Draft202012Validator.check_schema(schemas[name])
    except jsonschema.SchemaError as e:
        fail(f"{path.name} is not a valid draft 2020-12 schema: {e.message}")
    if schemas[name].get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        fail(f"{path.name}: $schema is not draft 2020-12")


def validator(name):
    """A validator of schema `name`; references to other files resolve beside it."""
    schema = schemas[name]
    base = (schema_dir / f"{name}.schema.json").as_uri()
    store = {(schema_dir / f"{n}.schema.json").as_uri(): s for n, s in schemas.items()}
    with warnings.catch_warnings():  # RefResolver is deprecated from jsonschema 4.18 on
        warnings.simplefilter("ignore", DeprecationWarning)
        resolver = jsonschema.RefResolver(base, schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


validators = {name: validator(name) for name in schemas}


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"duplicate key in {keys}")
    return dict(pairs)


def bad_constant(text):
    raise ValueError(f"{text} is not JSON")


def documents(text, where):
    """The JSON Lines of an output; a line that is not JSON fails."""
    docs = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            docs.append(json.loads(line, object_pairs_hook=no_duplicates,
                                   parse_constant=bad_constant))
        except ValueError as e:
            fail(f"{where}, line {n}: not one JSON document: {e}")
    if not docs:
        fail(f"{where}: no JSON output")
    return docs


used = {name: [] for name in schemas}  # schema -> valid documents seen


def check(schema, text, where):
    if schema not in schemas:
        fail(f"{where}: no schema share/schema/{schema}.schema.json")
        return
    checked = 0
    for n, doc in enumerate(documents(text, where), 1):
        errors = sorted(validators[schema].iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:3]:
            fail(f"{where}, line {n}, against {schema}: at /{'/'.join(map(str, e.path))}: "
                 f"{e.message}")
        if not errors:
            used[schema].append(doc)
            checked += 1
    print(f"ok   {where}: {checked} document(s) valid against {schema}")


# --- the table -----------------------------------------------------------------
table_path = golden / "json-schemas.txt"
golden_rules, runs = [], []  # (glob, schema, stream, line number), (schema, exit, args, n)
for n, line in enumerate(table_path.read_text().splitlines(), 1):
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    fields = [f.strip() for f in line.split("|")]
    if fields[0] == "golden" and len(fields) in (3, 4):
        stream = fields[3] if len(fields) == 4 else "stdout"
        if stream not in ("stdout", "stderr"):
            fail(f"json-schemas.txt:{n}: the stream is stdout or stderr, not '{stream}'")
        golden_rules.append([fields[1], fields[2], stream, n, 0])
    elif fields[0] == "run" and len(fields) == 4:
        runs.append((fields[1], int(fields[2]), fields[3], n))
    else:
        fail(f"json-schemas.txt:{n}: expected 'golden | GLOB | SCHEMA [| stderr]' or "
             f"'run | SCHEMA | EXIT | COMMAND'")

# --- the golden cases' outputs -----------------------------------------------------
cases = {}
for line in (golden / "cases.txt").read_text().splitlines():
    if line.strip() and not line.lstrip().startswith("#"):
        name, _, command = (f.strip() for f in line.split("|", 2))
        cases[name] = command.split()

for name, args in cases.items():
    for stream, suffix in (("stdout", ".txt"), ("stderr", ".err")):
        path = golden / "expected" / (name + suffix)
        text = path.read_text() if path.exists() else ""
        rules = [r for r in golden_rules if r[2] == stream and fnmatch.fnmatchcase(name, r[0])]
        # --json is printed on stdout, unless the table says stderr (stdout holds a file).
        on_stderr = any(r[2] == "stderr" and fnmatch.fnmatchcase(name, r[0]) for r in golden_rules)
        asks_json = stream == "stdout" and "--json" in args and text.strip() and not on_stderr
        if not asks_json and not text.lstrip().startswith("{"):
            continue
        if not rules:
            fail(f"golden case {name} ({stream}) prints JSON that no schema covers: add a line "
                 f"to {table_path.relative_to(root)}")
            continue
        if len(rules) > 1:
            fail(f"golden case {name} ({stream}) matches several lines of json-schemas.txt: "
                 + ", ".join(str(r[3]) for r in rules))
            continue
        rules[0][4] += 1
        check(rules[0][1], text, f"golden {name} ({stream})")

for glob, schema, stream, n, matched in golden_rules:
    if not matched:
        fail(f"json-schemas.txt:{n}: '{glob}' ({stream}) matches no JSON output of a golden case")

# --- commands run here ----------------------------------------------------------------
env = dict(os.environ, LC_ALL="C")
env.pop("NETTOPO_ARCHIVE", None)
with tempfile.TemporaryDirectory(prefix="nettopo-json-schemas.") as tmp:
    for schema, code, command, n in runs:
        args = shlex.split(command.replace("{tmp}", tmp))
        args[0] = str(bin_dir / args[0])
        run = subprocess.run(args, cwd=root, env=env, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True)
        where = f"json-schemas.txt:{n} ({command[:60]})"
        if run.returncode != code:
            fail(f"{where}: exit {run.returncode}, expected {code}: {run.stderr.strip()}")
            continue
        check(schema, run.stdout, where)

# --- every schema used, and able to fail ------------------------------------------------
for name, docs in used.items():
    if not docs:
        fail(f"share/schema/{name}.schema.json validates no output: no output uses it")


def required_keys(name, doc):
    """The keys the (sub)schema that accepts `doc` requires: the schema's, or a $defs entry's."""
    schema = schemas[name]
    for candidate in [schema, *schema.get("$defs", {}).values()]:
        if "required" in candidate and "properties" in candidate:
            v = jsonschema.Draft202012Validator(candidate, resolver=validators[name].resolver)
            if v.is_valid(doc):
                return set(candidate["required"])
    return set()


def rejects(schema, doc, what):
    if validators[schema].is_valid(doc):
        fail(f"{schema} accepts a document with {what}: {json.dumps(doc)[:200]}")
        return False
    return True


wrong = 0
for name, docs in used.items():
    # The first document of each distinct set of top-level keys (a diff has several kinds).
    seen = set()
    for doc in docs:
        if not isinstance(doc, dict) or tuple(doc) in seen:
            continue
        seen.add(tuple(doc))
        bogus = dict(doc, bogus_key=1)
        wrong += rejects(name, bogus, "an unknown key")
        required = required_keys(name, doc)
        if not required:
            fail(f"{name}: no (sub)schema with required keys accepts {json.dumps(doc)[:100]}")
        for key, value in doc.items():
            if key in required:
                less = {k: v for k, v in doc.items() if k != key}
                wrong += rejects(name, less, f"'{key}' left out")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                wrong += rejects(name, dict(doc, **{key: str(value)}),
                                 f"'{key}' a string instead of a number")
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0 and (
                    "num_" in key or key in ("pe", "a", "b", "hops", "node")):
                wrong += rejects(name, dict(doc, **{key: -1}), f"'{key}' negative")

# One spelling per quantity: the names this work replaced are refused.
renamed = [
    ("query-distance", {"a": 0, "b": 4, "distance": 8}),
    ("query-nearest", {"pe": 0, "k": 1, "nearest": [{"pe": 4, "distance": 8}]}),
    ("query-neighbors", {"name": "A", "neighbors": [{"name": "B", "kind": "machine",
                                                     "latency_ns": 8, "bandwidth_gbps": None,
                                                     "count": 1}]}),
    ("query-diff", {"difference": "host_missing", "host": "n06", "linked_to": ["leaf1"]}),
    ("query-diff", {"difference": "latency_changed", "ends": ["a", "b"], "expected_ns": 1,
                    "actual_ns": 2}),
    ("summary", {"summary": {"name": "x", "pes": 1}}),
    ("balance-summary", {"command": "nettopo-balance", "parameters": {
        "cluster": "x", "num_pes": "12", "num_tasks": 1, "num_edges": 0}}),
    ("query-allocation-summary", {"allocation": {
        "hostlist": "n05", "machines": 1, "pes": 16, "nodes": 2, "switches": 1,
        "leaf_switches": 1, "max_hops": 0, "unreachable_pairs": 0}}),
    ("query-index", {"image": "c.ntimg", "bytes": 4872, "index": "closed form"}),
    ("query-distribute", {"slurm_hostfile": "h", "ntasks": 4, "cpu_bind": "map_cpu:0",
                          "srun": "srun", "notes": []}),
]
for schema, doc in renamed:
    wrong += rejects(schema, doc, "an old spelling")
# And a document right by its keys but wrong by its kind: a latency that is a string.
wrong += rejects("query-distance", {"a": 0, "b": 4, "latency_ns": "8"}, "a latency as text")
# Nested and per-kind mistakes the generic checks above do not reach.
wrong_kind = [
    ("query-allocation-summary", {"allocation": {
        "hostlist": "n05", "num_machines": "1", "num_pes": 16, "num_nodes": 2,
        "num_switches": 1, "num_leaf_switches": 1, "max_hops": 0, "unreachable_pairs": 0}},
     "a nested count as text"),
    ("query-allocation-summary", {"allocation": {
        "hostlist": "n05", "num_machines": 1, "num_pes": 16, "num_nodes": 2,
        "num_switches": 1, "num_leaf_switches": 1, "max_hops": -1, "unreachable_pairs": 0}},
     "max_hops -1 for unreachable (null is)"),
    ("query-nearest", {"pe": "n03", "k": 1, "nearest": [{"pe": "n03:1", "latency_ns": 5}]},
     "a physical PE without its OS index"),
    ("query-hops", {"a": "n03:0", "b": "4", "hops": 2}, "a PE id as text"),
    ("query-cpuset-of", {"machine": "n01", "cpuset": "0-15", "cpuset_mask": "0x0000ffff"},
     "both a list and a mask"),
    ("query-cpuset-of", {"pe": 3, "node": 0, "machine": "n01", "cpuset": "3"},
     "both a PE and a node"),
    ("query-distribute", {"rank": 0, "machine": "n01", "pu": 0, "os_index": 0,
                          "num_tasks": 1}, "a rank mixed with the Slurm object"),
    ("query-distribute", {"slurm_hostfile": "h", "num_tasks": 0, "cpu_bind": "map_cpu:0",
                          "srun": "srun", "notes": []}, "no task"),
]
for schema, doc, what in wrong_kind:
    wrong += rejects(schema, doc, what)
print(f"ok   {wrong} documents made wrong on purpose were rejected")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"all JSON outputs valid against their {len(schemas)} schemas")
