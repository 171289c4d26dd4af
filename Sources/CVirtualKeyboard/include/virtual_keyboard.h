/*
 * virtual_keyboard.h: typing into the focused window through a Wayland
 * compositor's virtual keyboard (zwp_virtual_keyboard_v1), with Debian's
 * libwayland-client. C, because the protocol's listeners and requests are
 * C structs, variadic marshalling and inline functions that wayland-scanner
 * generates (virtual_keyboard_protocol.h, from
 * Packaging/wayland/virtual-keyboard-unstable-v1.xml). The keymap and the
 * keys to press are made in Swift (DesktopPopover's TypingPlan); this file
 * only carries them to the compositor.
 *
 * One connection of its own, not GDK's: a keyboard lives as long as the
 * typing, and nothing here runs on GTK's main loop. Not thread-safe: one
 * thread uses a th_virtual_keyboard from open to close.
 */
#ifndef TH_VIRTUAL_KEYBOARD_H
#define TH_VIRTUAL_KEYBOARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  TH_VIRTUAL_KEYBOARD_OK = 0,
  /* No Wayland display at that name (no compositor, or not ours). */
  TH_VIRTUAL_KEYBOARD_NO_DISPLAY,
  /* The compositor offers no zwp_virtual_keyboard_manager_v1 (GNOME, KDE, Weston). */
  TH_VIRTUAL_KEYBOARD_UNSUPPORTED,
  /* The compositor offers no seat to add a keyboard to. */
  TH_VIRTUAL_KEYBOARD_NO_SEAT,
  /* The compositor ended the connection with a protocol error (unauthorized). */
  TH_VIRTUAL_KEYBOARD_REFUSED,
  /* The connection broke (the compositor went away). */
  TH_VIRTUAL_KEYBOARD_LOST,
  /* The keymap's file could not be made (memfd_create, write). */
  TH_VIRTUAL_KEYBOARD_KEYMAP_FILE,
} th_virtual_keyboard_status;

typedef struct th_virtual_keyboard th_virtual_keyboard;

/*
 * Connects to the display `name` (WAYLAND_DISPLAY's value, or an absolute
 * path to its socket; never NULL), binds the first seat and adds a virtual
 * keyboard to it. Returns NULL and sets *status when any step fails; the
 * caller owns the result and gives it to th_virtual_keyboard_close.
 */
th_virtual_keyboard *th_virtual_keyboard_open(const char *name, th_virtual_keyboard_status *status);

/*
 * Whether the seat had a keyboard before this one was added. Without one,
 * applications learn of a keyboard only once this one appears, and keys
 * sent before they bind it reach no one: the caller waits first.
 */
int th_virtual_keyboard_seat_had_keyboard(const th_virtual_keyboard *keyboard);

/*
 * Gives the compositor `keymap` (an XKB keymap as text, `length` bytes, not
 * necessarily NUL-terminated; copied into a sealed memfd) and releases every
 * modifier, then waits until the compositor has read both.
 */
th_virtual_keyboard_status th_virtual_keyboard_set_keymap(
    th_virtual_keyboard *keyboard, const char *keymap, size_t length);

/*
 * Presses and releases `key` (an evdev code: the keymap's keycode less 8),
 * then waits until the compositor has handled both.
 */
th_virtual_keyboard_status th_virtual_keyboard_tap(th_virtual_keyboard *keyboard, uint32_t key);

/* Removes the keyboard from the seat and disconnects. NULL is ignored. */
void th_virtual_keyboard_close(th_virtual_keyboard *keyboard);

#ifdef __cplusplus
}
#endif

#endif
