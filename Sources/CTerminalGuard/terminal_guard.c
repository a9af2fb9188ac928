#define _GNU_SOURCE  /* memfd_create */
#include "terminal_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_termios;
static volatile sig_atomic_t saved_fd = -1;
static volatile sig_atomic_t signal_pipe = -1;
/* A duplicate of stdout taken at save time: the restore writes there even while a batch has
   STDOUT_FILENO pointing at its in-memory file. */
static volatile sig_atomic_t terminal_out = -1;
static void (*volatile exit_hook)(int) = NULL;
/* While set, the first ending signal that reaches the process handlers is kept in `held_signal`
   instead of ending the program (`tg_release_ending_signals` acts on it); a second one ends it. */
static volatile sig_atomic_t holding = 0;
static volatile sig_atomic_t held_signal = 0;

/* Leave the alternate screen, show the cursor, reset attributes, stop mouse reporting,
   leave keypad-transmit mode. */
static const char reset_sequence[] = "\033[?1000l\033[?1002l\033[?1006l\033[0m\033[?25h\033[?1049l\033[?1l\033>";

/* Faults: the program cannot go on. Their default action dumps core. */
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
#define CRASH_COUNT (sizeof crash_signals / sizeof crash_signals[0])

/* Every other signal whose default action ends the program (SIGKILL and SIGSTOP aside). */
static const int ending_signals[] = {
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};
#define ENDING_COUNT (sizeof ending_signals / sizeof ending_signals[0])

/* What the signal pipe replaced, put back when it is taken down (the process handlers for the
   command line; whatever a library user had otherwise). */
static struct sigaction replaced[ENDING_COUNT + 1];
static int has_replaced = 0;

int tg_save_terminal(int fd) {
  if (tcgetattr(fd, &saved_termios) != 0) { return -1; }
  if (terminal_out < 0) { terminal_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3); }
  saved_fd = fd;
  return 0;
}

void tg_restore_modes(void) {
  int fd = saved_fd;
  if (fd < 0) { return; }
  int saved_errno = errno;
  tcsetattr(fd, TCSAFLUSH, &saved_termios);
  errno = saved_errno;
}

void tg_restore_terminal(void) {
  if (saved_fd < 0) { return; }
  int saved_errno = errno;
  int out = terminal_out >= 0 ? terminal_out : STDOUT_FILENO;
  ssize_t ignored = write(out, reset_sequence, sizeof reset_sequence - 1);
  (void)ignored;
  errno = saved_errno;
  tg_restore_modes();
}

void tg_forget_terminal(void) {
  saved_fd = -1;
}

void tg_set_exit_hook(void (*hook)(int)) {
  exit_hook = hook;
}

/* Not called on a fault: the program's memory cannot be trusted then. */
static void (*volatile flush_hook)(void) = NULL;

void tg_set_flush_hook(void (*hook)(void)) {
  flush_hook = hook;
}

void tg_write_lines_bounded(int fd, const char *bytes, size_t count, int timeout_ms) {
  size_t done = 0;
  while (done < count) {
    struct pollfd target = { .fd = fd, .events = POLLOUT, .revents = 0 };
    int ready = poll(&target, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) { continue; }
    if (ready <= 0 || (target.revents & POLLOUT) == 0) { return; }
    size_t piece = count - done;
    if (piece > PIPE_BUF) {
      size_t end = PIPE_BUF;
      while (end > 0 && bytes[done + end - 1] != '\n') { end--; }
      piece = end > 0 ? end : PIPE_BUF;
    }
    ssize_t written = write(fd, bytes + done, piece);
    if (written < 0) {
      if (errno == EINTR) { continue; }
      return;
    }
    done += (size_t)written;
  }
}

/* Everything a signal that ends the program does first: the terminal back, then the hook. */
static void before_dying(int sig) {
  tg_restore_terminal();
  void (*hook)(int) = exit_hook;
  if (hook != NULL) { hook(sig); }
}

/* Dies of `sig` with its default action, as if no handler had been installed. */
static void die_of(int sig) {
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  _exit(128 + sig);
}

/* The signal the process is dying of, once a handler began to end it. The command's own thread
   must not end the process first with its own exit code (`tg_exit`) while the handler ends the
   controllers and re-raises: the handler runs on whichever thread the kernel picked, often the
   main thread waiting in `pause`, and a `play` sent SIGSEGV once exited 0, its thread having
   seen the killed controller go before the handler reached `raise`. */
static volatile sig_atomic_t dying_of = 0;

static void crash_handler(int sig) {
  dying_of = sig;
  before_dying(sig);
  die_of(sig);
}

/* A SIGPIPE the kernel sends for a write to a pipe or socket with no reader comes "from" this
   very process (SI_USER, our pid). Such a write fails with EPIPE, and the writer handles that;
   only a SIGPIPE sent by someone else (kill -PIPE) ends the program. */
static int is_own_sigpipe(int sig, const siginfo_t *info) {
  return sig == SIGPIPE && info != NULL && info->si_code == SI_USER && info->si_pid == getpid();
}

/* Outside the interactive loop: restore, run the hook, and end. Signals whose default action
   is to terminate kill us with themselves (a shell sees exactly what it would without a
   handler); SIGQUIT, SIGXCPU and SIGXFSZ, whose default dumps core, exit with 128 + N instead:
   SIGQUIT is treated as SIGTERM is. */

void tg_exit(int code) {
  if (dying_of != 0) {
    for (;;) { pause(); }
  }
  exit(code);
}

/* Set by the first ending signal's flush: a second signal (on another thread) does not write the
   same lines again. */
static volatile sig_atomic_t flushing = 0;

static void end_with(int sig) {
  dying_of = sig;
  void (*flush)(void) = flush_hook;
  if (flush != NULL && __atomic_exchange_n(&flushing, 1, __ATOMIC_SEQ_CST) == 0) { flush(); }
  before_dying(sig);
  if (sig == SIGQUIT || sig == SIGXCPU || sig == SIGXFSZ) { _exit(128 + sig); }
  die_of(sig);
}

static void ending_handler(int sig, siginfo_t *info, void *context) {
  (void)context;
  if (is_own_sigpipe(sig, info)) { return; }
  /* A second ending signal while one is held ends the program at once: a write that hangs
     (fsync on a dead file system) must not make the program deaf to Ctrl-C and SIGTERM. */
  if (holding && held_signal == 0) {
    held_signal = sig;
    return;
  }
  end_with(sig);
}

void tg_hold_ending_signals(void) {
  held_signal = 0;
  holding = 1;
}

void tg_release_ending_signals(void) {
  holding = 0;
  int sig = held_signal;
  held_signal = 0;
  if (sig != 0) { end_with(sig); }
}

/* Inside the interactive loop: one byte down the pipe, for the loop to quit cleanly. SIGWINCH is
   'W'; an ending signal is its number (1–31, never a letter the pipe otherwise carries). */
static void pipe_handler(int sig, siginfo_t *info, void *context) {
  (void)context;
  if (is_own_sigpipe(sig, info)) { return; }
  int fd = signal_pipe;
  if (fd < 0) { return; }
  int saved_errno = errno;
  char byte = sig == SIGWINCH ? 'W' : (char)sig;
  ssize_t ignored = write(fd, &byte, 1);
  (void)ignored;
  errno = saved_errno;
}

/* Installs `handler` for each of `count` signals, with `flags`; `previous` (if not NULL) gets
   what each had. With `keep_ignored`, a signal the process was told to ignore stays ignored
   (`nohup` ignores SIGHUP, a shell ignores SIGINT and SIGQUIT for a background job). */
static void install(const int *signals, size_t count, void (*handler)(int, siginfo_t *, void *), int flags,
                    struct sigaction *previous, int keep_ignored) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = flags | SA_SIGINFO;
  for (size_t i = 0; i < count; i++) {
    struct sigaction current;
    if (sigaction(signals[i], NULL, &current) != 0) { continue; }
    if (previous != NULL) { previous[i] = current; }
    if (keep_ignored && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) { continue; }
    sigaction(signals[i], &action, NULL);
  }
}

static void crash_action(int sig, siginfo_t *info, void *context) {
  (void)info;
  (void)context;
  crash_handler(sig);
}

void tg_install_crash_handlers(void) {
  /* SA_ONSTACK: a stack overflow can still restore the terminal where the thread has an
     alternate signal stack (the Swift runtime gives the main thread one). */
  install(crash_signals, CRASH_COUNT, crash_action, SA_RESETHAND | SA_ONSTACK, NULL, 0);
}

void tg_install_process_handlers(void) {
  tg_install_crash_handlers();
  install(ending_signals, ENDING_COUNT, ending_handler, SA_ONSTACK, NULL, 1);
  /* A parent may start us with these blocked (a test runner's worker thread does): they would
     stay pending for ever, and SIGTERM would not end us. Every thread started later inherits
     this mask. An ignored signal stays ignored; only blocking is undone. */
  sigset_t handled;
  sigemptyset(&handled);
  for (size_t i = 0; i < CRASH_COUNT; i++) { sigaddset(&handled, crash_signals[i]); }
  for (size_t i = 0; i < ENDING_COUNT; i++) { sigaddset(&handled, ending_signals[i]); }
  sigaddset(&handled, SIGWINCH);
  pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
}

void tg_install_signal_pipe(int fd) {
  signal_pipe = fd;
  static const int winch[] = { SIGWINCH };
  install(winch, 1, pipe_handler, SA_RESTART, &replaced[ENDING_COUNT], 0);
  install(ending_signals, ENDING_COUNT, pipe_handler, SA_RESTART, replaced, 1);
  has_replaced = 1;
  /* One held while the terminal opened (Ctrl-C during newterm) quits through the loop. */
  int held = held_signal;
  if (holding && held != 0) {
    held_signal = 0;
    char byte = (char)held;
    ssize_t ignored = write(fd, &byte, 1);
    (void)ignored;
  }
}

void tg_reset_signals(void) {
  signal_pipe = -1;
  if (!has_replaced) { return; }
  has_replaced = 0;
  sigaction(SIGWINCH, &replaced[ENDING_COUNT], NULL);
  for (size_t i = 0; i < ENDING_COUNT; i++) {
    sigaction(ending_signals[i], &replaced[i], NULL);
  }
}
int tg_window_size(int fd, int *rows, int *cols) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) { return -1; }
  *rows = size.ws_row;
  *cols = size.ws_col;
  return 0;
}

struct tg_batch {
  int target;    /* the descriptor being batched (stdout) */
  int terminal;  /* a duplicate of what `target` was at open: where batches go */
  int file;      /* the in-memory file that collects a batch */
  int active;
};

tg_batch *tg_batch_open(int fd) {
#if defined(__linux__)
  int terminal = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (terminal < 0) { return NULL; }
  int file = memfd_create("paywall-tui-output", MFD_CLOEXEC);
  tg_batch *batch = file < 0 ? NULL : calloc(1, sizeof *batch);
  if (batch == NULL) {
    close(terminal);
    if (file >= 0) { close(file); }
    return NULL;
  }
  batch->target = fd;
  batch->terminal = terminal;
  batch->file = file;
  return batch;
#else
  (void)fd;
  return NULL;
#endif
}

int tg_batch_begin(tg_batch *batch) {
  if (batch == NULL || batch->active) { return -1; }
  if (dup2(batch->file, batch->target) < 0) { return -1; }
  batch->active = 1;
  return 0;
}

static int write_all(int fd, const char *bytes, size_t count) {
  while (count > 0) {
    ssize_t n = write(fd, bytes, count);
    if (n < 0) {
      if (errno == EINTR) { continue; }
      return -1;
    }
    bytes += n;
    count -= (size_t)n;
  }
  return 0;
}

int tg_batch_end(tg_batch *batch, int send) {
  if (batch == NULL || !batch->active) { return -1; }
  batch->active = 0;
  if (dup2(batch->terminal, batch->target) < 0) { return -1; }
  if (!send) { return 0; }
  off_t length = lseek(batch->file, 0, SEEK_CUR);
  if (length <= 0) { return 0; }
  char stack[16384];
  char *bytes = length <= (off_t)sizeof stack ? stack : malloc((size_t)length);
  int result = -1;
  if (bytes != NULL && pread(batch->file, bytes, (size_t)length, 0) == length) {
    result = write_all(batch->target, bytes, (size_t)length);
  }
  if (bytes != stack) { free(bytes); }
  lseek(batch->file, 0, SEEK_SET);
  return result;
}

void tg_batch_close(tg_batch *batch) {
  if (batch == NULL) { return; }
  if (batch->active) { tg_batch_end(batch, 0); }
  close(batch->terminal);
  close(batch->file);
  free(batch);
}
