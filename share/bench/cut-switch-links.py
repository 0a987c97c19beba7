#!/usr/bin/env python3
"""Removes a seeded random fraction of the switch-to-switch links of a nettopo archive.

    cut-switch-links.py IN.xml OUT.xml [--fraction 0.01] [--seed 1]

The damaged cluster of the benchmarks (share/doc/benchmarks.md): the family record
stays, so the tools find the network is no longer its family and take the general
distance index. Link lines are written whole (no field left out), so a removed line
never changes what the lines after it repeat. Vertex ids below the machine count are
machines, the others switches (share/doc/archive-format.md).
"""
import argparse
import random
import re


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--fraction", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    with open(args.input) as f:
        text = f.read()
    machines = int(re.search(r'<machines count="(\d+)"', text).group(1))
    start = text.index("<links")
    body_start = text.index(">", start) + 1
    body_end = text.index("</links>", body_start)
    links = []
    previous = None
    for line in text[body_start:body_end].split("\n"):
        fields = line.split()
        if not fields:
            continue
        if previous is not None:  # trailing fields left out repeat the line above
            fields = fields + previous[len(fields):]
        links.append(fields)
        previous = fields
    between_switches = [i for i, l in enumerate(links) if int(l[0]) >= machines and int(l[1]) >= machines]
    cut = set(random.Random(args.seed).sample(between_switches, round(args.fraction * len(between_switches))))
    kept = [l for i, l in enumerate(links) if i not in cut]
    head = re.sub(r'count="\d+"', f'count="{len(kept)}"', text[start:body_start], count=1)
    body = "\n" + "\n".join(" ".join(l) for l in kept) + "\n  "
    with open(args.output, "w") as f:
        f.write(text[:start] + head + body + text[body_end:])
    print(f"removed {len(cut)} of {len(between_switches)} switch-to-switch links; {len(kept)} links left")


if __name__ == "__main__":
    main()
