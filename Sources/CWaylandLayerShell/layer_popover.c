/*
 * layer_popover.c: the layer surface of layer_popover.h. Written for this
 * project from the Wayland and wlr-layer-shell specifications.
 */
#define _GNU_SOURCE
#include "layer_popover.h"
#include "layer_shell_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

enum { MAX_OUTPUTS = 16, MAX_EVENTS = 256, MAX_BUFFERS = 3, MAX_TOUCHES = 10, MAX_SCALE = 4 };

/* A keymap larger than this is refused (Debian's full keymaps are some 60 KiB). */
static const size_t maximum_keymap = 4 << 20;

struct output {
  th_layer_display *display;
  struct wl_output *proxy;
  uint32_t global;
  th_layer_output info;
  int32_t mode_width, mode_height;
};

struct th_layer_display {
  struct wl_display *display;
  struct wl_registry *registry;
  struct wl_compositor *compositor;
  uint32_t compositor_version;
  struct wl_shm *shm;
  struct wl_seat *seat;
  struct wl_keyboard *keyboard;
  struct wl_pointer *pointer;
  struct wl_touch *touch;
  struct zwlr_layer_shell_v1 *shell;
  uint32_t shell_version;
  struct output outputs[MAX_OUTPUTS];
  size_t output_count;
  struct xkb_context *xkb;
  struct xkb_keymap *keymap;
  struct xkb_state *state;
  double pointer_x, pointer_y;
  /* The surface the pointer is over (NULL: none of ours). */
  struct wl_surface *pointer_surface;
  /* The fingers down on our surfaces. */
  struct {
    int32_t id;
    bool used;
  } touches[MAX_TOUCHES];
  int32_t repeat_rate, repeat_delay;
  th_layer_event events[MAX_EVENTS];
  size_t first_event, event_count;
  char error[256];
  /* The surface (one at a time), for its configure and focus. */
  th_layer_surface *surface;
};

struct buffer {
  /* The surface it is drawn for (NULL: the catcher's, which is drawn once). */
  th_layer_surface *owner;
  struct wl_buffer *proxy;
  uint8_t *pixels;
  size_t size;
  int32_t width, height;
  /* The buffer scale it was drawn at. */
  int32_t scale;
  bool busy;
};

struct th_layer_surface {
  th_layer_display *display;
  struct wl_surface *surface;
  struct zwlr_layer_surface_v1 *layer;
  bool committed, configured;
  uint32_t serial;
  bool needs_ack;
  struct buffer buffers[MAX_BUFFERS];
  struct buffer *drawing;
  /* The output asked for (NULL: the compositor's choice), and those the surface is on. */
  struct wl_output *output;
  struct wl_output *entered[MAX_OUTPUTS];
  int32_t scale;
  /* The catcher: transparent, over the whole output, for a click elsewhere. */
  struct wl_surface *catcher;
  struct zwlr_layer_surface_v1 *catcher_layer;
  struct buffer catcher_buffer;
  char name_space[64];
  /* A frame was asked for while the compositor read every buffer: say when one is free. */
  bool waiting_for_buffer;
};

static void queue_event(th_layer_display *display, th_layer_event event) {
  if (display->event_count == MAX_EVENTS) return; /* a flood of events: the oldest are kept */
  display->events[(display->first_event + display->event_count) % MAX_EVENTS] = event;
  display->event_count++;
}

static void surface_update_scale(th_layer_surface *surface);

/* MARK: Outputs */

static void output_geometry(void *data, struct wl_output *proxy, int32_t x, int32_t y, int32_t physical_width,
                            int32_t physical_height, int32_t subpixel, const char *make, const char *model,
                            int32_t transform) {
  (void)data, (void)proxy, (void)x, (void)y, (void)physical_width, (void)physical_height, (void)subpixel, (void)make,
      (void)model, (void)transform;
}

static void output_mode(void *data, struct wl_output *proxy, uint32_t flags, int32_t width, int32_t height,
                        int32_t refresh) {
  (void)proxy, (void)refresh;
  struct output *output = data;
  if (flags & WL_OUTPUT_MODE_CURRENT) {
    output->mode_width = width;
    output->mode_height = height;
  }
}

static void output_done(void *data, struct wl_output *proxy) {
  (void)proxy;
  struct output *output = data;
  int32_t scale = output->info.scale > 0 ? output->info.scale : 1;
  output->info.width = output->mode_width / scale;
  output->info.height = output->mode_height / scale;
  /* A scale changed while the popover shows (`swaymsg output … scale 2`). */
  if (output->display->surface) surface_update_scale(output->display->surface);
}

static void output_scale(void *data, struct wl_output *proxy, int32_t factor) {
  (void)proxy;
  ((struct output *)data)->info.scale = factor;
}

static void output_name(void *data, struct wl_output *proxy, const char *name) {
  (void)proxy;
  struct output *output = data;
  snprintf(output->info.name, sizeof output->info.name, "%s", name ? name : "");
}

static void output_description(void *data, struct wl_output *proxy, const char *description) {
  (void)data, (void)proxy, (void)description;
}

static const struct wl_output_listener output_listener = {
    .geometry = output_geometry,
    .mode = output_mode,
    .done = output_done,
    .scale = output_scale,
    .name = output_name,
    .description = output_description,
};

/* MARK: Keyboard */

static void keyboard_keymap(void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size) {
  (void)keyboard;
  th_layer_display *display = data;
  if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 || size == 0 || size > maximum_keymap) {
    close(fd);
    return;
  }
  char *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (text == MAP_FAILED) return;
  /* The compositor's text ends with a NUL within `size`; strnlen keeps a hostile one within the mapping. */
  struct xkb_keymap *keymap =
      xkb_keymap_new_from_buffer(display->xkb, text, strnlen(text, size), XKB_KEYMAP_FORMAT_TEXT_V1, 0);
  munmap(text, size);
  if (!keymap) return;
  struct xkb_state *state = xkb_state_new(keymap);
  if (!state) {
    xkb_keymap_unref(keymap);
    return;
  }
  if (display->state) xkb_state_unref(display->state);
  if (display->keymap) xkb_keymap_unref(display->keymap);
  display->keymap = keymap;
  display->state = state;
}

static bool is_ours(th_layer_display *display, struct wl_surface *surface) {
  return surface && display->surface && display->surface->surface == surface;
}

static bool is_catcher(th_layer_display *display, struct wl_surface *surface) {
  return surface && display->surface && display->surface->catcher == surface;
}

static void keyboard_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface,
                           struct wl_array *keys) {
  (void)keyboard, (void)serial, (void)keys;
  th_layer_display *display = data;
  if (is_ours(display, surface)) queue_event(display, (th_layer_event){.kind = TH_LAYER_EVENT_FOCUS_IN});
}

static void keyboard_leave(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface) {
  (void)keyboard, (void)serial;
  th_layer_display *display = data;
  if (is_ours(display, surface)) queue_event(display, (th_layer_event){.kind = TH_LAYER_EVENT_FOCUS_OUT});
}

static void keyboard_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time, uint32_t key,
                         uint32_t key_state) {
  (void)keyboard, (void)serial, (void)time;
  th_layer_display *display = data;
  if (!display->state) return;
  xkb_keycode_t code = key + 8; /* evdev codes start 8 below XKB's */
  if (key_state != WL_KEYBOARD_KEY_STATE_PRESSED) {
    queue_event(display, (th_layer_event){.kind = TH_LAYER_EVENT_KEY_RELEASE, .keycode = code});
    return;
  }
  th_layer_event event = {.kind = TH_LAYER_EVENT_KEY, .keycode = code};
  event.repeats = display->keymap && xkb_keymap_key_repeats(display->keymap, code);
  event.keysym = xkb_state_key_get_one_sym(display->state, code);
  xkb_state_key_get_utf8(display->state, code, event.text, sizeof event.text);
  if (xkb_state_mod_name_is_active(display->state, XKB_MOD_NAME_SHIFT, XKB_STATE_MODS_EFFECTIVE) > 0)
    event.modifiers |= TH_LAYER_MODIFIER_SHIFT;
  if (xkb_state_mod_name_is_active(display->state, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) > 0)
    event.modifiers |= TH_LAYER_MODIFIER_CONTROL;
  if (xkb_state_mod_name_is_active(display->state, XKB_MOD_NAME_ALT, XKB_STATE_MODS_EFFECTIVE) > 0)
    event.modifiers |= TH_LAYER_MODIFIER_ALT;
  queue_event(display, event);
}

static void keyboard_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t depressed,
                               uint32_t latched, uint32_t locked, uint32_t group) {
  (void)keyboard, (void)serial;
  th_layer_display *display = data;
  if (display->state) xkb_state_update_mask(display->state, depressed, latched, locked, 0, 0, group);
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
  (void)keyboard;
  th_layer_display *display = data;
  /* Kept within reason: a hostile compositor's 10^9 keys a second would flood the popover. */
  display->repeat_rate = rate < 0 ? 0 : rate > 100 ? 100 : rate;
  display->repeat_delay = delay < 0 ? 0 : delay > 10000 ? 10000 : delay;
}

static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = keyboard_keymap,
    .enter = keyboard_enter,
    .leave = keyboard_leave,
    .key = keyboard_key,
    .modifiers = keyboard_modifiers,
    .repeat_info = keyboard_repeat_info,
};

/* MARK: Pointer */

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface,
                          wl_fixed_t x, wl_fixed_t y) {
  (void)pointer, (void)serial;
  th_layer_display *display = data;
  display->pointer_surface = surface;
  display->pointer_x = wl_fixed_to_double(x);
  display->pointer_y = wl_fixed_to_double(y);
}

static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface) {
  (void)pointer, (void)serial;
  th_layer_display *display = data;
  if (display->pointer_surface == surface) display->pointer_surface = NULL;
}

static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
  (void)pointer, (void)time;
  th_layer_display *display = data;
  display->pointer_x = wl_fixed_to_double(x);
  display->pointer_y = wl_fixed_to_double(y);
}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
  (void)pointer, (void)serial, (void)time;
  th_layer_display *display = data;
  if (state != WL_POINTER_BUTTON_STATE_PRESSED) return;
  if (is_catcher(display, display->pointer_surface)) {
    queue_event(display, (th_layer_event){.kind = TH_LAYER_EVENT_OUTSIDE, .button = button});
    return;
  }
  if (!is_ours(display, display->pointer_surface)) return;
  queue_event(display, (th_layer_event){
                           .kind = TH_LAYER_EVENT_BUTTON,
                           .x = display->pointer_x,
                           .y = display->pointer_y,
                           .button = button,
                       });
}

static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
  (void)data, (void)pointer, (void)time, (void)axis, (void)value;
}

static void pointer_frame(void *data, struct wl_pointer *pointer) { (void)data, (void)pointer; }

static void pointer_axis_source(void *data, struct wl_pointer *pointer, uint32_t source) {
  (void)data, (void)pointer, (void)source;
}

static void pointer_axis_stop(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {
  (void)data, (void)pointer, (void)time, (void)axis;
}

static void pointer_axis_discrete(void *data, struct wl_pointer *pointer, uint32_t axis, int32_t discrete) {
  (void)data, (void)pointer, (void)axis, (void)discrete;
}

static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter,
    .leave = pointer_leave,
    .motion = pointer_motion,
    .button = pointer_button,
    .axis = pointer_axis,
    .frame = pointer_frame,
    .axis_source = pointer_axis_source,
    .axis_stop = pointer_axis_stop,
    .axis_discrete = pointer_axis_discrete,
};

/* MARK: Touch */

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
  (void)touch, (void)serial, (void)time;
  th_layer_display *display = data;
  bool inside = is_ours(display, surface);
  if (!inside && !is_catcher(display, surface)) return;
  for (int index = 0; index < MAX_TOUCHES; index++) {
    if (display->touches[index].used) continue;
    display->touches[index].used = true;
    display->touches[index].id = id;
    queue_event(display, (th_layer_event){
                             .kind = TH_LAYER_EVENT_TOUCH_DOWN,
                             .touch_id = id,
                             .x = wl_fixed_to_double(x),
                             .y = wl_fixed_to_double(y),
                             .inside = inside,
                         });
    return;
  }
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
  (void)touch, (void)serial, (void)time;
  th_layer_display *display = data;
  for (int index = 0; index < MAX_TOUCHES; index++) {
    if (!display->touches[index].used || display->touches[index].id != id) continue;
    display->touches[index].used = false;
    queue_event(display, (th_layer_event){.kind = TH_LAYER_EVENT_TOUCH_UP, .touch_id = id});
    return;
  }
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
  (void)data, (void)touch, (void)time, (void)id, (void)x, (void)y;
}

static void touch_frame(void *data, struct wl_touch *touch) { (void)data, (void)touch; }

static void touch_cancel(void *data, struct wl_touch *touch) {
  (void)touch;
  th_layer_display *display = data;
  memset(display->touches, 0, sizeof display->touches);
  queue_event(display, (th_layer_event){.kind = TH_LAYER_EVENT_TOUCH_CANCEL});
}

static void touch_shape(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t major, wl_fixed_t minor) {
  (void)data, (void)touch, (void)id, (void)major, (void)minor;
}

static void touch_orientation(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t orientation) {
  (void)data, (void)touch, (void)id, (void)orientation;
}

static const struct wl_touch_listener touch_listener = {
    .down = touch_down,
    .up = touch_up,
    .motion = touch_motion,
    .frame = touch_frame,
    .cancel = touch_cancel,
    .shape = touch_shape,
    .orientation = touch_orientation,
};

/* MARK: Seat and registry */

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
  th_layer_display *display = data;
  bool keyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD;
  bool pointer = capabilities & WL_SEAT_CAPABILITY_POINTER;
  if (keyboard && !display->keyboard) {
    display->keyboard = wl_seat_get_keyboard(seat);
    wl_keyboard_add_listener(display->keyboard, &keyboard_listener, display);
  } else if (!keyboard && display->keyboard) {
    wl_keyboard_destroy(display->keyboard);
    display->keyboard = NULL;
  }
  if (pointer && !display->pointer) {
    display->pointer = wl_seat_get_pointer(seat);
    wl_pointer_add_listener(display->pointer, &pointer_listener, display);
  } else if (!pointer && display->pointer) {
    wl_pointer_destroy(display->pointer);
    display->pointer = NULL;
    display->pointer_surface = NULL;
  }
  bool touch = capabilities & WL_SEAT_CAPABILITY_TOUCH;
  if (touch && !display->touch) {
    display->touch = wl_seat_get_touch(seat);
    wl_touch_add_listener(display->touch, &touch_listener, display);
  } else if (!touch && display->touch) {
    wl_touch_destroy(display->touch);
    display->touch = NULL;
    memset(display->touches, 0, sizeof display->touches);
  }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) { (void)data, (void)seat, (void)name; }

static const struct wl_seat_listener seat_listener = {.capabilities = seat_capabilities, .name = seat_name};

static uint32_t min_version(uint32_t offered, uint32_t wanted) { return offered < wanted ? offered : wanted; }

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
  th_layer_display *display = data;
  if (strcmp(interface, wl_compositor_interface.name) == 0 && !display->compositor) {
    display->compositor_version = min_version(version, 4);
    display->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, display->compositor_version);
  } else if (strcmp(interface, wl_shm_interface.name) == 0 && !display->shm) {
    display->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
  } else if (strcmp(interface, wl_seat_interface.name) == 0 && !display->seat) {
    display->seat = wl_registry_bind(registry, name, &wl_seat_interface, min_version(version, 5));
    wl_seat_add_listener(display->seat, &seat_listener, display);
  } else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0 && !display->shell) {
    display->shell_version = min_version(version, 4);
    display->shell = wl_registry_bind(registry, name, &zwlr_layer_shell_v1_interface, display->shell_version);
  } else if (strcmp(interface, wl_output_interface.name) == 0 && display->output_count < MAX_OUTPUTS) {
    struct output *output = &display->outputs[display->output_count++];
    memset(output, 0, sizeof *output);
    output->global = name;
    output->display = display;
    output->info.scale = 1;
    output->proxy = wl_registry_bind(registry, name, &wl_output_interface, min_version(version, 4));
    wl_output_add_listener(output->proxy, &output_listener, output);
  }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
  (void)registry;
  th_layer_display *display = data;
  for (size_t index = 0; index < display->output_count; index++) {
    if (display->outputs[index].global != name) continue;
    wl_output_destroy(display->outputs[index].proxy);
    display->outputs[index] = display->outputs[--display->output_count];
    return;
  }
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global,
    .global_remove = registry_global_remove,
};

/* MARK: Display */

static void note_error(th_layer_display *display) {
  if (display->error[0]) return;
  int code = wl_display_get_error(display->display);
  const struct wl_interface *interface = NULL;
  uint32_t id = 0;
  uint32_t protocol = code == EPROTO ? wl_display_get_protocol_error(display->display, &interface, &id) : 0;
  if (code == EPROTO)
    snprintf(display->error, sizeof display->error, "the compositor reported protocol error %u on %s@%u", protocol,
             interface ? interface->name : "an object", id);
  else
    snprintf(display->error, sizeof display->error, "the connection to the compositor failed: %s",
             strerror(code ? code : errno));
}

th_layer_display *th_layer_display_connect(const char *name, char *error, size_t error_size) {
  th_layer_display *display = calloc(1, sizeof *display);
  if (!display) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  display->display = wl_display_connect(name);
  if (!display->display) {
    snprintf(error, error_size, "cannot connect to the Wayland display '%s': %s", name ? name : "", strerror(errno));
    free(display);
    return NULL;
  }
  display->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
  display->repeat_rate = 25;
  display->repeat_delay = 600;
  display->registry = wl_display_get_registry(display->display);
  wl_registry_add_listener(display->registry, &registry_listener, display);
  /* The globals, then what the bound ones send at once (outputs' modes, the seat's capabilities). */
  if (wl_display_roundtrip(display->display) < 0 || wl_display_roundtrip(display->display) < 0) {
    note_error(display);
    snprintf(error, error_size, "%s", display->error);
    th_layer_display_disconnect(display);
    return NULL;
  }
  /* No wl_seat is no reason: phoc offers one only once an input device
   * comes (a seat announced later is bound then), and GTK 4.8's window
   * crashes without one. */
  const char *missing = !display->shell        ? "zwlr_layer_shell_v1"
                        : !display->compositor ? "wl_compositor"
                        : !display->shm        ? "wl_shm"
                                               : NULL;
  if (missing || !display->xkb) {
    if (missing)
      snprintf(error, error_size, "the compositor offers no %s", missing);
    else
      snprintf(error, error_size, "xkbcommon could not make a context");
    th_layer_display_disconnect(display);
    return NULL;
  }
  return display;
}

void th_layer_display_disconnect(th_layer_display *display) {
  if (!display) return;
  if (display->surface) th_layer_surface_destroy(display->surface);
  for (size_t index = 0; index < display->output_count; index++) wl_output_destroy(display->outputs[index].proxy);
  if (display->keyboard) wl_keyboard_destroy(display->keyboard);
  if (display->pointer) wl_pointer_destroy(display->pointer);
  if (display->touch) wl_touch_destroy(display->touch);
  if (display->seat) wl_seat_destroy(display->seat);
  if (display->shell) {
    if (display->shell_version >= 3)
      zwlr_layer_shell_v1_destroy(display->shell);
    else
      wl_proxy_destroy((struct wl_proxy *)display->shell);
  }
  if (display->shm) wl_shm_destroy(display->shm);
  if (display->compositor) wl_compositor_destroy(display->compositor);
  if (display->registry) wl_registry_destroy(display->registry);
  if (display->state) xkb_state_unref(display->state);
  if (display->keymap) xkb_keymap_unref(display->keymap);
  if (display->xkb) xkb_context_unref(display->xkb);
  wl_display_flush(display->display);
  wl_display_disconnect(display->display);
  free(display);
}

uint32_t th_layer_display_shell_version(const th_layer_display *display) { return display->shell_version; }

int th_layer_display_fd(const th_layer_display *display) { return wl_display_get_fd(display->display); }

bool th_layer_display_flush(th_layer_display *display) {
  if (wl_display_flush(display->display) < 0 && errno != EAGAIN) {
    note_error(display);
    return false;
  }
  return true;
}

bool th_layer_display_dispatch(th_layer_display *display) {
  /* Events already read (by a round trip) first; then what the socket holds, without blocking. */
  while (wl_display_prepare_read(display->display) != 0) {
    if (wl_display_dispatch_pending(display->display) < 0) goto failed;
  }
  struct pollfd readable = {.fd = wl_display_get_fd(display->display), .events = POLLIN};
  if (poll(&readable, 1, 0) > 0) {
    if (wl_display_read_events(display->display) < 0) goto failed;
  } else {
    wl_display_cancel_read(display->display);
  }
  if (wl_display_dispatch_pending(display->display) < 0) goto failed;
  return th_layer_display_flush(display);
failed:
  note_error(display);
  return false;
}

bool th_layer_display_roundtrip(th_layer_display *display) {
  if (wl_display_roundtrip(display->display) < 0) {
    note_error(display);
    return false;
  }
  return true;
}

const char *th_layer_display_error(const th_layer_display *display) { return display->error; }

bool th_layer_display_next_event(th_layer_display *display, th_layer_event *event) {
  if (display->event_count == 0) return false;
  *event = display->events[display->first_event];
  display->first_event = (display->first_event + 1) % MAX_EVENTS;
  display->event_count--;
  return true;
}

bool th_layer_display_has_keyboard(const th_layer_display *display) { return display->keyboard != NULL; }

void th_layer_display_repeat_info(const th_layer_display *display, int32_t *rate, int32_t *delay) {
  *rate = display->repeat_rate;
  *delay = display->repeat_delay;
}

size_t th_layer_display_output_count(const th_layer_display *display) { return display->output_count; }

bool th_layer_display_output(const th_layer_display *display, size_t index, th_layer_output *output) {
  if (index >= display->output_count) return false;
  *output = display->outputs[index].info;
  return true;
}

/* MARK: Surface */

static bool buffer_make(th_layer_display *display, struct buffer *buffer, int32_t width, int32_t height);
static void buffer_free(struct buffer *buffer);

static int32_t output_scale_of(th_layer_display *display, struct wl_output *proxy) {
  for (size_t index = 0; index < display->output_count; index++)
    if (display->outputs[index].proxy == proxy) return display->outputs[index].info.scale;
  return 1;
}

static void surface_update_scale(th_layer_surface *surface) {
  int32_t scale = 0;
  for (int index = 0; index < MAX_OUTPUTS; index++) {
    if (!surface->entered[index]) continue;
    int32_t factor = output_scale_of(surface->display, surface->entered[index]);
    if (factor > scale) scale = factor;
  }
  if (scale == 0) scale = surface->output ? output_scale_of(surface->display, surface->output) : 1;
  scale = scale < 1 ? 1 : scale > MAX_SCALE ? MAX_SCALE : scale;
  if (surface->display->compositor_version < 3) scale = 1; /* no wl_surface.set_buffer_scale */
  if (scale == surface->scale) return;
  surface->scale = scale;
  queue_event(surface->display, (th_layer_event){.kind = TH_LAYER_EVENT_SCALE, .scale = scale});
}

static void surface_enter(void *data, struct wl_surface *proxy, struct wl_output *output) {
  (void)proxy;
  th_layer_surface *surface = data;
  for (int index = 0; index < MAX_OUTPUTS; index++) {
    if (surface->entered[index] == output) return;
  }
  for (int index = 0; index < MAX_OUTPUTS; index++) {
    if (surface->entered[index]) continue;
    surface->entered[index] = output;
    break;
  }
  surface_update_scale(surface);
}

static void surface_leave(void *data, struct wl_surface *proxy, struct wl_output *output) {
  (void)proxy;
  th_layer_surface *surface = data;
  for (int index = 0; index < MAX_OUTPUTS; index++) {
    if (surface->entered[index] == output) surface->entered[index] = NULL;
  }
  surface_update_scale(surface);
}

static const struct wl_surface_listener surface_listener = {.enter = surface_enter, .leave = surface_leave};

/* The catcher, configured the size of its output: a transparent buffer as large (cleared shared memory). */
static void catcher_configure(void *data, struct zwlr_layer_surface_v1 *layer, uint32_t serial, uint32_t width,
                              uint32_t height) {
  th_layer_surface *surface = data;
  zwlr_layer_surface_v1_ack_configure(layer, serial);
  if (width == 0 || height == 0 || width > 16384 || height > 16384) return;
  struct buffer *buffer = &surface->catcher_buffer;
  if (buffer->proxy && (buffer->width != (int32_t)width || buffer->height != (int32_t)height)) buffer_free(buffer);
  if (!buffer->proxy && !buffer_make(surface->display, buffer, (int32_t)width, (int32_t)height)) {
    wl_surface_commit(surface->catcher);
    return;
  }
  wl_surface_attach(surface->catcher, buffer->proxy, 0, 0);
  wl_surface_damage(surface->catcher, 0, 0, buffer->width, buffer->height);
  wl_surface_commit(surface->catcher);
}

static void catcher_closed(void *data, struct zwlr_layer_surface_v1 *layer) { (void)data, (void)layer; }

static const struct zwlr_layer_surface_v1_listener catcher_listener = {
    .configure = catcher_configure,
    .closed = catcher_closed,
};

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *layer, uint32_t serial, uint32_t width,
                            uint32_t height) {
  (void)layer;
  th_layer_surface *surface = data;
  surface->serial = serial;
  surface->needs_ack = true;
  surface->configured = true;
  queue_event(surface->display, (th_layer_event){.kind = TH_LAYER_EVENT_CONFIGURED, .width = width, .height = height});
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *layer) {
  (void)layer;
  th_layer_surface *surface = data;
  queue_event(surface->display, (th_layer_event){.kind = TH_LAYER_EVENT_CLOSED});
}

static const struct zwlr_layer_surface_v1_listener layer_listener = {
    .configure = layer_configure,
    .closed = layer_closed,
};

/* The catcher: under the popover (the top layer), over every window, taking no keys. */
static void catcher_create(th_layer_surface *surface, const char *name_space) {
  th_layer_display *display = surface->display;
  surface->catcher = wl_compositor_create_surface(display->compositor);
  surface->catcher_layer = zwlr_layer_shell_v1_get_layer_surface(display->shell, surface->catcher, surface->output,
                                                                 ZWLR_LAYER_SHELL_V1_LAYER_TOP, name_space);
  zwlr_layer_surface_v1_add_listener(surface->catcher_layer, &catcher_listener, surface);
  zwlr_layer_surface_v1_set_anchor(surface->catcher_layer,
                                   ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM |
                                       ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
  zwlr_layer_surface_v1_set_exclusive_zone(surface->catcher_layer, -1);
  zwlr_layer_surface_v1_set_keyboard_interactivity(surface->catcher_layer,
                                                   ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE);
  wl_surface_commit(surface->catcher);
}

th_layer_surface *th_layer_surface_create(th_layer_display *display, int output_index, const char *name_space) {
  if (display->surface) return NULL; /* one popover at a time */
  th_layer_surface *surface = calloc(1, sizeof *surface);
  if (!surface) return NULL;
  surface->display = display;
  struct wl_output *output =
      output_index >= 0 && (size_t)output_index < display->output_count ? display->outputs[output_index].proxy : NULL;
  surface->output = output;
  snprintf(surface->name_space, sizeof surface->name_space, "%s", name_space ? name_space : "");
  surface->surface = wl_compositor_create_surface(display->compositor);
  wl_surface_add_listener(surface->surface, &surface_listener, surface);
  surface->scale = output ? output_scale_of(display, output) : 1;
  if (surface->scale < 1 || surface->scale > MAX_SCALE || display->compositor_version < 3) surface->scale = 1;
  surface->layer = zwlr_layer_shell_v1_get_layer_surface(display->shell, surface->surface, output,
                                                         ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY, name_space);
  zwlr_layer_surface_v1_add_listener(surface->layer, &layer_listener, surface);
  zwlr_layer_surface_v1_set_anchor(surface->layer, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT);
  zwlr_layer_surface_v1_set_exclusive_zone(surface->layer, -1);
  zwlr_layer_surface_v1_set_keyboard_interactivity(surface->layer,
                                                   display->shell_version >= 4
                                                       ? ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND
                                                       : ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE);
  display->surface = surface;
  return surface;
}

static void buffer_release(void *data, struct wl_buffer *proxy) {
  (void)proxy;
  struct buffer *buffer = data;
  buffer->busy = false;
  th_layer_surface *surface = buffer->owner;
  if (surface && surface->waiting_for_buffer) {
    surface->waiting_for_buffer = false;
    queue_event(surface->display, (th_layer_event){.kind = TH_LAYER_EVENT_BUFFER_FREE});
  }
}

static const struct wl_buffer_listener buffer_listener = {.release = buffer_release};

static void buffer_free(struct buffer *buffer) {
  if (buffer->proxy) wl_buffer_destroy(buffer->proxy);
  if (buffer->pixels) munmap(buffer->pixels, buffer->size);
  memset(buffer, 0, sizeof *buffer);
}

void th_layer_surface_destroy(th_layer_surface *surface) {
  if (!surface) return;
  zwlr_layer_surface_v1_destroy(surface->layer);
  wl_surface_destroy(surface->surface);
  for (int index = 0; index < MAX_BUFFERS; index++) buffer_free(&surface->buffers[index]);
  if (surface->catcher_layer) zwlr_layer_surface_v1_destroy(surface->catcher_layer);
  if (surface->catcher) wl_surface_destroy(surface->catcher);
  buffer_free(&surface->catcher_buffer);
  if (surface->display->pointer_surface == surface->surface || surface->display->pointer_surface == surface->catcher)
    surface->display->pointer_surface = NULL;
  if (surface->display->surface == surface) surface->display->surface = NULL;
  wl_display_flush(surface->display->display);
  free(surface);
}

void th_layer_surface_place(th_layer_surface *surface, int32_t x, int32_t y, int32_t width, int32_t height) {
  zwlr_layer_surface_v1_set_size(surface->layer, (uint32_t)(width > 0 ? width : 1), (uint32_t)(height > 0 ? height : 1));
  zwlr_layer_surface_v1_set_margin(surface->layer, y, 0, 0, x);
  if (!surface->committed) {
    surface->committed = true;
    catcher_create(surface, surface->name_space);
    wl_surface_commit(surface->surface);
  }
  wl_display_flush(surface->display->display);
}

bool th_layer_surface_is_configured(const th_layer_surface *surface) { return surface->configured; }

bool th_layer_surface_has_free_buffer(th_layer_surface *surface) {
  for (int index = 0; index < MAX_BUFFERS; index++)
    if (!surface->buffers[index].busy) return true;
  surface->waiting_for_buffer = true;
  return false;
}

int32_t th_layer_surface_scale(const th_layer_surface *surface) { return surface->scale; }

static bool buffer_make(th_layer_display *display, struct buffer *buffer, int32_t width, int32_t height) {
  int32_t stride = width * 4;
  size_t size = (size_t)stride * (size_t)height;
  int fd = memfd_create("translation-host-popover", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return false;
  if (ftruncate(fd, (off_t)size) < 0) {
    close(fd);
    return false;
  }
  uint8_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (pixels == MAP_FAILED) {
    close(fd);
    return false;
  }
  /* The compositor may not shrink the file under the mapping. */
  fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
  struct wl_shm_pool *pool = wl_shm_create_pool(display->shm, fd, (int32_t)size);
  buffer->proxy = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
  wl_shm_pool_destroy(pool);
  close(fd);
  wl_buffer_add_listener(buffer->proxy, &buffer_listener, buffer);
  buffer->pixels = pixels;
  buffer->size = size;
  buffer->width = width;
  buffer->height = height;
  buffer->busy = false;
  return true;
}

uint8_t *th_layer_surface_begin_frame(th_layer_surface *surface, int32_t logical_width, int32_t logical_height,
                                      int32_t *stride, int32_t *scale) {
  if (logical_width <= 0 || logical_height <= 0 || logical_width > 16384 || logical_height > 16384) return NULL;
  int32_t width = logical_width * surface->scale, height = logical_height * surface->scale;
  struct buffer *chosen = NULL;
  for (int index = 0; index < MAX_BUFFERS && !chosen; index++) {
    struct buffer *buffer = &surface->buffers[index];
    if (buffer->busy) continue;
    if (buffer->proxy && (buffer->width != width || buffer->height != height)) buffer_free(buffer);
    if (!buffer->proxy && !buffer_make(surface->display, buffer, width, height)) return NULL;
    buffer->owner = surface;
    chosen = buffer;
  }
  if (!chosen) return NULL;
  surface->drawing = chosen;
  *stride = width * 4;
  chosen->scale = surface->scale;
  *scale = surface->scale;
  memset(chosen->pixels, 0, chosen->size);
  return chosen->pixels;
}

void th_layer_surface_commit(th_layer_surface *surface) {
  struct buffer *buffer = surface->drawing;
  if (!buffer) return;
  surface->drawing = NULL;
  if (surface->needs_ack) {
    zwlr_layer_surface_v1_ack_configure(surface->layer, surface->serial);
    surface->needs_ack = false;
  }
  /* The buffer's size is a multiple of its scale (begin_frame), as the protocol requires. */
  if (surface->display->compositor_version >= 3) wl_surface_set_buffer_scale(surface->surface, buffer->scale);
  wl_surface_attach(surface->surface, buffer->proxy, 0, 0);
  wl_surface_damage(surface->surface, 0, 0, buffer->width / buffer->scale, buffer->height / buffer->scale);
  wl_surface_commit(surface->surface);
  buffer->busy = true;
  wl_display_flush(surface->display->display);
}
