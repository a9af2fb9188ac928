#!/usr/bin/env python3
"""Writes Sources/PaywallCLI/Embedded/Schemas*.swift from paywalls/*.schema.json, so `init` and `schema`
carry the same schemas the repository ships (InitCommandTests checks they are the same). One Swift
file a schema, so no generated file grows past what a reader can page through.
Edit the .schema.json files, then run: python3 scripts/embed-schemas.py"""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
folder = root / "Sources/PaywallCLI/Embedded"
folder.mkdir(exist_ok=True)
header = [
    "// Generated from paywalls/*.schema.json by scripts/embed-schemas.py; InitCommandTests checks they",
    "// are the same. Edit the .schema.json files, then run the script.",
    "",
]
names = ["app", "catalog", "paywall"]
# Only the files this script writes are replaced: a schema dropped from the list loses its file.
for old in folder.glob("Schema-*.swift"):
    if old.read_text().startswith(header[0]):
        old.unlink()
index = header + [
    "/// The JSON Schemas of the project files, built into the binary so `init` and `schema` can write",
    "/// them wherever a project lives.",
    "package enum Schemas {",
    "  /// Every schema by name (`app`, `catalog`, `paywall`), written as `NAME.schema.json`.",
    "  package static let all: [(name: String, text: String)] = [",
] + [f'    ("{name}", {name}Schema),' for name in names] + ["  ]", "}"]
(folder / "Schemas.swift").write_text("\n".join(index) + "\n")
for name in names:
    text = (root / "paywalls" / f"{name}.schema.json").read_text()
    assert '"""#' not in text
    body = header + [
        "extension Schemas {",
        f"  /// paywalls/{name}.schema.json.",
        f'  static let {name}Schema = #"""',
        text.rstrip("\n"),
        '"""#',
        "}",
    ]
    (folder / f"Schema-{name}.swift").write_text("\n".join(body) + "\n")
