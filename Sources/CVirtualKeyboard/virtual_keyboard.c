/*
 * virtual_keyboard.c: see include/virtual_keyboard.h.
 */
#define _GNU_SOURCE
#include "virtual_keyboard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "virtual_keyboard_protocol.h"

struct th_virtual_keyboard {
  struct wl_display *display;
  struct wl_registry *registry;
  struct wl_seat *seat;
  struct zwp_virtual_keyboard_manager_v1 *manager;
  struct zwp_virtual_keyboard_v1 *keyboard;
  uint32_t seat_capabilities;
  /* The seat's keyboard capability before this keyboard was added to it. */
  int seat_had_keyboard;
  int has_keymap;
};

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
  (void)seat;
  ((struct th_virtual_keyboard *)data)->seat_capabilities = capabilities;
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) {
  (void)data;
  (void)seat;
  (void)name;
}

static const struct wl_seat_listener seat_listener = {
    .capabilities = seat_capabilities,
    .name = seat_name,
};

static void registry_global(
    void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
  struct th_virtual_keyboard *keyboard = data;
  (void)version;
  /* Version 1 of each is all that is used; a compositor offers at least that. */
  if (strcmp(interface, wl_seat_interface.name) == 0 && keyboard->seat == NULL) {
    keyboard->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    wl_seat_add_listener(keyboard->seat, &seat_listener, keyboard);
  } else if (strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0 && keyboard->manager == NULL) {
    keyboard->manager = wl_registry_bind(registry, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
  }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
  (void)data;
  (void)registry;
  (void)name;
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global,
    .global_remove = registry_global_remove,
};

/* Waits until the compositor has handled every request sent so far. */
static th_virtual_keyboard_status synchronise(struct th_virtual_keyboard *keyboard) {
  if (wl_display_roundtrip(keyboard->display) >= 0) return TH_VIRTUAL_KEYBOARD_OK;
  return wl_display_get_error(keyboard->display) == EPROTO ? TH_VIRTUAL_KEYBOARD_REFUSED : TH_VIRTUAL_KEYBOARD_LOST;
}

th_virtual_keyboard *th_virtual_keyboard_open(const char *name, th_virtual_keyboard_status *status) {
  struct th_virtual_keyboard *keyboard = calloc(1, sizeof *keyboard);
  if (keyboard == NULL) {
    *status = TH_VIRTUAL_KEYBOARD_LOST;
    return NULL;
  }
  keyboard->display = wl_display_connect(name);
  if (keyboard->display == NULL) {
    *status = TH_VIRTUAL_KEYBOARD_NO_DISPLAY;
    free(keyboard);
    return NULL;
  }
  keyboard->registry = wl_display_get_registry(keyboard->display);
  wl_registry_add_listener(keyboard->registry, &registry_listener, keyboard);
  /* The first round trip brings the globals, the second the seat's capabilities. */
  *status = synchronise(keyboard);
  if (*status == TH_VIRTUAL_KEYBOARD_OK) *status = synchronise(keyboard);
  if (*status == TH_VIRTUAL_KEYBOARD_OK && keyboard->manager == NULL) *status = TH_VIRTUAL_KEYBOARD_UNSUPPORTED;
  if (*status == TH_VIRTUAL_KEYBOARD_OK && keyboard->seat == NULL) *status = TH_VIRTUAL_KEYBOARD_NO_SEAT;
  if (*status == TH_VIRTUAL_KEYBOARD_OK) {
    /* Read now: the seat announces this keyboard during the next round trip. */
    keyboard->seat_had_keyboard = (keyboard->seat_capabilities & WL_SEAT_CAPABILITY_KEYBOARD) != 0;
    keyboard->keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(keyboard->manager, keyboard->seat);
    *status = synchronise(keyboard);
  }
  if (*status != TH_VIRTUAL_KEYBOARD_OK) {
    th_virtual_keyboard_close(keyboard);
    return NULL;
  }
  return keyboard;
}

int th_virtual_keyboard_seat_had_keyboard(const th_virtual_keyboard *keyboard) {
  return keyboard->seat_had_keyboard;
}

th_virtual_keyboard_status th_virtual_keyboard_set_keymap(
    th_virtual_keyboard *keyboard, const char *keymap, size_t length) {
  if (length > UINT32_MAX - 1) return TH_VIRTUAL_KEYBOARD_KEYMAP_FILE;
  int fd = memfd_create("translation-host-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return TH_VIRTUAL_KEYBOARD_KEYMAP_FILE;
  /* The compositor reads a NUL-terminated string of `size` bytes, the NUL included. */
  size_t written = 0;
  while (written < length + 1) {
    const char *from = written < length ? keymap + written : "";
    size_t count = written < length ? length - written : 1;
    ssize_t result = write(fd, from, count);
    if (result < 0 && errno == EINTR) continue;
    if (result <= 0) {
      close(fd);
      return TH_VIRTUAL_KEYBOARD_KEYMAP_FILE;
    }
    written += (size_t)result;
  }
  /* The compositor maps it: sealed, the keymap cannot change or shrink under it. */
  fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  zwp_virtual_keyboard_v1_keymap(keyboard->keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)(length + 1));
  /* libwayland sends a duplicate of the descriptor. */
  close(fd);
  zwp_virtual_keyboard_v1_modifiers(keyboard->keyboard, 0, 0, 0, 0);
  keyboard->has_keymap = 1;
  return synchronise(keyboard);
}

/* Milliseconds of the monotonic clock, the one clock every key uses. */
static uint32_t milliseconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint32_t)((uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000);
}

th_virtual_keyboard_status th_virtual_keyboard_tap(th_virtual_keyboard *keyboard, uint32_t key) {
  if (!keyboard->has_keymap) return TH_VIRTUAL_KEYBOARD_REFUSED;
  zwp_virtual_keyboard_v1_key(keyboard->keyboard, milliseconds(), key, WL_KEYBOARD_KEY_STATE_PRESSED);
  zwp_virtual_keyboard_v1_key(keyboard->keyboard, milliseconds(), key, WL_KEYBOARD_KEY_STATE_RELEASED);
  return synchronise(keyboard);
}

void th_virtual_keyboard_close(th_virtual_keyboard *keyboard) {
  if (keyboard == NULL) return;
  if (keyboard->keyboard != NULL) zwp_virtual_keyboard_v1_destroy(keyboard->keyboard);
  if (keyboard->manager != NULL) zwp_virtual_keyboard_manager_v1_destroy(keyboard->manager);
  if (keyboard->seat != NULL) wl_seat_destroy(keyboard->seat);
  if (keyboard->registry != NULL) wl_registry_destroy(keyboard->registry);
  if (keyboard->display != NULL) {
    wl_display_flush(keyboard->display);
    wl_display_disconnect(keyboard->display);
  }
  free(keyboard);
}
