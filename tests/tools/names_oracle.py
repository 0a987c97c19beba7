#!/usr/bin/env python3
"""The rule of names (support/detail/name_rules.hpp) against independent oracles.

Findings D1 and D2 of issue 15: a NUL byte in a machine name made nettopo
write an archive it then refused; control characters made archives that are
not XML 1.0. For names at the edge of the rule and random byte strings:

  * nettopo-discover accepts a description naming a machine NAME exactly
    when Python says NAME is valid UTF-8 (its strict decoder: no overlong
    form, no surrogate, nothing past U+10FFFF) of at most 255 bytes with no
    character of Unicode category Cc (C0, DEL, C1) and neither U+FFFE nor
    U+FFFF;
  * what it accepts, it writes as an archive that `xmllint --noout` finds
    well-formed and that Python's own XML parser reads back with the same
    name; nettopo-query reads the archive back;
  * what it refuses, it refuses with exit 1 and "FILE:LINE: machine name '"
    on the line of the machine, with no control byte in the message.

Exits 77 (skipped) without xmllint.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import xml.etree.ElementTree as ET

MAX_NAME_BYTES = 255


def allowed(name: bytes) -> bool:
    """The oracle: Python's UTF-8 decoder and Unicode database."""
    if len(name) > MAX_NAME_BYTES:
        return False
    try:
        text = name.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return False
    return not any(unicodedata.category(c) == "Cc" or c in "\ufffe\uffff" for c in text)


def edge_names():
    yield b"a" * 255
    yield b"a" * 256
    yield "\u00e9".encode() * 127 + b"a"
    yield "\u00e9".encode() * 128
    yield b"x" * 254 + "\u00e9".encode()  # 256 bytes, 255 characters
    for c in ["\u00a0", "\u009f", "\u0080", "\u0085", "\u009b", "\ud7ff", "\ue000", "\ufffd",
              "\ufffe", "\uffff", "\U0010ffff", "\U0001f5a5", "\u2028", "\u200b"]:
        yield b"n" + c.encode("utf-8", errors="surrogatepass")
    for b in list(range(0x00, 0x20)) + [0x7F] + list(range(0x80, 0x100, 7)):
        if bytes([b]) in (b" ", b"\t", b"\r", b"\n", b"#"):
            continue  # they separate tokens or start a comment in a description
        yield b"n" + bytes([b]) + b"1"
    yield b"n\xed\xa0\x80"  # a surrogate
    yield b"n\xc0\x80"  # overlong NUL
    yield b"n\xf4\x90\x80\x80"  # past U+10FFFF
    yield b"<&\"'>;=[]"


def random_names(rng, count):
    pieces = [b"node", b"-", b"_", b".", b"<", b"&", b"'", b'"', b"\x00", b"\x01", b"\x1b[31m",
              b"\x7f", "\u0085".encode(), "\u00e9".encode(), "\U0001f5a5".encode(), b"\xff",
              b"\xc3", b"\x80", "\ufffe".encode(), "\u4e2d".encode()]
    for _ in range(count):
        name = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        if rng.random() < 0.2:  # near the length limit
            name = (name * 300)[: rng.randint(250, 260)]
        name = name.replace(b" ", b"").replace(b"\t", b"").replace(b"#", b"")
        name = name.replace(b"\r", b"").replace(b"\n", b"")
        if name:
            yield name


def main():
    bindir, root = sys.argv[1], sys.argv[2]
    if not shutil.which("xmllint"):
        print("skipped: xmllint not installed")
        return 77
    discover = os.path.join(bindir, "nettopo-discover")
    query = os.path.join(bindir, "nettopo-query")
    rng = random.Random(15)
    names = list(edge_names()) + list(random_names(rng, 300))
    failures = []
    accepted = refused = 0
    with tempfile.TemporaryDirectory(prefix="nettopo-names-") as tmp:
        topo = os.path.join(tmp, "n.topo")
        archive = os.path.join(tmp, "n.xml")
        for name in names:
            with open(topo, "wb") as f:
                f.write(b"machine ref pu:1\nmachine " + name + b" pu:1\nswitch sw\n"
                        b"link ref sw 1\nlink " + name + b" sw 1\n")
            if os.path.exists(archive):
                os.remove(archive)
            p = subprocess.run([discover, "-i", topo, "-o", archive], capture_output=True)
            want = allowed(name)
            label = repr(name)
            if want:
                accepted += 1
                if p.returncode != 0:
                    failures.append(f"{label}: refused (exit {p.returncode}): {p.stderr!r}")
                    continue
                x = subprocess.run(["xmllint", "--noout", archive], capture_output=True)
                if x.returncode != 0:
                    failures.append(f"{label}: xmllint: {x.stderr!r}")
                    continue
                got = [m.get("name") for m in ET.parse(archive).getroot().iter("machine")]
                if name.decode() not in got:
                    failures.append(f"{label}: the archive names {got!r}")
                q = subprocess.run([query, "-i", archive, "num-machines"], capture_output=True)
                if q.returncode != 0 or q.stdout.strip() != b"2":
                    failures.append(f"{label}: nettopo-query says {q.returncode} {q.stderr!r}")
            else:
                refused += 1
                head = f"{topo}:2: machine name '".encode()
                if p.returncode != 1 or not p.stderr.startswith(b"nettopo-discover: error: " + head):
                    failures.append(f"{label}: exit {p.returncode}, {p.stderr!r}")
                elif any(b < 0x20 and b != 0x0A or b == 0x7F for b in p.stderr):
                    failures.append(f"{label}: a control byte in the message {p.stderr!r}")
                if os.path.exists(archive):
                    failures.append(f"{label}: refused, yet an archive was written")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(names)} names: {accepted} accepted, {refused} refused, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
