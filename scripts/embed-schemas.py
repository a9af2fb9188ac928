#!/usr/bin/env python3
"""Writes Sources/PaywallCLI/CLI/Schemas.swift from paywalls/*.schema.json, so `init` and `schema`
carry the same schemas the repository ships (InitCommandTests checks they are the same)."""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
out = [
    "// Generated from paywalls/*.schema.json by scripts/embed-schemas.py; InitCommandTests checks they",
    "// are the same. Edit the .schema.json files, then run the script.",
    "",
    "/// The JSON Schemas of the project files, built into the binary so `init` and `schema` can write",
    "/// them wherever a project lives.",
    "package enum Schemas {",
    "  /// Every schema by name (`app`, `catalog`, `paywall`), written as `NAME.schema.json`.",
    "  package static let all: [(name: String, text: String)] = [",
]
for name in ["app", "catalog", "paywall"]:
    text = (root / "paywalls" / f"{name}.schema.json").read_text()
    assert '"""#' not in text
    out += [f'    ("{name}", #"""', text.rstrip("\n"), '"""#),']
out += ["  ]", "}"]
(root / "Sources/PaywallCLI/CLI/Schemas.swift").write_text("\n".join(out) + "\n")
