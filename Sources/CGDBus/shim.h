// GLib's GDBus (Debian libglib2.0-dev) for the resident service's D-Bus
// interface, and GIO's GSettings for `shortcut`'s GNOME keybinding. Swift
// cannot call C's variadic functions, so the few GVariant constructions and
// GObject signal connections that only exist as variadic calls or macros get
// a fixed-argument inline wrapper here.
#ifndef TRANSLATION_HOST_CGDBUS_SHIM_H
#define TRANSLATION_HOST_CGDBUS_SHIM_H

#include <gio/gio.h>

/// A `(us)` tuple: Present's reply.
static inline GVariant *cgdbus_tuple_us(guint32 number, const char *text) {
  return g_variant_new("(us)", number, text);
}

/// A `(sdb)` tuple: Detect's reply.
static inline GVariant *cgdbus_tuple_sdb(const char *text, double number, gboolean flag) {
  return g_variant_new("(sdb)", text, number, flag);
}

/// A `(su)` tuple: RequestName's arguments.
static inline GVariant *cgdbus_tuple_su(const char *text, guint32 number) {
  return g_variant_new("(su)", text, number);
}

/// A `(s)` tuple: the argument of the bus's own calls about a connection.
static inline GVariant *cgdbus_tuple_s(const char *text) {
  return g_variant_new("(s)", text);
}

/// Connects `handler` to `signal` of `instance` (`g_signal_connect` is a macro).
static inline gulong cgdbus_signal_connect(gpointer instance, const char *signal, GCallback handler, gpointer data) {
  return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

#endif
