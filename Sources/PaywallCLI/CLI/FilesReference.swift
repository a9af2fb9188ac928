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
    package var option: any CommandOption
    /// How the file is written (whole, appended, a directory of files), and what is refused.
    package var how: String

    init(_ option: any CommandOption, how: String) {
      self.option = option
      self.how = how
    }

    /// The commands that take it, from their own option lists.
    package var commands: String {
      Completion.commands.filter { command in command.options.contains { $0.name == option.name && $0.help == option.help } }
        .map(\.name).joined(separator: ", ")
    }
  }

  /// Options that write, each with how.
  package static let writers: [Writer] = [
    Writer(RunFlags.record, how: "whole; an existing file only if it is a recording (its second line starts `\(SessionRecorder.marker)`)"),
    Writer(PlayFlags.record, how: "whole"),
    Writer(PlayFlags.screenshotEvery, how: "a directory of SVGs, one a step (`000-start.svg`, `001-press-down.svg`); each whole"),
    Writer(SessionFlags.events,
           how: "appended, a JSON line an event, in a folder that is there (none is made); never through a link under `test` (`O_NOFOLLOW`), nor to a file with a second name (a hard link)"),
    Writer(RenderFlags.out, how: "whole"),
    Writer(TestFlags.junit, how: "whole"),
    Writer(ImportFlags.out,
           how: "a project directory: a new or empty one, or with `--force` one an import wrote, where only the files it listed in `\(ImportedProjectWriter.manifestName)` are replaced and the rest is left as it is; made beside it and renamed into place"),
    Writer(SessionFlags.stateDir, how: "the state directory (below): `run` and `demo` write it by default, `play` only when given"),
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
    lines.append("| demo | (none) | the demo project (\(demo)) in `$XDG_CACHE_HOME/paywall-tui/demo`, else `~/.cache/paywall-tui/demo` | each whole, when it differs from the one the binary carries (a file edited there is put back) |")
    lines += [
      "",
      "The state directory (`--state-dir`, else `$XDG_STATE_HOME/paywall-tui/PROJECT`, else",
      "`~/.local/state/paywall-tui/PROJECT`; each store of a cross-platform project has one of its own, as",
      "two phones have two accounts) holds these, each written whole, with the last good copy",
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
