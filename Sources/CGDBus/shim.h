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

/// The arguments of org.freedesktop.Notifications.Notify, `(susssasa{sv}i)`:
/// no actions, the urgency hint (0 low, 1 normal, 2 critical), the default timeout.
static inline GVariant *cgdbus_notify_arguments(const char *application, const char *icon, const char *summary,
                                                const char *body, guchar urgency) {
  GVariantBuilder hints;
  g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&hints, "{sv}", "urgency", g_variant_new_byte(urgency));
  return g_variant_new("(susssasa{sv}i)", application, (guint32)0, icon, summary, body, NULL, &hints, (gint32)-1);
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
