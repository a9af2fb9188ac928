import TerminalCore
extension TerminalEvent {
  /// The message the app gets for what the terminal reported.
  package var message: AppMessage {
    switch self {
    case .key(let key): .key(key)
    case .resized(let size): .resized(size)
    case .terminate(let termination): .terminate(termination)
    }
  }
}
