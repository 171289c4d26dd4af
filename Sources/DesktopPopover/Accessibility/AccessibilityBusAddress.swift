import CGtk
import System

/// Finds the accessibility bus and checks that it answers, before libatspi
/// is asked to: libatspi aborts the process (`g_error`) when it cannot
/// connect, so a session without at-spi2-core, or with a stale address,
/// must not reach it.
enum AccessibilityBusAddress {
  /// How long the session bus may take to give the address (it may start
  /// at-spi-bus-launcher first).
  static let timeoutMilliseconds: Int32 = 1500

  /// The address of an accessibility bus that accepted a connection, also
  /// set as `AT_SPI_BUS_ADDRESS` for libatspi; nil when there is none.
  static func verified() -> String? {
    if let given = Syscalls.environmentVariable("AT_SPI_BUS_ADDRESS"), !given.isEmpty {
      return accepts(given) ? given : nil
    }
    guard
      Syscalls.environmentVariable("DBUS_SESSION_BUS_ADDRESS") != nil
        || Syscalls.environmentVariable("XDG_RUNTIME_DIR") != nil
    else { return nil }
    var error: UnsafeMutablePointer<GError>?
    guard let session = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
      if let error { g_error_free(error) }
      return nil
    }
    defer { g_object_unref(UnsafeMutableRawPointer(session)) }
    let type = g_variant_type_new("(s)")
    defer { g_variant_type_free(type) }
    guard
      let reply = g_dbus_connection_call_sync(
        session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", nil, type, G_DBUS_CALL_FLAGS_NONE,
        timeoutMilliseconds, nil, &error)
    else {
      if let error { g_error_free(error) }
      return nil
    }
    defer { g_variant_unref(reply) }
    guard let child = g_variant_get_child_value(reply, 0) else { return nil }
    defer { g_variant_unref(child) }
    let address = String(cString: g_variant_get_string(child, nil))
    guard !address.isEmpty, accepts(address) else { return nil }
    Syscalls.setEnvironmentVariableIfUnset("AT_SPI_BUS_ADDRESS", to: address)
    return address
  }

  /// Whether a D-Bus server at `address` accepts a connection.
  private static func accepts(_ address: String) -> Bool {
    var error: UnsafeMutablePointer<GError>?
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
      if let error { g_error_free(error) }
      return false
    }
    g_dbus_connection_close_sync(connection, nil, nil)
    g_object_unref(UnsafeMutableRawPointer(connection))
    return true
  }
}
