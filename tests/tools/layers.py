#!/usr/bin/env python3
"""The layering of nettopo, checked on every #include (issue 12).

- lib/LAYERS lists the library's layers, lowest first. A file of lib/src/L/
  or lib/include/nettopo/L/ may include headers of L and of layers listed
  before L, never of one listed after it, and never a tool's header.
- The library knows no tool: no process creation, no terminal, no exit, and
  no string naming a tool or a command-line option ("--x"), but in the files
  of the spec language.
- Headers of lib/include/nettopo/ are in two tiers (issue 25): the API
  (installed, documented) and the detail tier, lib/include/nettopo/L/detail/
  (helpers the library shares with the tools, tests and Python module in
  this tree; not installed). A detail header belongs to layer L like the
  others, and no API header includes one.
- tools/ include only the library's headers under nettopo/ (either tier),
  their own tools/common/ and their own folder.
- No two source or header files share a name across folders.

Usage: layers.py PROJECT_ROOT. Prints every violation; exit 1 if any.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(root)
layers = [l.split()[0] for l in open('lib/LAYERS') if l.strip() and not l.startswith('#')]
rank = {name: i for i, name in enumerate(layers)}
problems = []
include_re = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
# Calls a library must not make: it may run inside an MPI rank or a threaded
# program, and it prints nothing for a terminal.
forbidden = [
    (re.compile(r'\b(fork|vfork|execv[pe]?|execl[pe]?|posix_spawnp?|system|popen)\s*\('),
     'creates a process'),
    (re.compile(r'\b(std::)?(exit|_exit|quick_exit|abort)\s*\('), 'ends the process'),
    (re.compile(r'\bisatty\s*\('), 'looks for a terminal'),
    (re.compile(r'\bstd::(cout|cerr|clog)\b|\b(stdout|stderr)\b|\b(printf|puts)\s*\('), 'prints to a terminal'),
    (re.compile(r'<CLI/'), 'uses the command-line parser'),
]


def sources(top):
    for dirpath, _, files in os.walk(top):
        for f in sorted(files):
            if re.search(r'\.(c|h|cpp|hpp|in)$', f):
                yield os.path.join(dirpath, f)


def layer_of(path):
    parts = path.split(os.sep)
    if parts[:2] == ['lib', 'src']:
        return parts[2]
    if parts[:3] == ['lib', 'include', 'nettopo']:
        return parts[3] if len(parts) > 4 else None  # nettopo.hpp, nettopo.h: the top
    return None


def target_layer(inc):
    """Layer of an included header as the library spells it, else None."""
    parts = inc.split('/')
    if parts[0] == 'nettopo' and len(parts) > 2 and parts[1] in rank:
        return parts[1]
    if parts[0] in rank and len(parts) > 1:
        return parts[0]
    return None


def literals(text):
    """(line, contents) of every string literal of C++ `text`, comments skipped."""
    found, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == '\n':
            line += 1
            i += 1
        elif text.startswith('//', i):
            i = text.find('\n', i)
            i = n if i < 0 else i
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            line += text.count('\n', i, end)
            i = end
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            open_paren = text.find('(', i)
            delimiter = text[i + 2:open_paren]
            end = text.find(')' + delimiter + '"', open_paren)
            found.append((line, text[open_paren + 1:end]))
            line += text.count('\n', i, end)
            i = end + len(delimiter) + 2
        elif c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
            i += 1
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            if c == '"':
                found.append((line, text[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return found


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


tool_dirs = {d for d in os.listdir('tools') if os.path.isdir(os.path.join('tools', d))}
tool_names = re.compile(r'\b(' + '|'.join(sorted(d for d in tool_dirs if d.startswith('nettopo-')))
                        + r')\b')
# The library knows no tool, so its strings name neither a tool nor a
# command-line option (a word starting with "--"): tools add their flags to
# the library's messages (tools/common: remedy_hint, read_named). Allowed, by
# file: nettopo's spec language, whose options archives and workload presets
# store and family_from_spec and generate_from_spec read ("torus --dims 4x4",
# "ring --machines 3 --machine 'pu:1' --latency all=5"): the families layer,
# the cluster specs of gen, the workload presets; srun's own option in the
# Slurm launch notes; lstopo's in the remedy for hwloc exports of a newer
# format.
option_word = re.compile(r'(?<![\w-])--[A-Za-z][\w-]*')
spec_language = ('lib/src/families/', 'lib/include/nettopo/families/',
                 'lib/src/gen/cluster_spec.cpp', 'lib/src/balance/workload_presets.cpp')
foreign_options = {'lib/src/balance/slurm_launch.cpp': {'--cpu-bind'},
                   'lib/src/hwloc/hwloc3_to_v2.cpp': {'--export-xml-flags'}}
for path in list(sources('lib/src')) + list(sources('lib/include')):
    here = layer_of(path)
    if here is not None and here not in rank:
        problems.append(f'{path}: folder {here} is not a layer of lib/LAYERS')
        continue
    text = open(path, encoding='utf-8').read()
    for n, line in enumerate(text.split('\n'), 1):
        m = include_re.match(line)
        if not m:
            continue
        inc = m.group(1)
        if inc.split('/')[0] in tool_dirs:
            problems.append(f'{path}:{n}: includes the tools\' header {inc}')
            continue
        there = target_layer(inc)
        if there and here and rank[there] > rank[here]:
            problems.append(f'{path}:{n}: layer {here} includes {inc} of layer {there}, '
                            f'which lib/LAYERS puts above it')
        if path.startswith('lib/include') and there and not inc.startswith('nettopo/'):
            problems.append(f'{path}:{n}: a public header includes the private {inc}')
        if (path.startswith('lib/include') and '/detail/' not in path
                and inc.startswith('nettopo/') and '/detail/' in inc):
            problems.append(f'{path}:{n}: an API header includes {inc} of the detail tier, '
                            f'which is not installed')
    code = strip_comments(text)
    for n, line in enumerate(code.split('\n'), 1):
        for pattern, what in forbidden:
            if pattern.search(line):
                problems.append(f'{path}:{n}: the library {what}: {line.strip()}')
    for n, literal in literals(text):
        for tool in tool_names.findall(literal):
            problems.append(f'{path}:{n}: a string of the library names the tool {tool}: '
                            f'"{literal}"')
        if path.startswith(spec_language):
            continue
        for option in option_word.findall(literal):
            if option not in foreign_options.get(path, ()):
                problems.append(f'{path}:{n}: a string of the library names the option '
                                f'{option}: "{literal}" (tools add their flags)')

for path in sources('tools'):
    for n, line in enumerate(open(path, encoding='utf-8').read().split('\n'), 1):
        m = include_re.match(line)
        if not m:
            continue
        inc = m.group(1)
        first = inc.split('/')[0]
        if first in rank:
            problems.append(f'{path}:{n}: a tool includes the library\'s private {inc}')
        elif first in tool_dirs and first not in ('common', path.split(os.sep)[1]):
            problems.append(f'{path}:{n}: a tool includes another tool\'s {inc}')

# One name, one unit: no stem in two folders (main.cpp of each tool aside).
seen = {}
for top in ('lib', 'tools', 'tests/unit', 'tests/testkit', 'python'):
    if not os.path.isdir(top):
        continue
    for path in sources(top):
        if not re.search(r'\.(c|h|cpp|hpp)(\.in)?$', path):
            continue  # templates of other files (nettopo.pc.in) are not units
        stem = os.path.basename(path).split('.')[0]
        if stem == 'main':
            continue
        folder = layer_of(path) or os.path.dirname(path)
        seen.setdefault(stem, set()).add(folder)
for stem, folders in sorted(seen.items()):
    if len(folders) > 1:
        problems.append(f'{stem}: a file of this name is in {", ".join(sorted(folders))}')

for p in problems:
    print(p)
print(f'layers: {len(layers)} layers, {len(problems)} problems')
sys.exit(1 if problems else 0)
