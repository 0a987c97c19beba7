"""hwloc's GPU interconnect matrices of an export, read from its XML alone
(xml.etree, no nettopo code), and the device-matrix entry they give two
GPUs, by the rules of share/doc/gpu-nodes.md ("GPU interconnects"):

  * NVLinkBandwidth (<distances2 type="OSDev" indexing="gp"> or
    <distances2hetero> naming "OSDev:GP", "PCIDev:GP", "Package:GP"):
    the pair's own value, plus, when both GPUs reach NVSwitches (the PCIDev
    rows), the smaller of their bandwidths to all switches; NV<n> with n
    that bandwidth over one link's, rounded, at least 1. One link is what
    hwloc's nvml backend counts by NVLink version (topology-nvml.c): 20000
    MB/s for a P100, 50000 for Blackwell (B100, B200, B300), 50000 for the
    others when the export's hwlocVersion is 2.9.0, else 25000;
  * XGMIBandwidth or XGMIHops not 0: XGMI;
  * XeLinkBandwidth not 0: XL.

Objects a matrix names that the export lacks are left out, as hwloc leaves
them out; the first matrix of each name counts.
"""

KINDS = ("NVLinkBandwidth", "XGMIBandwidth", "XGMIHops", "XeLinkBandwidth")


def matrices(root):
    """{name: (objects, values)} of the export whose XML root is `root`:
    `objects` the <object> elements of the rows (None for a missing one),
    `values` row-major."""
    by_gp = {(o.get("type"), o.get("gp_index")): o for o in root.iter("object")}
    out = {}
    for d in list(root.iter("distances2")) + list(root.iter("distances2hetero")):
        name = d.get("name")
        if name not in KINDS or name in out:
            continue
        indexes = " ".join(i.text or "" for i in d.findall("indexes")).split()
        values = [int(v) for u in d.findall("u64values") for v in (u.text or "").split()]
        if d.tag == "distances2hetero":
            keys = [tuple(x.split(":", 1)) for x in indexes]
        else:
            keys = [(d.get("type"), x) for x in indexes]
        out[name] = ([by_gp.get(k) for k in keys], values)
    return out


def release(root):
    """The export's hwlocVersion, "" when it has none."""
    for info in root.iter("info"):
        if info.get("name") == "hwlocVersion":
            return info.get("value", "")
    return ""


def link_mbps(model, hwloc_release):
    if "P100" in model:
        return 20000
    if any(w in model for w in ("B100", "B200", "B300")):
        return 50000
    if hwloc_release.startswith("2.9.0") and "V100" not in model:
        return 50000
    return 25000


def _info(obj, name):
    return next((i.get("value", "") for i in obj.findall("info") if i.get("name") == name), "")


def _row(objects, names):
    return next((i for i, o in enumerate(objects)
                 if o is not None and o.get("type") == "OSDev" and o.get("name") in names), None)


def entry(mats, hwloc_release, names_a, names_b):
    """The entry between the GPUs whose OS devices are `names_a` and
    `names_b`, or None when no matrix joins them."""
    if "NVLinkBandwidth" in mats:
        objects, values = mats["NVLinkBandwidth"]
        n = len(objects)
        a, b = _row(objects, names_a), _row(objects, names_b)
        if a is not None and b is not None:
            switches = [k for k, o in enumerate(objects) if o is not None and o.get("type") == "PCIDev"]
            to_a = sum(values[a * n + k] for k in switches)
            to_b = sum(values[b * n + k] for k in switches)
            bandwidth = values[a * n + b] + (min(to_a, to_b) if to_a and to_b else 0)
            if bandwidth:
                one = link_mbps(_info(objects[a], "GPUModel"), hwloc_release)
                return f"NV{max(1, (bandwidth + one // 2) // one)}"
    for name, label in (("XGMIBandwidth", "XGMI"), ("XGMIHops", "XGMI"), ("XeLinkBandwidth", "XL")):
        if name in mats:
            objects, values = mats[name]
            a, b = _row(objects, names_a), _row(objects, names_b)
            if a is not None and b is not None and values[a * len(objects) + b]:
                return label
    return None
