/*
 * map_watch: prints where a window of class instance NAME is on the
 * screen, from the moment it is first mapped, as the X server's events
 * say: "map X Y" for the first MapNotify of the top-level window (a window
 * manager's frame, or the window itself) that holds it, then "move X Y"
 * for each ConfigureNotify that changes that window's position afterwards.
 * Usage: map_watch NAME SECONDS. Positions come from the events in their
 * order (CreateNotify, ConfigureNotify), not from queries made later, so a
 * window mapped in one place and moved a moment after shows both.
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WINDOWS 4096

static struct { Window window; int x, y; } known[MAX_WINDOWS];
static int known_count;

static int *position(Window window) {
  for (int i = 0; i < known_count; i++)
    if (known[i].window == window) return &known[i].x;
  if (known_count == MAX_WINDOWS) return NULL;
  known[known_count].window = window;
  known[known_count].x = known[known_count].y = 0;
  return &known[known_count++].x;
}

static int ignore_errors(Display *display, XErrorEvent *error) {
  (void)display;
  (void)error;
  return 0;
}

/* Whether `window` or a window below it has the class instance `name`. */
static int holds(Display *display, Window window, const char *name, int depth) {
  XClassHint hint = {0};
  if (XGetClassHint(display, window, &hint)) {
    int found = hint.res_name && strcmp(hint.res_name, name) == 0;
    if (hint.res_name) XFree(hint.res_name);
    if (hint.res_class) XFree(hint.res_class);
    if (found) return 1;
  }
  if (depth == 0) return 0;
  Window root, parent, *children = NULL;
  unsigned count = 0;
  if (!XQueryTree(display, window, &root, &parent, &children, &count)) return 0;
  int found = 0;
  for (unsigned i = 0; i < count && !found; i++) found = holds(display, children[i], name, depth - 1);
  if (children) XFree(children);
  return found;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: map_watch NAME SECONDS\n");
    return 64;
  }
  const char *name = argv[1];
  double end = now_s() + atof(argv[2]);
  Display *display = XOpenDisplay(NULL);
  if (!display) {
    fprintf(stderr, "map_watch: cannot open the display\n");
    return 1;
  }
  XSetErrorHandler(ignore_errors);
  Window root = DefaultRootWindow(display);
  XSelectInput(display, root, SubstructureNotifyMask);
  XSync(display, False);
  printf("ready\n");
  fflush(stdout);
  Window watched = 0;
  while (now_s() < end) {
    if (!XPending(display)) {
      struct pollfd fd = {ConnectionNumber(display), POLLIN, 0};
      poll(&fd, 1, 50);
      continue;
    }
    XEvent event;
    XNextEvent(display, &event);
    int *at;
    switch (event.type) {
    case CreateNotify:
      if (event.xcreatewindow.parent == root && (at = position(event.xcreatewindow.window))) {
        at[0] = event.xcreatewindow.x;
        at[1] = event.xcreatewindow.y;
      }
      break;
    case ReparentNotify:
      if (event.xreparent.parent == root && (at = position(event.xreparent.window))) {
        at[0] = event.xreparent.x;
        at[1] = event.xreparent.y;
      }
      break;
    case ConfigureNotify:
      if (event.xconfigure.event == root && (at = position(event.xconfigure.window))) {
        int moved = at[0] != event.xconfigure.x || at[1] != event.xconfigure.y;
        at[0] = event.xconfigure.x;
        at[1] = event.xconfigure.y;
        if (watched == event.xconfigure.window && moved) {
          printf("move %d %d\n", at[0], at[1]);
          fflush(stdout);
        }
      }
      break;
    case MapNotify:
      if (event.xmap.event == root && !watched && (at = position(event.xmap.window)) &&
          holds(display, event.xmap.window, name, 2)) {
        watched = event.xmap.window;
        printf("map %d %d\n", at[0], at[1]);
        fflush(stdout);
      }
      break;
    }
  }
  return 0;
}
