#ifndef PAYWALL_TUI_TERMINAL_GUARD_H
#define PAYWALL_TUI_TERMINAL_GUARD_H

#include <stddef.h>

/// Saves the terminal's settings (termios of `fd`) so every exit path can put them back, and keeps a
/// duplicate of stdout for the restore to write to.
/// Returns 0 on success, -1 if `fd` is not a terminal.
int tg_save_terminal(int fd);

/// Puts back the saved settings and writes the sequences that leave the alternate screen, show the
/// cursor, reset attributes and stop mouse reporting. Async-signal-safe.
void tg_restore_terminal(void);

/// Puts back only the saved settings (termios), writing nothing: for a terminal that was refused,
/// where the sequences `tg_restore_terminal` writes could show as garbage (TERM=dumb).
void tg_restore_modes(void);

/// Forgets the saved settings once the terminal is given back normally, so a signal after that
/// leaves the terminal alone.
void tg_forget_terminal(void);

/// Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGTRAP (a Swift trap), SIGABRT and SIGFPE that
/// restore the terminal, call the exit hook, then re-raise the signal with its default action.
/// They replace the Swift runtime's crash handlers, so no crash report or 30-second "Press space"
/// prompt ever draws over the screen.
void tg_install_crash_handlers(void);

/// The command line's handlers, installed first thing for every command: the crash handlers
/// above, and for every other signal that ends a program (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
/// SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF) a handler that
/// restores the terminal (when one was saved), calls the exit hook, then ends the program: SIGQUIT,
/// SIGXCPU and SIGXFSZ (whose default dumps core) with exit status 128 + N, the others by
/// re-raising themselves. A signal already ignored (nohup, a background job) stays ignored. A
/// SIGPIPE the kernel raises for a write to a pipe with no reader is not an ending: the write
/// fails with EPIPE and the writer reports it. These signals (and SIGWINCH) are unblocked on the
/// calling thread, so a parent that started us with them blocked cannot make us deaf to them.
void tg_install_process_handlers(void);

/// Called (with the signal number) by every handler above just before the program dies of a
/// signal, after the terminal is restored. Must be async-signal-safe (e.g. `kill` a process group).
/// NULL (the default) for none.
void tg_set_exit_hook(void (*hook)(int));

/* Sets the function an ending signal (not a fault) calls first, to write out output the program
   holds back to write in batches: what was emitted before the signal is not lost. It must be
   async-signal-safe; NULL removes it. */
void tg_set_flush_hook(void (*hook)(void));

/* For a flush hook: writes `count` bytes of whole lines to `fd`, in pieces of at most PIPE_BUF
   bytes ending at a line end where one is in reach, each once poll(2) says `fd` takes more. It
   gives up, between two pieces, when `timeout_ms` pass with nothing taken (a full pipe nobody
   reads, a terminal stopped with Ctrl-S): the handler always goes on to end the process.
   Async-signal-safe. */
void tg_write_lines_bounded(int fd, const char *bytes, size_t count, int timeout_ms);

/* exit(code), unless a signal's handler (a fault's or an ending signal's) is already ending the
   process on another thread: then this thread waits for it, so the process ends as the signal
   says. */
void tg_exit(int code);

/// From here until `tg_release_ending_signals`, an ending signal that reaches the handlers of
/// `tg_install_process_handlers` is held instead of ending the program: for the orderly end of a
/// session (its recording's ending, its state), which such a signal would cut short. The SIGHUP of
/// a terminal that went away comes a moment after its input ended the loop, when the shell that
/// owned the terminal has died, so it lands there. Ctrl-C while the terminal opens is not lost: a
/// signal held when `tg_install_signal_pipe` runs goes down the pipe, for the loop to quit.
void tg_hold_ending_signals(void);

/// Ends the hold: a signal that came during it now ends the program as it would have (terminal,
/// exit hook, then the signal itself or 128 + N); otherwise returns.
void tg_release_ending_signals(void);

/// While the interactive loop runs: SIGWINCH writes 'W' to `fd`, and every ending signal above
/// writes its own number (one byte, 1–31), so the terminal thread handles them in order with
/// everything else and the app quits through its loop. Async-signal-safe handlers. What was
/// installed before is kept for `tg_reset_signals`.
void tg_install_signal_pipe(int fd);

/// Puts back what `tg_install_signal_pipe` replaced (after the terminal is given back).
void tg_reset_signals(void);

/// The terminal's size from TIOCGWINSZ; 0 on success.
int tg_window_size(int fd, int *rows, int *cols);

/// Output batching. ncurses 6.4 flushes after every cursor move, so one doupdate reaches the
/// terminal as dozens of write()s, each a wakeup and a half-drawn screen for whoever reads the
/// terminal. While a batch is open, the batched descriptor points at an in-memory file; ending it
/// sends everything written since in one write. Linux only (memfd): elsewhere open returns NULL
/// and callers write unbatched.
typedef struct tg_batch tg_batch;

/// Prepares to batch what is written to `fd` (keeps a duplicate of it to send to); NULL when
/// batching is not available.
tg_batch *tg_batch_open(int fd);

/// Points the descriptor at the batch file; 0 on success, -1 without a batch or when one is open.
int tg_batch_begin(tg_batch *batch);

/// Points the descriptor back. With `send`, writes everything batched so far (this batch and
/// earlier unsent ones) in one write and empties the file; without, keeps the bytes for the next
/// batch that sends. 0 on success.
int tg_batch_end(tg_batch *batch, int send);

/// Ends an open batch without sending and frees everything.
void tg_batch_close(tg_batch *batch);

#endif
