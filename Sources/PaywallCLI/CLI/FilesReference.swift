import PaywallModel
import PaywallScenarios

/// Everything paywall-tui writes to the disk, as `docs/reference/files.md` lists it: made from the
/// commands' own options (their names and help) and the state directory's own list of files, so
/// an option that writes a file, or a state file, cannot be added without the page naming it.
/// Every option whose value is a file or a directory is one of `writers` or `readers`
/// (`FilesReferenceTests` holds that), so a new one must be put on one side.
package enum FilesReference {
  /// An option that makes paywall-tui write, and how it writes.
  package struct Writer: Sendable {
    /// The commands that take it.
    package var commands: String
    package var option: any CommandOption
    /// How the file is written (whole, appended, a directory of files), and what is refused.
    package var how: String
  }

  /// Options that write, each with how.
  package static let writers: [Writer] = [
    Writer(commands: "run", option: RunFlags.record,
           how: "whole; an existing file only if it is a recording (its first line `\(SessionRecorder.marker)`)"),
    Writer(commands: "play", option: PlayFlags.record, how: "whole"),
    Writer(commands: "play", option: PlayFlags.screenshotEvery,
           how: "a directory of SVGs, one a step (`000-start.svg`, `001-press-down.svg`); each whole"),
    Writer(commands: "run, play", option: SessionFlags.events,
           how: "appended, a JSON line an event; never through a link (`O_NOFOLLOW`), nor to a file with a second name (a hard link)"),
    Writer(commands: "render", option: RenderFlags.out, how: "whole"),
    Writer(commands: "test", option: TestFlags.junit, how: "whole"),
    Writer(commands: "import superwall", option: ImportFlags.out,
           how: "a project directory: a new or empty one, or with `--force` one an import wrote, where only the files it listed in `\(ImportedProjectWriter.manifestName)` are replaced and the rest is left as it is; made beside it and renamed into place"),
    Writer(commands: "run, play", option: SessionFlags.stateDir,
           how: "the state directory (below): `run` writes it by default, `play` only when given"),
  ]

  /// Options whose file or directory is only read.
  package static let readers: [any CommandOption] = [
    ProjectFlags.catalog, ValidateFlags.catalog, ExplainFlags.catalog, ImportFlags.catalog, ImportFlags.layout,
    PlayFlags.script, StoreFlags.stateDir, ExplainFlags.stateDir,
  ]

  /// The page's generated part: the writing options, the script step and `init`, then the state
  /// directory's files.
  package static var markdown: String {
    var lines = [
      "| command | option | what it writes | how |",
      "|---|---|---|---|",
    ]
    for writer in writers {
      let option = "`--\(writer.option.name)" + (writer.option.placeholder.map { " \($0.uppercased())`" } ?? "`")
      lines.append("| \(writer.commands) | \(option) | \(cell(writer.option.help)) | \(cell(writer.how)) |")
    }
    lines.append("| play, test | a script's `screenshot FILE` | the screen as it is then, SVG, HTML or text by the extension | whole |")
    let starter = InitCommand.files(name: "app").map { "`\($0.path)`" }.joined(separator: ", ")
    let demo = EmbeddedDemo.files.map { "`\($0.path)`" }.joined(separator: ", ")
    lines.append("| init | `DIR` | the starter project: \(starter); with `--demo` the demo project: \(demo) | each whole; nothing at all when one of them is there already |")
    lines += [
      "",
      "The state directory (`--state-dir`, else `$XDG_STATE_HOME/paywall-tui/PROJECT`, else",
      "`~/.local/state/paywall-tui/PROJECT`) holds these, each written whole, with the last good copy",
      "as `NAME.bak`; a damaged one is set aside as `NAME.corrupt-TIMESTAMP` with a warning:",
      "",
      "| file | holds |",
      "|---|---|",
    ]
    for file in StateDirectory.stateFiles {
      lines.append("| `\(file.name)` | \(cell(file.holds)) |")
    }
    lines.append("| `\(StateLock.fileName)` | the pid of the session writing here, under an exclusive `flock` the kernel drops when it ends; a second session reads and writes nothing |")
    return lines.joined(separator: "\n")
  }

  private static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|")
  }
}
