#!/usr/bin/env python3
"""Validates JSON lines against a JSON Schema that uses only the keywords below, so the tests
need no `jsonschema` package. A keyword outside the subset is an error, never ignored: a schema
cannot pass here by using something this file does not check.

    python3 scripts/json-schema-subset.py SCHEMA.json [--def NAME] FILE.jsonl...

Each line of each FILE (blank lines skipped) is validated against the schema, or its
`$defs/NAME`. Prints `FILE:LINE: what is wrong (at $.path)` for each bad line; exit 1 if any, 2 for
a usage error or a keyword outside the subset.
"""
import json
import sys

KNOWN = {"$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties", "required",
         "additionalProperties", "items", "enum", "const", "oneOf", "pattern", "minimum"}
TYPES = {"object": dict, "array": list, "string": str, "null": type(None), "boolean": bool}


class SchemaError(Exception):
    pass


def matches_type(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name not in TYPES:
        raise SchemaError(f"unknown type {name!r}")
    return isinstance(value, TYPES[name])


def errors(value, schema, root, path="$"):
    """The problems of value against schema, as strings; empty when it is valid."""
    unknown = set(schema) - KNOWN
    if unknown:
        raise SchemaError(f"keywords outside the subset this validator checks: {sorted(unknown)}")
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/") or ref[8:] not in root.get("$defs", {}):
            raise SchemaError(f"unresolvable $ref {ref!r}")
        found = errors(value, root["$defs"][ref[8:]], root, path)
        if found:
            return found
    if "type" in schema and not matches_type(value, schema["type"]):
        return [f"{json.dumps(value)[:60]} is not of type {schema['type']} (at {path})"]
    if "const" in schema and value != schema["const"]:
        return [f"{json.dumps(value)[:60]} is not {json.dumps(schema['const'])} (at {path})"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{json.dumps(value)[:60]} is not one of {schema['enum']} (at {path})"]
    if "pattern" in schema and isinstance(value, str):
        import re
        if not re.search(schema["pattern"], value):
            return [f"{value!r} does not match {schema['pattern']!r} (at {path})"]
    if "minimum" in schema and isinstance(value, (int, float)) and value < schema["minimum"]:
        return [f"{value} is less than {schema['minimum']} (at {path})"]
    problems = []
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                problems.append(f"{key!r} is required (at {path})")
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                problems += errors(item, properties[key], root, f"{path}.{key}")
            elif schema.get("additionalProperties", True) is False:
                problems.append(f"{key!r} is not a property the schema allows (at {path})")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            problems += errors(item, schema["items"], root, f"{path}[{index}]")
    if "oneOf" in schema:
        results = [errors(value, option, root, path) for option in schema["oneOf"]]
        passed = sum(1 for r in results if not r)
        if passed != 1:
            closest = min(results, key=len) if passed == 0 else []
            problems.append(f"matches {passed} of the {len(results)} choices, not exactly one (at {path})"
                            + (f": {'; '.join(closest)}" if closest else ""))
    return problems


def main(argv):
    args = list(argv)
    if len(args) < 2:
        sys.exit(__doc__)
    with open(args.pop(0)) as f:
        root = json.load(f)
    schema = root
    if args[:1] == ["--def"]:
        args.pop(0)
        name = args.pop(0)
        schema = {"$ref": f"#/$defs/{name}"}
    bad = 0
    try:
        for file in args:
            with open(file) as f:
                for number, line in enumerate(f, 1):
                    if not line.strip():
                        continue
                    try:
                        value = json.loads(line)
                    except ValueError as error:
                        print(f"{file}:{number}: not JSON: {error}")
                        bad += 1
                        continue
                    for problem in errors(value, schema, root):
                        print(f"{file}:{number}: {problem}")
                        bad += 1
    except SchemaError as error:
        print(f"schema: {error}", file=sys.stderr)
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
