/// Sees every message the runtime handles, on the loop's thread, before and after `update`: how
/// `run --record` writes the session as a script without the app knowing scripts exist.
package protocol DispatchObserver: AnyObject {
  /// `message` is about to be handled.
  func willDispatch(_ message: AppMessage)
  /// `message` was handled and returned `effects`.
  func didDispatch(_ message: AppMessage, effects: [AppEffect])
}
