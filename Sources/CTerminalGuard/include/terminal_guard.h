#ifndef PAYWALL_TUI_TERMINAL_GUARD_H
#define PAYWALL_TUI_TERMINAL_GUARD_H

/// Saves the terminal's settings (termios of `fd`) so every exit path can put them back.
/// Returns 0 on success, -1 if `fd` is not a terminal.
int tg_save_terminal(int fd);

/// Puts back the saved settings and writes the sequences that leave the alternate screen, show the
/// cursor, reset attributes and stop mouse reporting. Async-signal-safe.
void tg_restore_terminal(void);

/// Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGTRAP (a Swift trap), SIGABRT and SIGFPE that
/// restore the terminal, then re-raise the signal with its default action (no crash prompt).
void tg_install_crash_handlers(void);

/// Routes SIGWINCH, SIGINT, SIGTERM and SIGHUP to a byte written to `fd` ('W', 'I', 'T', 'H'), so
/// the terminal thread handles them in order with everything else. Async-signal-safe handlers.
void tg_install_signal_pipe(int fd);

/// Restores the default action of the signals above (after the terminal is given back).
void tg_reset_signals(void);

/// The terminal's size from TIOCGWINSZ; 0 on success.
int tg_window_size(int fd, int *rows, int *cols);

#endif
