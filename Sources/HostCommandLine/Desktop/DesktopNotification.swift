import CGDBus

/// A desktop notification (`org.freedesktop.Notifications` on the session
/// bus): how `run` started from a shortcut, with no terminal to write to,
/// tells the person what it would have written to stderr.
enum DesktopNotification {
  /// How long the notification server may take to answer: a hung one must not hold `run`.
  static let timeoutMilliseconds: Int32 = 2000

  /// Shows `body` under `summary`; critical ones (errors) stay until dismissed.
  /// - Returns: whether a notification server took it.
  @discardableResult
  static func show(summary: String, body: String, critical: Bool) -> Bool {
    var error: UnsafeMutablePointer<GError>?
    guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
      if let error { g_error_free(error) }
      return false
    }
    defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
    let arguments = cgdbus_notify_arguments(
      "translation-host", critical ? "dialog-error" : "dialog-information", summary, body, critical ? 2 : 1)
    let reply = g_dbus_connection_call_sync(
      connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
      "Notify", arguments, nil, G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, &error)
    if let error { g_error_free(error) }
    guard let reply else { return false }
    g_variant_unref(reply)
    return true
  }
}
