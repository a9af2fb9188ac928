#!/usr/bin/env python3
"""Writes Sources/PaywallCLI/Embedded/DemoFiles*.swift from paywalls/, so an installed binary carries the
demo project: `paywall-tui demo` runs it and `paywall-tui init --demo DIR` writes it out.
Every file of paywalls/ is embedded except the JSON Schemas (Schemas.swift carries those, from
scripts/embed-schemas.py), one Swift file each. DemoProjectTests checks the embedded files are
paywalls/'s, byte for byte. Edit the files in paywalls/, then run: python3 scripts/embed-demo.py"""
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
demo = root / "paywalls"
folder = root / "Sources/PaywallCLI/Embedded"
folder.mkdir(exist_ok=True)
header = [
    "// Generated from paywalls/ by scripts/embed-demo.py; DemoProjectTests checks they are the same.",
    "// Edit the files in paywalls/, then run the script.",
    "",
]
names = sorted(p.name for p in demo.iterdir() if p.is_file() and not p.name.endswith(".schema.json"))
# Only the files this script writes are replaced: a file gone from paywalls/ loses its copy.
for old in folder.glob("Demo-*.swift"):
    if old.read_text().startswith(header[0]):
        old.unlink()


def identifier(name):
    words = re.split(r"[^A-Za-z0-9]+", name)
    return "demo" + "".join(w[:1].upper() + w[1:] for w in words if w)


index = header + [
    "/// The demo project's files (paywalls/ of the source tree, its schemas aside), built into the",
    "/// binary so `demo` and `init --demo` need no source tree.",
    "package enum DemoFiles {",
    "  /// Every file by name, with its text exactly as in paywalls/.",
    "  package static let all: [(name: String, text: String)] = [",
] + [f'    ("{name}", {identifier(name)}),' for name in names] + ["  ]", "}"]
(folder / "DemoFiles.swift").write_text("\n".join(index) + "\n")
for name in names:
    text = (demo / name).read_text(encoding="utf-8")
    # A raw string ends only at `"""#` and interpolates only `\#(`: neither may appear in a file.
    assert '"""#' not in text and "\\#" not in text and "\r" not in text, f"paywalls/{name} cannot be embedded as a raw string"
    # The line break before the closing delimiter is not part of the string: one more line keeps
    # the file's own last line break.
    body = header + [
        "extension DemoFiles {",
        f"  /// paywalls/{name}.",
        f'  static let {identifier(name)} = #"""',
        text + '\n"""#',
        "}",
    ]
    (folder / f"Demo-{name.replace('.', '-')}.swift").write_text("\n".join(body) + "\n")
