/*
 * layer_popover.h: a surface of the compositor's overlay layer
 * (zwlr_layer_shell_v1), for the desktop popover on wlroots compositors
 * (sway) and KWin, spoken through libwayland-client (Debian's
 * libwayland-dev) on a connection of its own, with the keyboard's keymap
 * read by xkbcommon (libxkbcommon-dev).
 *
 * Why not GTK: GTK 4.8 gives every surface it maps the xdg_toplevel role,
 * and a surface's role cannot change; Debian 12 has no gtk4-layer-shell.
 * So the popover's pixels are drawn by the caller (cairo and Pango) into
 * this surface's shared-memory buffers.
 *
 * Threading: everything on one thread (the caller's main loop). The
 * caller waits for th_layer_display_fd to be readable, then calls
 * th_layer_display_dispatch and takes the queued events with
 * th_layer_display_next_event.
 */
#ifndef TRANSLATION_HOST_LAYER_POPOVER_H
#define TRANSLATION_HOST_LAYER_POPOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct th_layer_display th_layer_display;
typedef struct th_layer_surface th_layer_surface;

/* What happened, in the order the compositor said it. */
typedef enum {
  TH_LAYER_EVENT_CONFIGURED = 1, /* width, height: the size the compositor gave */
  TH_LAYER_EVENT_CLOSED,         /* the compositor will not show the surface any more */
  TH_LAYER_EVENT_FOCUS_IN,       /* the surface has the keyboard focus */
  TH_LAYER_EVENT_FOCUS_OUT,      /* it lost it */
  TH_LAYER_EVENT_KEY,            /* keysym, text (UTF-8, may be empty), modifiers: a key pressed */
  TH_LAYER_EVENT_BUTTON,         /* x, y (surface pixels), button (Linux code): a pointer button pressed */
  TH_LAYER_EVENT_OUTSIDE,        /* button: a pointer button pressed outside the popover (on the catcher) */
  TH_LAYER_EVENT_KEY_RELEASE,    /* keycode: a key released */
  TH_LAYER_EVENT_TOUCH_DOWN,     /* touch_id, x, y (surface pixels), inside: a finger down (outside: on the catcher) */
  TH_LAYER_EVENT_TOUCH_UP,       /* touch_id: that finger lifted */
  TH_LAYER_EVENT_TOUCH_CANCEL,   /* the compositor took every touch point (a gesture of its own) */
  TH_LAYER_EVENT_SCALE,          /* scale: the buffer scale the surface's output wants changed */
  TH_LAYER_EVENT_BUFFER_FREE,    /* a buffer is free again, after th_layer_surface_has_free_buffer said none was */
} th_layer_event_kind;

enum {
  TH_LAYER_MODIFIER_SHIFT = 1,
  TH_LAYER_MODIFIER_CONTROL = 2,
  TH_LAYER_MODIFIER_ALT = 4,
};

typedef struct {
  th_layer_event_kind kind;
  uint32_t width, height;
  uint32_t keysym;
  uint32_t modifiers;
  char text[32];
  double x, y;
  uint32_t button;
  /* KEY and KEY_RELEASE: the key's XKB keycode; KEY: whether the keymap says it repeats. */
  uint32_t keycode;
  bool repeats;
  int32_t touch_id;
  bool inside;
  int32_t scale;
} th_layer_event;

/* An output as the compositor describes it: its name (wl_output 4, may be
 * empty) and its size in logical pixels (its mode divided by its scale). */
typedef struct {
  char name[64];
  int32_t width, height, scale;
} th_layer_output;

/* Connects to the Wayland display `name` (NULL: $WAYLAND_DISPLAY) and
 * reads its globals. Returns NULL, with a reason in `error`, when it
 * cannot connect or the compositor offers no zwlr_layer_shell_v1 (GNOME),
 * a wl_compositor or a wl_shm (a wl_seat may come later: phoc announces
 * its seat with the first input device). The caller owns the result. */
th_layer_display *th_layer_display_connect(const char *name, char *error, size_t error_size);
void th_layer_display_disconnect(th_layer_display *display);

/* The version of zwlr_layer_shell_v1 bound (the compositor's, at most 4). */
uint32_t th_layer_display_shell_version(const th_layer_display *display);

/* The descriptor to wait on for events. */
int th_layer_display_fd(const th_layer_display *display);

/* Reads what is readable (never blocks), dispatches it and sends what is
 * queued. Returns false when the connection failed (a protocol error, the
 * compositor gone); th_layer_display_error then says why. */
bool th_layer_display_dispatch(th_layer_display *display);

/* Sends the requests queued; false when the connection failed. */
bool th_layer_display_flush(th_layer_display *display);

/* Waits for the compositor to have handled every request sent (a round
 * trip), dispatching meanwhile; false when the connection failed. */
bool th_layer_display_roundtrip(th_layer_display *display);

/* Why the connection failed, as text ("" while it works). Owned by the display. */
const char *th_layer_display_error(const th_layer_display *display);

/* Takes the oldest queued event; false when none is queued. */
bool th_layer_display_next_event(th_layer_display *display, th_layer_event *event);

/* The keyboard's repeat, as the compositor said (wl_keyboard.repeat_info):
 * `rate` keys a second after `delay` milliseconds held; a rate of 0: keys
 * do not repeat. 25 and 600 until the compositor says. */
void th_layer_display_repeat_info(const th_layer_display *display, int32_t *rate, int32_t *delay);

/* Whether the seat has a keyboard now (a keyboard unplugged, or a virtual
 * one gone, takes the focus away without anyone clicking elsewhere). */
bool th_layer_display_has_keyboard(const th_layer_display *display);

size_t th_layer_display_output_count(const th_layer_display *display);
bool th_layer_display_output(const th_layer_display *display, size_t index, th_layer_output *output);

/* A surface in the overlay layer, anchored at the top-left corner of
 * output `output_index` (-1: the compositor's choice), never moved for
 * other surfaces' exclusive zones, taking the keyboard on demand (version
 * 4) or exclusively (older versions). Nothing is shown until
 * th_layer_surface_place and a first frame. `name_space` is the layer's
 * namespace (the compositor's rules may use it). Owned by the caller.
 *
 * With it comes a catcher: a transparent surface over the whole output in
 * the top layer (under the popover, over the windows), which takes no
 * keyboard, so that a click or touch elsewhere reaches the popover
 * (TH_LAYER_EVENT_OUTSIDE, TH_LAYER_EVENT_TOUCH_DOWN outside), not the
 * window beneath, as a tap outside a popover on iOS dismisses it. Not every
 * compositor takes the keyboard focus from an overlay surface on a click
 * elsewhere (sway 1.7 and 1.8 give it back to the surface). */
th_layer_surface *th_layer_surface_create(th_layer_display *display, int output_index, const char *name_space);
void th_layer_surface_destroy(th_layer_surface *surface);

/* Sets the surface's size and where its top-left corner goes on the
 * output (the margins from its top and left edges), applied with the next
 * frame. The first call commits the surface empty, which the compositor
 * answers with a configure (TH_LAYER_EVENT_CONFIGURED). */
void th_layer_surface_place(th_layer_surface *surface, int32_t x, int32_t y, int32_t width, int32_t height);

/* Whether the compositor has configured the surface: frames may be drawn. */
bool th_layer_surface_is_configured(const th_layer_surface *surface);

/* Whether a buffer is free to draw the next frame in. The compositor may
 * still be reading all of them (frames asked for faster than it shows
 * them, a held key repeating on a loaded machine): then false, and
 * TH_LAYER_EVENT_BUFFER_FREE comes when one is released. */
bool th_layer_surface_has_free_buffer(th_layer_surface *surface);

/* The buffer scale the surface draws at: the largest scale of the outputs
 * it is on (wl_surface.enter), before any, its output's; 1 at least, 4 at most. */
int32_t th_layer_surface_scale(const th_layer_surface *surface);

/* A buffer for a frame of width × height logical pixels, at the surface's
 * scale (`scale`: so width × scale by height × scale pixels; ARGB,
 * premultiplied, native byte order: cairo's CAIRO_FORMAT_ARGB32) that the
 * compositor is not reading, to draw the next frame in; `stride` is its
 * row length in bytes. NULL when shared memory cannot be had. Valid until
 * th_layer_surface_commit, which sets the surface's buffer scale. */
uint8_t *th_layer_surface_begin_frame(th_layer_surface *surface, int32_t width, int32_t height, int32_t *stride,
                                      int32_t *scale);

/* Shows the buffer drawn since th_layer_surface_begin_frame. */
void th_layer_surface_commit(th_layer_surface *surface);

#endif
