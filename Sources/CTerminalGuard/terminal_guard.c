#include "terminal_guard.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_termios;
static volatile sig_atomic_t saved_fd = -1;
static volatile sig_atomic_t signal_pipe = -1;

/* Leave the alternate screen, show the cursor, reset attributes, stop mouse reporting,
   leave keypad-transmit mode. */
static const char reset_sequence[] = "\033[?1000l\033[?1002l\033[?1006l\033[0m\033[?25h\033[?1049l\033[?1l\033>";

int tg_save_terminal(int fd) {
  if (tcgetattr(fd, &saved_termios) != 0) { return -1; }
  saved_fd = fd;
  return 0;
}

void tg_restore_terminal(void) {
  int fd = saved_fd;
  if (fd < 0) { return; }
  int saved_errno = errno;
  ssize_t ignored = write(STDOUT_FILENO, reset_sequence, sizeof reset_sequence - 1);
  (void)ignored;
  tcsetattr(fd, TCSAFLUSH, &saved_termios);
  errno = saved_errno;
}

static void crash_handler(int sig) {
  tg_restore_terminal();
  signal(sig, SIG_DFL);
  raise(sig);
}

void tg_install_crash_handlers(void) {
  static const int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = crash_handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
    sigaction(signals[i], &action, NULL);
  }
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
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = pipe_handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
    sigaction(signals[i], &action, NULL);
  }
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
