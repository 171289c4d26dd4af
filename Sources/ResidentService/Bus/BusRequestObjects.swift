import CBusInterface
import CGDBus
import System

/// The request objects of `Present`, as xdg-desktop-portal's: each call gets
/// an object at `<objectPath>/request/<sender>/<token>` (the sender's unique
/// name without its colon, dots as underscores; the token the caller's
/// `handle_token`, so it can subscribe to the signal before it calls), which
/// implements `org.freedesktop.portal.Request`: `Close()` closes the popover
/// (no `Response` follows), and `Response(u response, a{sv} results)` is sent
/// to the caller alone when the person decides, however long that takes.
/// The object is removed after either.
final class BusRequestObjects: @unchecked Sendable {
  static let interfaceName = "org.freedesktop.portal.Request"

  private struct Entry {
    var sender: String
    var registration: guint
    var cancellation: Cancellation
  }

  private let lock = Condition()
  private var entries: [String: Entry] = [:]
  private var counter = 0
  /// The skeleton gdbus-codegen generated from Packaging/dbus's XML
  /// (`CBusPortalRequestSkeleton`), registered at each request's path: its
  /// dispatch emits `handle-close`, which `close` handles. Lives as long as this.
  private let skeleton: OpaquePointer

  init() {
    skeleton = cbus_portal_request_skeleton_new()!
    let close: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, invocation, data in
      Unmanaged<BusRequestObjects>.fromOpaque(data!).takeUnretainedValue().close(invocation!)
      return 1
    }
    _ = cgdbus_signal_connect(
      UnsafeMutableRawPointer(skeleton), "handle-close", unsafeBitCast(close, to: GCallback.self),
      Unmanaged.passUnretained(self).toOpaque())
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(skeleton)) }

  /// The path of `sender`'s request with `token` (nil: one made here).
  /// - Throws: `InvalidArgs` for a token that is not 1 to 64 ASCII letters, digits and underscores.
  func path(for sender: String, token: String?) throws(BusError) -> String {
    let name = String(sender.drop { $0 == ":" }.map { $0 == "." ? "_" : $0 })
    let token =
      try token
      ?? lock.withLock {
        counter += 1
        return "t\(counter)"
      }
    guard (1...64).contains(token.utf8.count), token.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || Self.isAlphanumeric($0) })
    else {
      throw .invalidArguments(
        "option 'handle_token' is '\(token)'; it takes 1 to 64 ASCII letters, digits and underscores, as the portals' does")
    }
    return BusInterface.objectPath + "/request/" + name + "/" + token
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Exports the request object at `path` for `sender`; on the bus's
  /// thread, which then answers its `Close`.
  /// - Throws: `InvalidArgs` when the caller has a request at that path already.
  func export(
    _ path: String, for sender: String, cancellation: Cancellation, on connection: OpaquePointer
  ) throws(BusError) {
    var error: UnsafeMutablePointer<GError>?
    let registration = lock.withLock { () -> guint in
      guard entries[path] == nil else { return 0 }
      let id = g_dbus_connection_register_object(
        connection, path, cbus_portal_request_interface_info(), cbus_skeleton_vtable(UnsafeMutableRawPointer(skeleton)),
        UnsafeMutableRawPointer(skeleton), nil, &error)
      if id != 0 { entries[path] = Entry(sender: sender, registration: id, cancellation: cancellation) }
      return id
    }
    guard registration != 0 else {
      let reason = error.map { String(cString: $0.pointee.message) } ?? "a request with this handle_token is open"
      if let error { g_error_free(error) }
      throw .invalidArguments("cannot make the request object \(path): \(reason); use another handle_token")
    }
  }

  /// Ends the request at `path`: sends its `Response` to its caller, unless
  /// it was closed, and removes the object.
  func finish(_ path: String, response: UInt32, results: [String: String], on connection: OpaquePointer) {
    guard let entry = remove(path, on: connection) else { return }
    let dictionary = GVariantCoding.makeArray(
      elementType: "{sv}",
      results.sorted { $0.key < $1.key }.map { key, value in
        g_variant_new_dict_entry(GVariantCoding.make(key), g_variant_new_variant(GVariantCoding.make(value)))
      })
    let parameters = GVariantCoding.makeTuple([g_variant_new_uint32(response), dictionary])
    g_dbus_connection_emit_signal(connection, entry.sender, path, Self.interfaceName, "Response", parameters, nil)
  }

  /// Removes the object at `path`; nil if it was removed already (closed).
  @discardableResult
  func remove(_ path: String, on connection: OpaquePointer) -> (sender: String, cancellation: Cancellation)? {
    let entry = lock.withLock { entries.removeValue(forKey: path) }
    guard let entry else { return nil }
    g_dbus_connection_unregister_object(connection, entry.registration)
    return (entry.sender, entry.cancellation)
  }

  /// `Close`, on the bus's thread: only the request's own caller may close it.
  private func close(_ invocation: OpaquePointer) {
    let sender = g_dbus_method_invocation_get_sender(invocation).map { String(cString: $0) } ?? ""
    let path = String(cString: g_dbus_method_invocation_get_object_path(invocation))
    let connection = g_dbus_method_invocation_get_connection(invocation)!
    let owner = lock.withLock { entries[path]?.sender }
    guard owner == sender else {
      return g_dbus_method_invocation_return_dbus_error(
        invocation, "org.freedesktop.DBus.Error.AccessDenied", "\(path) is another caller's request")
    }
    // Removed first: the popover that ends now sends no Response.
    remove(path, on: connection)?.cancellation.fire()
    g_dbus_method_invocation_return_value(invocation, nil)
  }
}
