/*
 * shim.h: ncurses (wide-character build, Debian libncurses-dev) for Swift.
 * Macros Swift cannot import are wrapped in static inline functions.
 */
#ifndef TRANSLATION_HOST_CNCURSESW_SHIM_H
#define TRANSLATION_HOST_CNCURSESW_SHIM_H

#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

/* Columns a wide character takes (glibc hides the declaration unless
   _XOPEN_SOURCE is set before its headers, which a module cannot ensure). */
extern int wcwidth(wchar_t c);

static inline WINDOW *th_stdscr(void) { return stdscr; }
static inline int th_color_pair(int n) { return COLOR_PAIR(n); }
static inline int th_lines(void) { return LINES; }
static inline int th_columns(void) { return COLS; }
static inline attr_t th_attribute_dim(void) { return A_DIM; }
static inline attr_t th_attribute_bold(void) { return A_BOLD; }
static inline attr_t th_attribute_reverse(void) { return A_REVERSE; }
static inline attr_t th_attribute_underline(void) { return A_UNDERLINE; }

#endif
