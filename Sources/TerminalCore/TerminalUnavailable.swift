/// Why the terminal could not be opened; the CLI exits with code 3 and points at render/play.
public struct TerminalUnavailable: Error, CustomStringConvertible {
  /// What was missing, in one line: stdin or stdout not a terminal, an unknown `TERM`, a
  /// terminal that cannot move the cursor.
  public var description: String

  package init(description: String) { self.description = description }
}
