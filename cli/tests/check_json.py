#!/usr/bin/python3
"""Validates a ggufsafe JSON report against its schema and checks expected values.

usage: check_json.py SCHEMA REPORT [EXPECT ...]

EXPECT is POINTER=JSON: a JSON Pointer (RFC 6901) into the report and the JSON text of the value
expected there, compared exactly (integers as Python ints, so u64 values are not rounded), or
kv:KEY=JSON for the value of the metadata pair whose key is KEY.

Runs under Debian's /usr/bin/python3 with python3-jsonschema. Exit status: 0 valid and every
expectation met, 1 otherwise, 3 when the jsonschema module is missing (a failure, not a skip).
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check_json.py: the jsonschema module is missing (apt-get install python3-jsonschema)",
          file=sys.stderr)
    sys.exit(3)


def resolve(doc, pointer):
    if pointer == "":
        return doc
    if not pointer.startswith("/"):
        raise KeyError(f"not a JSON Pointer: {pointer!r}")
    node = doc
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def metadata_value(doc, key):
    for entry in doc["metadata"]:
        if entry["key"] == key:
            return entry["value"] if "value" in entry else entry
    raise KeyError(f"no metadata key {key!r}")


def same(a, b):
    # bool is an int in Python: keep true distinct from 1, and 1 distinct from 1.0.
    return type(a) is type(b) and a == b


def validator(validator_class, schema, path):
    """A validator that resolves $ref to the other schemas of the same folder by their $id
    (certify-multi.schema.json refers to certify.schema.json), never over the network."""
    import os
    folder = os.path.dirname(os.path.abspath(path))
    siblings = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                doc = json.load(f)
            if "$id" in doc:
                siblings[doc["$id"]] = doc
    try:
        import referencing
        import referencing.jsonschema
        registry = referencing.Registry().with_resources(
            (uri, referencing.Resource.from_contents(
                doc, default_specification=referencing.jsonschema.DRAFT202012))
            for uri, doc in siblings.items())
        return validator_class(schema, registry=registry)
    except ImportError:  # jsonschema before 4.18
        resolver = jsonschema.RefResolver.from_schema(schema, store=siblings)
        return validator_class(schema, resolver=resolver)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    with open(argv[2], encoding="utf-8") as f:
        report = json.load(f)

    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    errors = sorted(validator(validator_class, schema, argv[1]).iter_errors(report),
                    key=lambda e: list(e.path))
    for e in errors[:20]:
        print(f"schema: at /{'/'.join(str(p) for p in e.path)}: {e.message[:400]}",
              file=sys.stderr)
    ok = not errors

    for expect in argv[3:]:
        where, _, text = expect.partition("=")
        wanted = json.loads(text)
        try:
            if where.startswith("kv:"):
                got = metadata_value(report, where[3:])
            else:
                got = resolve(report, where)
        except (KeyError, IndexError, ValueError, TypeError) as e:
            print(f"expect {where}: not found ({e})", file=sys.stderr)
            ok = False
            continue
        if not same(got, wanted):
            print(f"expect {where}: got {got!r}, wanted {wanted!r}", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
