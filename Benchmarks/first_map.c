/*
 * first_map: how long a program takes to show its first window on an X11
 * display. Usage: first_map [--height <pixels>] <command> [<argument>...]
 *
 * Watches the root window (SubstructureNotify), starts the command, and
 * prints the milliseconds from the fork to the first MapNotify of a
 * top-level window, then (with --height) to the first time that window is
 * at least that tall: for translation-host's popover, the provider's scene
 * in place of the spinner it shows at once (about 106 pixels high). Stops
 * the command (SIGTERM) and exits; prints "timeout" after 20 s.
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int wanted = 0;
  char **command = argv + 1;
  if (argc > 2 && strcmp(argv[1], "--height") == 0) {
    wanted = atoi(argv[2]);
    command += 2;
  }
  int map_only = wanted <= 0;
  if (!*command) {
    fprintf(stderr, "usage: first_map [--height <pixels>] <command> [<argument>...]\n");
    return 64;
  }
  Display *display = XOpenDisplay(NULL);
  if (!display) {
    fprintf(stderr, "first_map: cannot open the display\n");
    return 1;
  }
  Window root = DefaultRootWindow(display);
  XSelectInput(display, root, SubstructureNotifyMask);
  XSync(display, False);

  double start = now_ms();
  pid_t child = fork();
  if (child == 0) {
    setpgid(0, 0);
    execvp(command[0], command);
    _exit(127);
  }
  Window mapped = 0;
  double map_ms = -1, scene_ms = -1;
  while (now_ms() - start < 20000 && (scene_ms < 0 && !(map_only && map_ms >= 0))) {
    if (!XPending(display)) {
      struct pollfd fd = {ConnectionNumber(display), POLLIN, 0};
      poll(&fd, 1, 100);
      continue;
    }
    XEvent event;
    XNextEvent(display, &event);
    // A toolkit may map more than one top-level window (GTK maps helper
    // windows too): the scene is the first of them to be tall enough.
    if (event.type == MapNotify && event.xmap.event == root) {
      if (map_ms < 0) map_ms = now_ms() - start;
      XWindowAttributes attributes;
      XGetWindowAttributes(display, event.xmap.window, &attributes);
      if (!map_only && attributes.height >= wanted) scene_ms = now_ms() - start;
      mapped = event.xmap.window;
    } else if (event.type == ConfigureNotify && mapped && !map_only && event.xconfigure.height >= wanted &&
               event.xconfigure.event == root) {
      XWindowAttributes attributes;
      if (XGetWindowAttributes(display, event.xconfigure.window, &attributes) && attributes.map_state == IsViewable)
        scene_ms = now_ms() - start;
    }
  }
  kill(-child, SIGTERM);
  waitpid(child, NULL, 0);
  if (map_ms < 0 || (!map_only && scene_ms < 0)) {
    printf("timeout\n");
    return 1;
  }
  if (map_only)
    printf("%.2f\n", map_ms);
  else
    printf("%.2f %.2f\n", map_ms, scene_ms);
  return 0;
}
