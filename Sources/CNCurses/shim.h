#ifndef PAYWALL_TUI_CNCURSES_SHIM_H
#define PAYWALL_TUI_CNCURSES_SHIM_H

// SwiftPM drops the -D flags pkg-config gives, so ask for the wide-character API here,
// before curses.h, or wget_wch / wadd_wch / cchar_t vanish.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#include <locale.h>
#include <wchar.h>
#include <curses.h>

// Globals and function-like macros Swift cannot import (or rejects in Swift 6 mode).
static inline WINDOW *pw_stdscr(void) { return stdscr; }
// Whether the current terminal can address the cursor (terminfo `cup`; TERM=dumb cannot).
// tigetstr gives (char *)-1 for a name that is not a string capability, NULL when absent.
static inline bool pw_has_cursor_addressing(void) {
  char *cup = tigetstr("cup");
  return cup != NULL && cup != (char *)-1;
}
static inline int pw_cols(void) { return COLS; }
static inline int pw_lines(void) { return LINES; }
static inline int pw_colors(void) { return COLORS; }
static inline int pw_color_pairs(void) { return COLOR_PAIRS; }
static inline int pw_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int pw_getmaxx(WINDOW *w) { return getmaxx(w); }
static inline int pw_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int pw_key_f(int n) { return KEY_F(n); }

static inline attr_t pw_a_normal(void) { return A_NORMAL; }
static inline attr_t pw_a_bold(void) { return A_BOLD; }
static inline attr_t pw_a_dim(void) { return A_DIM; }
static inline attr_t pw_a_reverse(void) { return A_REVERSE; }
static inline attr_t pw_a_underline(void) { return A_UNDERLINE; }
static inline attr_t pw_a_standout(void) { return A_STANDOUT; }

static inline int pw_key_resize(void) { return KEY_RESIZE; }
static inline int pw_key_mouse(void) { return KEY_MOUSE; }
static inline int pw_key_btab(void) { return KEY_BTAB; }
static inline int pw_err(void) { return ERR; }
static inline int pw_ok(void) { return OK; }

static inline mmask_t pw_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t pw_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t pw_button1_released(void) { return BUTTON1_RELEASED; }
static inline int pw_key_code_yes(void) { return KEY_CODE_YES; }

// Put one grapheme (a short wide string: base plus combining marks) with attributes and a colour pair.
static inline int pw_put_grapheme(WINDOW *w, int y, int x, const wchar_t *wcs, attr_t attrs, short pair) {
  cchar_t cc;
  if (setcchar(&cc, wcs, attrs, pair, NULL) != OK) { return ERR; }
  return mvwadd_wch(w, y, x, &cc);
}

#endif
