#!/usr/bin/env python3
"""drop_appended.py BASELINE CURRENT OUT GROWABLE: CURRENT's abidw XML with the one change the
ABI policy allows taken out, for abidiff against BASELINE (ci/abi_check.sh, docs/abi.md).

For each struct named in GROWABLE (one name a line, # comments) that BASELINE defines with N data
members, the definition in CURRENT keeps its first N data members and BASELINE's size; the
members past them (appended at the end, in the tail padding or beyond) are dropped and listed on
stdout. Nothing else is touched, so abidiff still reports any change to the first N members
(removed, reordered, retyped, moved), to the other structs, and to every function."""
import sys
import xml.etree.ElementTree as ET


def definitions(root, names):
    for el in root.iter("class-decl"):
        if el.get("name") in names and el.get("is-declaration-only") != "yes":
            yield el


def member_name(dm):
    var = dm.find("var-decl")
    return var.get("name") if var is not None else "?"


def main():
    baseline, current, out, growable = sys.argv[1:5]
    with open(growable, encoding="utf-8") as f:
        names = {line.split("#")[0].strip() for line in f} - {""}
    base = {}
    for el in definitions(ET.parse(baseline).getroot(), names):
        base[el.get("name")] = (len(el.findall("data-member")), el.get("size-in-bits"))
    missing = names - set(base)
    if missing:
        sys.exit("drop_appended.py: not structs of the baseline: " + ", ".join(sorted(missing)))
    tree = ET.parse(current)
    seen = set()
    for el in definitions(tree.getroot(), names):
        name = el.get("name")
        n, size = base[name]
        members = el.findall("data-member")
        for dm in members[n:]:
            el.remove(dm)
            if name not in seen:
                print(f"  {name}: appended since 0.1.0: {member_name(dm)}")
        if len(members) > n:
            el.set("size-in-bits", size)
        seen.add(name)
    tree.write(out, encoding="utf-8", xml_declaration=False)


if __name__ == "__main__":
    main()
