import CGtk
import CHostProcess

/// A connection to the session bus for talking to xdg-desktop-portal
/// (`org.freedesktop.portal.Desktop`): its method calls, and its
/// request-and-response pattern, in which a call returns at once and its
/// outcome comes later as the `Response` signal of a request object (after
/// the person has answered the portal's dialog, if it shows one).
///
/// The connection is its own (not GIO's shared one), to the bus the
/// environment names, so that the agent and the popover talk to the
/// session's portal whatever their own process environment says. Calls
/// block; responses are waited for on a main context of this value's own,
/// so nothing else runs meanwhile. Signals subscribed with `subscribe` are
/// dispatched on the main context that is the thread's default when it is
/// called (GLib's main loop, in the agent).
final class PortalBus {
  static let portalName = "org.freedesktop.portal.Desktop"
  static let portalPath = "/org/freedesktop/portal/desktop"
  /// How long a call that shows no dialog may take.
  static let callTimeout = Duration.seconds(10)

  let connection: OpaquePointer
  private let context: OpaquePointer
  /// The unique name's letters as request paths use them: `:1.42` → `1_42`.
  private let sender: String
  private var nextToken = 0

  /// Connects to the session bus `environment` names (`DBUS_SESSION_BUS_ADDRESS`).
  init(environment: [String: String]) throws(PortalError) {
    guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else { throw .noBus }
    var error: UnsafeMutablePointer<GError>?
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
      throw .cannotConnect(Self.consume(error))
    }
    g_dbus_connection_set_exit_on_close(connection, 0)
    self.connection = connection
    context = g_main_context_new()
    sender = String(String(cString: g_dbus_connection_get_unique_name(connection)).dropFirst().map { $0 == "." ? "_" : $0 })
  }

  deinit {
    g_dbus_connection_close_sync(connection, nil, nil)
    g_object_unref(UnsafeMutableRawPointer(connection))
    g_main_context_unref(context)
  }

  /// The portal's `version` of `interface`, nil when the portal does not
  /// offer it (no xdg-desktop-portal, or no back end of this desktop implements it).
  func version(of interface: String) -> UInt32? {
    guard let value = property("version", of: interface) else { return nil }
    defer { g_variant_unref(value) }
    return Self.isType(value, "u") ? g_variant_get_uint32(value) : nil
  }

  /// A property of the portal's `interface`, nil when it cannot be read. Owned by the caller.
  func property(_ name: String, of interface: String) -> OpaquePointer? {
    let arguments = Self.tuple([g_variant_new_string(interface), g_variant_new_string(name)])
    guard
      let reply = try? call(
        "org.freedesktop.DBus.Properties", "Get", arguments, path: Self.portalPath, reply: "(v)")
    else { return nil }
    defer { g_variant_unref(reply) }
    let boxed = g_variant_get_child_value(reply, 0)!
    defer { g_variant_unref(boxed) }
    return g_variant_get_variant(boxed)
  }

  /// Calls `method` of the portal's `interface` with `arguments` (a floating
  /// tuple, consumed) and returns its reply (owned by the caller).
  @discardableResult
  func call(
    _ interface: String, _ method: String, _ arguments: OpaquePointer, path: String = portalPath,
    reply: String? = nil, timeout: Duration = callTimeout
  ) throws(PortalError) -> OpaquePointer {
    var error: UnsafeMutablePointer<GError>?
    let type: OpaquePointer? = reply.flatMap { g_variant_type_new($0) }
    defer { if let type { g_variant_type_free(type) } }
    guard
      let result = g_dbus_connection_call_sync(
        connection, Self.portalName, path, interface, method, arguments, type, G_DBUS_CALL_FLAGS_NONE,
        Int32(clamping: timeout.components.seconds * 1000), nil, &error)
    else { throw .callFailed(method: "\(interface).\(method)", Self.consume(error)) }
    return result
  }

  /// Runs `body`, which makes this connection's first call to a portal,
  /// with the process dumpable: xdg-desktop-portal identifies a new caller
  /// by opening its `/proc/<pid>/root` (a sandboxed application's differs)
  /// and refuses one it cannot open, as it cannot a process that is not
  /// dumpable (`tp_host_forbid_attaching`, set by the host at start). It
  /// remembers the answer for the connection, so the process is not
  /// dumpable again once the call has been answered: for one round trip to
  /// the portal. Provider runners, the same user's processes the host
  /// guards against, cannot attach meanwhile (their system-call filter and
  /// Landlock refuse `ptrace`).
  func identifying<Result>(_ body: () throws(PortalError) -> Result) throws(PortalError) -> Result {
    guard tp_host_is_attachable() == 0, tp_host_allow_attaching() == 0 else { return try body() }
    defer { _ = tp_host_forbid_attaching() }
    return try body()
  }

  /// A handle token for a request or session of ours: unique in this connection.
  func token(_ kind: String) -> String {
    nextToken += 1
    return "translationhost_\(kind)_\(nextToken)_\(UInt32.random(in: 0...UInt32.max))"
  }

  /// The path of the request (or session) object the portal makes for `token`.
  func objectPath(_ kind: String, token: String) -> String {
    "\(Self.portalPath)/\(kind)/\(sender)/\(token)"
  }

  /// Calls `method`, whose options (built by `options`, given a fresh
  /// `handle_token`) make it a request, and waits up to `patience` for the
  /// request's `Response`.
  /// - Returns: the response code (0 granted, 1 the person cancelled,
  ///   2 otherwise ended) and the results (owned by the caller).
  /// - Throws: when the call fails or no response comes in time (the request is then closed).
  func request(
    _ interface: String, _ method: String, patience: Duration,
    arguments: (_ handleToken: String) -> OpaquePointer
  ) throws(PortalError) -> (response: UInt32, results: OpaquePointer) {
    let token = token("request")
    let path = objectPath("request", token: token)
    let box = ResponseBox()
    g_main_context_push_thread_default(context)
    let subscription = g_dbus_connection_signal_subscribe(
      connection, Self.portalName, "org.freedesktop.portal.Request", "Response", path, nil,
      G_DBUS_SIGNAL_FLAGS_NONE,
      Self.onResponse, Unmanaged.passUnretained(box).toOpaque(), nil)
    g_main_context_pop_thread_default(context)
    defer { g_dbus_connection_signal_unsubscribe(connection, subscription) }
    let handle = try call(interface, method, arguments(token), reply: "(o)")
    g_variant_unref(handle)
    let deadline = ContinuousClock.now.advanced(by: patience)
    while box.response == nil && ContinuousClock.now < deadline {
      let timer = g_timeout_source_new(UInt32(clamping: max(1, (deadline - .now).components.seconds * 1000 + 1)))!
      g_source_set_callback(timer, { _ in 0 }, nil, nil)
      g_source_attach(timer, context)
      g_main_context_iteration(context, 1)
      g_source_destroy(timer)
      g_source_unref(timer)
    }
    guard let response = box.response, let results = box.results else {
      if let closed = try? call("org.freedesktop.portal.Request", "Close", Self.tuple([]), path: path) {
        g_variant_unref(closed)
      }
      throw .noResponse(method: "\(interface).\(method)", waited: patience)
    }
    return (response, results)
  }

  /// Asks `interface` for a session (`CreateSession`, the call that
  /// identifies this process to the portal) and waits for its answer.
  /// - Returns: the session's object path.
  /// - Throws: `PortalError` when the call fails or is not granted; `step`
  ///   says what was asked, in its message.
  func createSession(_ interface: String, step: String) throws(PortalError) -> String {
    let sessionToken = token("session")
    let created = try identifying { () throws(PortalError) in
      try request(interface, "CreateSession", patience: Self.callTimeout) { token in
        Self.tuple([
          Self.dictionary([
            ("handle_token", g_variant_new_string(token)), ("session_handle_token", g_variant_new_string(sessionToken)),
          ])
        ])
      }
    }
    defer { g_variant_unref(created.results) }
    try PortalError.check(created.response, step: step)
    return Self.string("session_handle", in: created.results) ?? objectPath("session", token: sessionToken)
  }

  // MARK: GVariant

  /// A tuple of `children` (floating values, consumed).
  static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
    var children = children
    return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count))! }
  }

  /// An `a{sv}` dictionary of `entries` (floating values, consumed).
  static func dictionary(_ entries: [(String, OpaquePointer?)]) -> OpaquePointer {
    let type = g_variant_type_new("a{sv}")
    defer { g_variant_type_free(type) }
    let builder = g_variant_builder_new(type)!
    defer { g_variant_builder_unref(builder) }
    for (key, value) in entries {
      g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
    }
    return g_variant_builder_end(builder)
  }

  /// The string `key` of the `a{sv}` `dictionary`, if it is one.
  static func string(_ key: String, in dictionary: OpaquePointer) -> String? {
    guard let value = g_variant_lookup_value(dictionary, key, nil) else { return nil }
    defer { g_variant_unref(value) }
    guard isType(value, "s") || isType(value, "o") else { return nil }
    return String(cString: g_variant_get_string(value, nil))
  }

  /// The `u` `key` of the `a{sv}` `dictionary`, if it is one.
  static func uint32(_ key: String, in dictionary: OpaquePointer) -> UInt32? {
    guard let value = g_variant_lookup_value(dictionary, key, nil) else { return nil }
    defer { g_variant_unref(value) }
    return isType(value, "u") ? g_variant_get_uint32(value) : nil
  }

  /// Whether `value` is of the type `type` (a GVariant type string).
  static func isType(_ value: OpaquePointer, _ type: String) -> Bool {
    String(cString: g_variant_get_type_string(value)) == type
  }

  static func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    return String(cString: error.pointee.message)
  }

  // MARK: Response

  private final class ResponseBox {
    var response: UInt32?
    var results: OpaquePointer?
  }

  private static let onResponse: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters, let data, g_variant_n_children(parameters) == 2 else { return }
    let box = Unmanaged<ResponseBox>.fromOpaque(data).takeUnretainedValue()
    guard box.response == nil else { return }
    let code = g_variant_get_child_value(parameters, 0)!
    defer { g_variant_unref(code) }
    guard isType(code, "u") else { return }
    box.response = g_variant_get_uint32(code)
    box.results = g_variant_get_child_value(parameters, 1)
  }
}
