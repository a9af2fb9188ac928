#define _GNU_SOURCE  /* memfd_create */
#include "terminal_guard.h"

#include <errno.h>
#include <fcntl.h>
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

/* Leave the alternate screen, show the cursor, reset attributes, stop mouse reporting,
   leave keypad-transmit mode. */
static const char reset_sequence[] = "\033[?1000l\033[?1002l\033[?1006l\033[0m\033[?25h\033[?1049l\033[?1l\033>";

int tg_save_terminal(int fd) {
  if (tcgetattr(fd, &saved_termios) != 0) { return -1; }
  if (terminal_out < 0) { terminal_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3); }
  saved_fd = fd;
  return 0;
}

void tg_restore_terminal(void) {
  int fd = saved_fd;
  if (fd < 0) { return; }
  int saved_errno = errno;
  int out = terminal_out >= 0 ? terminal_out : STDOUT_FILENO;
  ssize_t ignored = write(out, reset_sequence, sizeof reset_sequence - 1);
  (void)ignored;
  tcsetattr(fd, TCSAFLUSH, &saved_termios);
  errno = saved_errno;
}

static void crash_handler(int sig) {
  tg_restore_terminal();
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Installs `handler` for each of `count` signals, with `flags`. */
static void install(const int *signals, size_t count, void (*handler)(int), int flags) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = flags;
  for (size_t i = 0; i < count; i++) {
    sigaction(signals[i], &action, NULL);
  }
}

void tg_install_crash_handlers(void) {
  static const int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
  install(signals, sizeof signals / sizeof signals[0], crash_handler, SA_RESETHAND);
}

static void pipe_handler(int sig) {
  int fd = signal_pipe;
  if (fd < 0) { return; }
  int saved_errno = errno;
  char byte = sig == SIGWINCH ? 'W' : sig == SIGINT ? 'I' : sig == SIGTERM ? 'T' : 'H';
  ssize_t ignored = write(fd, &byte, 1);
  (void)ignored;
  errno = saved_errno;
}

void tg_install_signal_pipe(int fd) {
  static const int signals[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP };
  signal_pipe = fd;
  install(signals, sizeof signals / sizeof signals[0], pipe_handler, SA_RESTART);
}

void tg_reset_signals(void) {
  signal_pipe = -1;
  signal(SIGWINCH, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
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
