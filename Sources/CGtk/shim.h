/*
 * shim.h: GTK 4 (Debian libgtk-4-dev), with its X11 backend, XTest
 * (libxtst-dev), X-Resource (libxres-dev: which process owns a window) and
 * the X Shape extension (libxext-dev: the popover's outline without a compositor),
 * for the desktop popover. GObject's macros, which Swift
 * cannot import, are wrapped in static inline functions.
 */
#ifndef TRANSLATION_HOST_CGTK_SHIM_H
#define TRANSLATION_HOST_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <gdk/x11/gdkx.h>
#include <X11/Xlib.h>
#include <X11/keysym.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/XRes.h>
#include <X11/extensions/shape.h>

/* g_signal_connect is a macro. */
static inline gulong th_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data) {
  return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

/* Whether the display GTK opened is an X11 one (the checks are macros). */
static inline gboolean th_is_x11_display(GdkDisplay *display) { return GDK_IS_X11_DISPLAY(display); }

static inline Display *th_x11_display(GdkDisplay *display) { return gdk_x11_display_get_xdisplay(display); }

static inline Window th_x11_surface_xid(GdkSurface *surface) { return gdk_x11_surface_get_xid(surface); }

/*
 * Wayland: makes `surface` (a realized, unmapped toplevel) the dialog of the
 * window another client exported as `handle` (xdg-foreign). FALSE when this
 * is not a Wayland toplevel or the compositor has no xdg-foreign.
 */
#include <gdk/wayland/gdkwayland.h>
static inline gboolean th_wayland_set_parent_handle(GdkSurface *surface, const char *handle) {
  if (!GDK_IS_WAYLAND_TOPLEVEL(surface)) return FALSE;
  return gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)handle);
}

/* Sets a boolean GtkSettings property (g_object_set is variadic). */
static inline void th_settings_set_boolean(const char *name, gboolean value) {
  g_object_set(gtk_settings_get_default(), name, value, NULL);
}

#endif
