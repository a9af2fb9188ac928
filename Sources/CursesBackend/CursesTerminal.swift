import CNCurses
import CTerminalGuard
#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import Synchronization
import TerminalCore

/// The ncurses backend: the only code that imports CNCurses. One dedicated thread owns every
/// ncurses call; it waits on stdin and a wake pipe with `poll` (no busy polling), decodes keys,
/// resizes, and draws the newest frame it was given (older ones are skipped). Signals arrive on the
/// same pipe through async-signal-safe handlers, so they are handled in order with everything else:
/// every signal that would end the program (SIGQUIT and SIGUSR1 as much as SIGTERM) quits through
/// the loop, so the terminal is given back and the state saved.
package final class CursesTerminal: TerminalBackend, @unchecked Sendable {
  private struct Mailbox {
    package var frame: Frame?
    /// `presentAndWait` is waiting for `frame` to be written.
    package var awaited = false
    package var stopping = false
  }

  private let mailbox = Mutex(Mailbox())
  private let onEvent: @Sendable (TerminalEvent) -> Void
  private var wakeRead: Int32 = -1
  private var wakeWrite: Int32 = -1
  private var isRunning = false
  private let started = Semaphore()
  private let finished = Semaphore()
  private let shown = Semaphore()
  private var startError: TerminalUnavailable?
  /// The size at start; later sizes come as `.resized` events.
  package private(set) var initialSize = Size(width: 80, height: 24)

  /// The size once the terminal is open.
  package var size: Size { initialSize }

  /// The kernel's size of the terminal on stdout, read without ncurses: what `size` will be once
  /// open (unless LINES/COLUMNS say otherwise), known while the terminal thread is still opening.
  package var sizeBeforeOpen: Size? {
    var rows: Int32 = 0
    var cols: Int32 = 0
    guard tg_window_size(STDOUT_FILENO, &rows, &cols) == 0, rows > 0, cols > 0 else { return nil }
    return Size(width: Int(cols), height: Int(rows))
  }

  package init(onEvent: @escaping @Sendable (TerminalEvent) -> Void) {
    self.onEvent = onEvent
  }

  /// Opens the terminal on its own thread; throws when stdin/stdout are not a terminal or TERM is unknown.
  package func start() throws(TerminalUnavailable) {
    try begin()
    try waitUntilStarted()
  }

  /// Starts the terminal thread and returns at once, so the caller can load while the thread gets
  /// ready; the thread takes the terminal only at `open` (or `waitUntilStarted`). Until then
  /// nothing is written to the terminal and its modes are untouched: a project that fails to load
  /// prints its diagnostics to a terminal as the shell left it, and `stop` ends the thread.
  package func begin() throws(TerminalUnavailable) {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      throw TerminalUnavailable(description: "stdin and stdout must be a terminal for the interactive mode; use 'paywall-tui render PATH' to print a paywall or 'paywall-tui play PATH --keys \"…\"' to script one")
    }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw TerminalUnavailable(description: "cannot create a pipe: \(String(cString: strerror(errno)))") }
    (wakeRead, wakeWrite) = (fds[0], fds[1])
    _ = fcntl(wakeRead, F_SETFL, O_NONBLOCK)
    _ = fcntl(wakeWrite, F_SETFL, O_NONBLOCK)
    guard DetachedThread.start("pwt-terminal", { [self] in self.main() }) else {
      throw TerminalUnavailable(description: "cannot start the terminal thread: \(String(cString: strerror(errno)))")
    }
    isRunning = true
  }

  /// Lets the thread `begin` started take the terminal (newterm, modes, the first output), once
  /// the caller knows it has something to show. Returns at once; `waitUntilStarted` says how it went.
  package func open() {
    release(opening: true)
  }

  /// Opens the terminal if `open` was not called, and waits for the thread `begin` started to have
  /// it open (once; later calls return).
  package func waitUntilStarted() throws(TerminalUnavailable) {
    open()
    if !hasStarted {
      started.wait()
      hasStarted = true
    }
    if let startError { throw startError }
  }

  private var hasStarted = false

  /// Whether the thread may take the terminal: nil while it waits at the gate, false when it is
  /// to end without touching the terminal (`stop` before `open`).
  private let opening = Mutex<Bool?>(nil)
  private let gate = Semaphore()

  /// Opens the gate once, for `open` (true) or `stop` (false); a later call changes nothing.
  @discardableResult
  private func release(opening value: Bool) -> Bool {
    let decided = opening.withLock { opening -> Bool in
      if let opening { return opening }
      opening = value
      gate.signal()
      return value
    }
    return decided
  }

  /// Shows `frame` as soon as the terminal thread gets to it; a newer frame replaces an unshown one.
  package func present(_ frame: Frame) {
    mailbox.withLock { $0.frame = frame }
    wake(UInt8(ascii: "F"))
  }

  /// Shows `frame` and returns once it is written (or the terminal thread has ended).
  package func presentAndWait(_ frame: Frame) {
    mailbox.withLock { mailbox in
      mailbox.frame = frame
      mailbox.awaited = true
    }
    wake(UInt8(ascii: "F"))
    shown.wait()
  }

  /// Gives the terminal back (endwin, modes, signals) and waits for the thread to finish.
  package func stop() {
    let already = mailbox.withLock { mailbox -> Bool in
      defer { mailbox.stopping = true }
      return mailbox.stopping
    }
    guard !already, isRunning else { return }
    // Never opened: the thread ends at the gate, having written nothing.
    if release(opening: false) { wake(UInt8(ascii: "Q")) }
    finished.wait()
  }

  private func wake(_ byte: UInt8) {
    var b = byte
    _ = write(wakeWrite, &b, 1)
  }

  // MARK: - The terminal thread

  private var colors = ColorScheme.monochrome

  private func main() {
    // Wide characters need a UTF-8 character type; fall back to C.UTF-8 when the environment has
    // none. Only LC_CTYPE: ncurses needs nothing else, and loading every category cost the first
    // paint a quarter of a millisecond.
    setlocale(LC_CTYPE, "")
    if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
    // Nothing above touches the terminal; everything below does. The caller opens the gate once
    // the project has loaded, or ends the thread here when it did not.
    gate.wait()
    guard opening.withLock({ $0 }) == true else {
      startError = TerminalUnavailable(description: "the terminal was given back before it opened")
      started.signal()
      finished.signal()
      return
    }
    _ = tg_save_terminal(STDIN_FILENO)
    // newterm, unlike initscr, returns NULL on an unknown TERM instead of exiting.
    let term = ProcessEnvironment.value("TERM") ?? "(unset)"
    let remedy = "set TERM=xterm-256color, or use 'paywall-tui render' / 'paywall-tui play'"
    guard let screen = newterm(nil, fdopen(STDOUT_FILENO, "w"), fdopen(STDIN_FILENO, "r")) else {
      return refuse("unknown terminal type \(quoting: term) (TERM); \(remedy)")
    }
    _ = set_term(screen)
    // A terminal that cannot move the cursor (TERM=dumb) can show no screen: ncurses would draw
    // only the last line. Refused like an unknown one, before anything is written to it.
    guard pw_has_cursor_addressing() else {
      delscreen(screen)
      return refuse("terminal type \(quoting: term) (TERM) cannot move the cursor; \(remedy)")
    }
    let window = pw_stdscr()
    cbreak()
    noecho()
    nonl()
    // From here on ncurses only writes to stdout (the mode calls above set the terminal through
    // it): what it writes goes out in one piece with the first frame, and each frame after in one.
    output = tg_batch_open(STDOUT_FILENO)
    batch { colors = CursesPainter.configure(window, noColor: ProcessEnvironment.value("NO_COLOR") != nil) }
    nodelay(window, true)
    set_escdelay(25)  // Esc answers at once, not after ncurses' default second
    mouseinterval(0)
    tg_install_signal_pipe(wakeWrite)
    tg_install_crash_handlers()
    initialSize = Size(width: Int(pw_getmaxx(window)), height: Int(pw_getmaxy(window)))
    started.signal()

    var running = true
    // Once the terminal has gone (a hangup), stdin stays readable at end of file forever: stop
    // polling it, or this loop spins and reports the hangup over and over.
    var inputOpen = true
    // Keys are read once the first frame is out: one typed while the app starts waits in the
    // terminal until then, and applies to the screen the user sees. Read sooner, it could reach
    // the app before the paywall was opened and be spent on the screen behind it (a Right typed
    // at launch was lost about one time in ten). Key reading is set up at that point too, in a
    // write of its own (`CursesPainter.enableInput`).
    var inputEnabled = false
    while running {
      var fds = [pollfd(fd: inputOpen && inputEnabled ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
                 pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
      let ready = poll(&fds, 2, -1)
      if ready < 0 && errno != EINTR { break }
      if fds[1].revents & Int16(POLLIN) != 0 { running = handleWake(window) }
      if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        if !readKeys(window) {
          inputOpen = false
          onEvent(.terminate(Termination(signal: nil)))
        }
      }
      if running, let (frame, awaited) = mailbox.withLock({ mailbox -> (Frame, Bool)? in
        defer { (mailbox.frame, mailbox.awaited) = (nil, false) }
        return mailbox.frame.map { ($0, mailbox.awaited) }
      }) {
        draw(frame, window)
        if awaited { shown.signal() }
        if !inputEnabled {
          inputEnabled = true
          batch(send: true) { CursesPainter.enableInput(window) }
        }
      }
    }
    if mailbox.withLock({ $0.awaited }) { shown.signal() }
    tg_batch_close(output)
    output = nil
    endwin()
    delscreen(screen)
    tg_reset_signals()
    tg_restore_terminal()
    tg_forget_terminal()
    finished.signal()
  }

  /// Ends the terminal thread before the terminal was taken: `start` throws `description`.
  private func refuse(_ description: String) {
    // newterm may already have set its modes (TERM=dumb): put the saved ones back, without the
    // reset sequences, which such a terminal would show as they are.
    tg_restore_modes()
    tg_forget_terminal()
    startError = TerminalUnavailable(description: description)
    started.signal()
    finished.signal()
  }

  /// Reads the wake pipe; false when asked to stop.
  private func handleWake(_ window: UnsafeMutablePointer<WINDOW>?) -> Bool {
    var bytes = [UInt8](repeating: 0, count: 64)
    var keepGoing = true
    while true {
      let n = read(wakeRead, &bytes, bytes.count)
      if n <= 0 { break }
      for byte in bytes.prefix(n) {
        switch byte {
        case UInt8(ascii: "W"):
          var rows: Int32 = 0
          var cols: Int32 = 0
          if tg_window_size(STDOUT_FILENO, &rows, &cols) == 0 && rows > 0 && cols > 0 {
            resizeterm(rows, cols)
            onEvent(.resized(Size(width: Int(cols), height: Int(rows))))
          }
        case 1..<32: onEvent(.terminate(Termination(signal: Int32(byte))))  // the signal pipe: an ending signal's number
        case UInt8(ascii: "Q"): keepGoing = false
        default: break
        }
      }
    }
    return keepGoing
  }

  /// Decodes every key ncurses has queued; false at end of input.
  private func readKeys(_ window: UnsafeMutablePointer<WINDOW>?) -> Bool {
    var sawAny = false
    while true {
      var code: wint_t = 0
      let result = wget_wch(window, &code)
      if result == pw_err() { break }
      sawAny = true
      if result == pw_key_code_yes() {
        if let key = functionKey(Int32(code)) { onEvent(.key(key)) }
        if Int32(code) == pw_key_resize() {
          onEvent(.resized(Size(width: Int(pw_getmaxx(window)), height: Int(pw_getmaxy(window)))))
        }
      } else if let key = characterKey(UInt32(code)) {
        onEvent(.key(key))
      }
    }
    // poll said readable but nothing came: stdin is at end of file (the terminal went away).
    if !sawAny {
      var probe = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
      _ = poll(&probe, 1, 0)
      if probe.revents & Int16(POLLHUP) != 0 { return false }
    }
    return true
  }

  private func functionKey(_ code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case pw_key_btab(): return .backTab
    case KEY_ENTER: return .enter
    case KEY_BACKSPACE: return .backspace
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_HOME: return .home
    case KEY_END: return .end
    case pw_key_mouse():
      var event = MEVENT()
      guard getmouse(&event) == pw_ok() else { return nil }
      let buttons = event.bstate
      guard buttons & (pw_button1_clicked() | pw_button1_pressed()) != 0 else { return nil }
      return .click(x: Int(event.x), y: Int(event.y))
    default: return nil
    }
  }

  private func characterKey(_ code: UInt32) -> Key? {
    switch code {
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 32: return .space
    case 8, 127: return .backspace
    case 3: return nil  // Ctrl-C arrives as SIGINT in cbreak mode
    default:
      guard code >= 0x20, let scalar = Unicode.Scalar(code) else { return nil }
      return .character(Character(scalar))
    }
  }

  /// Full redraw into ncurses' buffer; `doupdate` sends only what changed since the last frame.
  private func draw(_ frame: Frame, _ window: UnsafeMutablePointer<WINDOW>?) {
    CursesPainter.paint(frame, on: window, colors: colors)
    batch(send: true) { doupdate() }
  }

  /// Gathers ncurses' output to send it in one write (Linux; nil elsewhere).
  private var output: OpaquePointer?

  /// Runs `body` with stdout gathered; `send` writes everything gathered so far in one piece,
  /// otherwise it waits for the next batch that sends. ncurses 6.4 flushes after every cursor move,
  /// so unbatched a first paint is some thirty writes, each a wakeup and a half-drawn screen for
  /// the terminal reading it.
  private func batch(send: Bool = false, _ body: () -> Void) {
    guard tg_batch_begin(output) == 0 else { return body() }
    body()
    _ = tg_batch_end(output, send ? 1 : 0)
  }
}
