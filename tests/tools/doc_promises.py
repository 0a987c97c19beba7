#!/usr/bin/env python3
"""Every call of the API says what it costs, what it throws and whether it
may be called from several threads (issue 25).

Runs Doxygen with the `docs` target's configuration (its Doxyfile, so the
same headers: the API tier, not <layer>/detail/), XML only, into a scratch
folder, then reads the XML. For every public or protected function of the
API (free functions, members, the C API of nettopo.h) the documentation must
state:

- its cost: a \\cost paragraph or an O(...) in the function's own comment, or
  a \\cost paragraph of its class (or an enclosing class) or of its file;
- what it throws: \\throws, the word "throw" ("throws nothing", "throws
  UsageError when ...") or a noexcept declaration, in its own comment, its
  class's (or an enclosing class's) or its file's; in its own comment, an
  error's name too ("InputError for a malformed line", "std::bad_alloc");
- whether it may be called from several threads: a \\threads paragraph in
  its own comment, its class's (or an enclosing class's) or its file's.

A class (or struct) with such functions must state \\threads itself, in an
enclosing class or in its file: whether one object may be shared is a
property of the class. Not checked: destructors (noexcept by rule),
functions declared `= default` or `= delete` (they compute nothing of their
own), friends, and classes without functions (plain data).

A statement made at class or file level must hold for every member it
covers; that is for the reader of the header to judge, not this script.

Usage: doc_promises.py DOXYGEN DOXYFILE [--mutate]
  DOXYGEN   the doxygen executable
  DOXYFILE  the docs target's configuration (build/<preset>/lib/Doxyfile.docs)
  --mutate  also prove the check can fail: run it on a copy of the headers
            with every \\threads and \\cost line of one header removed, and
            fail unless that header's functions are reported.
Prints every function or class lacking a statement; exit 1 if any.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

COST_ALIAS = 'Cost:'
THREADS_ALIAS = 'Threads:'
BIG_O = re.compile(r'\bO\(')
THROW = re.compile(r'\bthrow', re.I)
# The library's idiom names the error: "InputError when ...".
ERROR_NAME = re.compile(r'\b\w*Error\b|\bbad_alloc\b|\bout_of_range\b')


def doxyfile_value(doxyfile, key):
    for line in open(doxyfile, encoding='utf-8'):
        m = re.match(r'\s*' + key + r'\s*=\s*(.*?)\s*$', line)
        if m:
            return m.group(1).strip('"')
    return ''


def run_doxygen(doxygen, doxyfile, out, input_dir=None):
    """Doxygen's XML of the docs configuration in out/xml (input_dir: another copy of the headers)."""
    conf = os.path.join(out, 'Doxyfile')
    with open(conf, 'w', encoding='utf-8') as f:
        f.write('@INCLUDE = %s\n' % doxyfile)
        f.write('OUTPUT_DIRECTORY = %s\n' % out)
        f.write('GENERATE_HTML = NO\nGENERATE_LATEX = NO\nGENERATE_XML = YES\n')
        f.write('XML_PROGRAMLISTING = NO\nINCLUDE_GRAPH = NO\nINCLUDED_BY_GRAPH = NO\n')
        # Undocumented calls are the docs target's warnings; this script's
        # findings are its own, so Doxygen's warnings do not fail it.
        f.write('WARN_AS_ERROR = NO\nWARNINGS = NO\nWARN_IF_UNDOCUMENTED = NO\nQUIET = YES\n')
        if input_dir:
            f.write('INPUT = %s\n' % os.path.join(input_dir, 'nettopo'))
            f.write('STRIP_FROM_PATH = %s\nSTRIP_FROM_INC_PATH = %s\n' % (input_dir, input_dir))
    subprocess.run([doxygen, conf], check=True, cwd=out)
    return os.path.join(out, 'xml')


class Promises:
    """What one comment states: cost, throws, threads."""

    def __init__(self, description_nodes, own):
        self.cost = self.throws = self.threads = False
        for node in description_nodes:
            if node is None:
                continue
            for sect in node.iter('simplesect'):
                title = sect.findtext('title') or ''
                if sect.get('kind') == 'par' and title.strip() == COST_ALIAS:
                    self.cost = True
                if sect.get('kind') == 'par' and title.strip() == THREADS_ALIAS:
                    self.threads = True
            for plist in node.iter('parameterlist'):
                if plist.get('kind') == 'exception':
                    self.throws = True
            text = ''.join(node.itertext())
            if THROW.search(text) or (own and ERROR_NAME.search(text)):
                self.throws = True
            # An O(...) or an error's name in prose speak of the call they
            # document; a class or a file covers its members' cost only with a
            # \cost paragraph, what they throw only by saying "throw".
            if own and BIG_O.search(text):
                self.cost = True


def descriptions(elem):
    return [elem.find('briefdescription'), elem.find('detaileddescription'),
            elem.find('inbodydescription')]


def check(xml_dir):
    """(problems, functions checked, classes checked) of the XML in xml_dir."""
    files = {}     # location file -> Promises of the file's comment
    classes = {}   # refid -> (name, location file, line, Promises)
    parent = {}    # refid of a nested class -> refid of its enclosing class
    members = {}   # declaration refid -> (file, line, qualified name, Promises, class refid)
    for name in sorted(os.listdir(xml_dir)):
        if not name.endswith('.xml') or name == 'index.xml':
            continue
        root = ET.parse(os.path.join(xml_dir, name)).getroot()
        for cd in root.findall('compounddef'):
            kind = cd.get('kind')
            loc = cd.find('location')
            loc_file = loc.get('file', '') if loc is not None else ''
            owner = None
            if kind == 'file':
                files[loc_file] = Promises(descriptions(cd), own=False)
            elif kind in ('class', 'struct', 'union'):
                if not loc_file.startswith('nettopo/') or cd.get('prot') == 'private':
                    continue
                owner = cd.get('id')
                classes[owner] = (cd.findtext('compoundname').replace('nettopo::', '', 1),
                                  loc_file, int(loc.get('line', '0')),
                                  Promises(descriptions(cd), own=False))
                for inner in cd.findall('innerclass'):
                    parent[inner.get('refid')] = owner
            elif kind != 'namespace':
                continue
            # A free function is listed by its file and by its namespace (the
            # C header's by its file only): its refid counts it once.
            for section in cd.findall('sectiondef'):
                for m in section.findall('memberdef'):
                    if m.get('kind') != 'function' or m.get('prot') == 'private':
                        continue
                    mloc = m.find('location')
                    mfile = mloc.get('file', '') if mloc is not None else ''
                    if not mfile.startswith('nettopo/'):
                        continue
                    fname = m.findtext('name') or ''
                    args = re.sub(r'\s+', '', m.findtext('argsstring') or '')
                    if fname.startswith('~') or args.endswith('=default') \
                            or args.endswith('=delete'):
                        continue
                    promises = Promises(descriptions(m), own=True)
                    if 'noexcept' in args and 'noexcept(false)' not in args:
                        promises.throws = True
                    qualified = (m.findtext('qualifiedname') or fname).replace('nettopo::', '', 1)
                    members.setdefault(m.get('id'), (mfile, int(mloc.get('line', '0')), qualified,
                                                      promises, owner))
    nothing = Promises([], own=False)

    def chain(class_id):
        """The Promises of a class and of the classes enclosing it."""
        while class_id in classes:
            yield classes[class_id][3]
            class_id = parent.get(class_id)

    problems = []
    classes_with_functions = set()
    for mfile, line, qualified, own, owner in members.values():
        if owner is not None:
            classes_with_functions.add(owner)
        outer = list(chain(owner)) + [files.get(mfile, nothing)]
        lacks = [aspect for aspect in ('cost', 'throws', 'threads')
                 if not getattr(own, aspect) and not any(getattr(p, aspect) for p in outer)]
        if lacks:
            problems.append((mfile, line, '%s(): states no %s' % (qualified, ', no '.join(lacks))))
    for class_id in classes_with_functions:
        cname, cfile, cline, _ = classes[class_id]
        if not any(p.threads for p in chain(class_id)) and not files.get(cfile, nothing).threads:
            problems.append((cfile, cline, 'class %s: states no threads (\\threads in the class, '
                             'an enclosing class or its file)' % cname))
    problems.sort()
    return problems, len(members), len(classes_with_functions)


def mutate(doxygen, doxyfile, scratch):
    """The check fails when one header's \\threads and \\cost lines are removed."""
    include = os.path.dirname(os.path.normpath(doxyfile_value(doxyfile, 'INPUT')))
    copy = os.path.join(scratch, 'include')
    shutil.copytree(include, copy)
    victim = os.path.join('nettopo', 'query', 'query_engine.hpp')
    path = os.path.join(copy, victim)
    text = open(path, encoding='utf-8').read()
    cut = re.sub(r'^\s*///\s*\\(threads|cost)\b.*\n', '', text, flags=re.M)
    if cut == text:
        return ['--mutate: %s has no \\threads or \\cost line to remove' % victim]
    open(path, 'w', encoding='utf-8').write(cut)
    out = os.path.join(scratch, 'mutant')
    os.mkdir(out)
    problems, _, _ = check(run_doxygen(doxygen, doxyfile, out, input_dir=copy))
    hits = [p for p in problems if p[0] == 'nettopo/query/query_engine.hpp']
    if not hits:
        return ['--mutate: %s without its \\threads and \\cost lines passed the check' % victim]
    print('--mutate: %s without its \\threads and \\cost lines: %d findings, e.g. %s:%d: %s'
          % (victim, len(hits), hits[0][0], hits[0][1], hits[0][2]))
    return []


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    doxygen, doxyfile = args[0], os.path.abspath(args[1])
    with tempfile.TemporaryDirectory(prefix='doc_promises.') as scratch:
        out = os.path.join(scratch, 'api')
        os.mkdir(out)
        problems, functions, classes = check(run_doxygen(doxygen, doxyfile, out))
        for path, line, what in problems:
            print('%s:%d: %s' % (path, line, what))
        # A check that found nothing to check checks nothing.
        if functions < 100:
            print('only %d functions found in the API: is the Doxygen XML read right?' % functions)
            return 1
        print('%d functions and %d classes of the API checked: %d lack a statement'
              % (functions, classes, len(problems)))
        failed = bool(problems)
        if '--mutate' in sys.argv[1:]:
            errors = mutate(doxygen, doxyfile, scratch)
            for e in errors:
                print(e)
            failed = failed or bool(errors)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
