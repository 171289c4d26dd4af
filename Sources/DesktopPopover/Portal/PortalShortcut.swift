import CGtk

/// The global shortcut bound through xdg-desktop-portal's
/// `GlobalShortcuts` (where a back end implements it: KDE Plasma's; not
/// GNOME 43's nor wlroots'), held by the resident agent
/// (`DesktopAgent`, `agent --global-shortcut`): a binding lives as long as
/// its portal session, and the session as long as the connection that made
/// it, so the process that shows the popover holds it and shows the popover
/// itself on `Activated`, with no process started per press.
///
/// Made by `bind`: `CreateSession`, then `BindShortcuts` with the id
/// `translate-selection`, its description and the preferred trigger (the
/// desktop may show a dialog and let the person choose another key). Its
/// `Activated` signals for that session and id call `activated`, on the main
/// context that was the thread's default when `bind` was called.
final class PortalShortcut {
  static let interface = "org.freedesktop.portal.GlobalShortcuts"
  static let identifier = "translate-selection"
  static let description = "Translate the selected text"
  /// How long the person may take to answer the portal's dialog.
  static let grantPatience = Duration.seconds(120)

  private let bus: PortalBus
  /// The portal session's object path.
  let session: String
  /// The key the desktop says it bound (`trigger_description`), when it says.
  let boundTrigger: String?
  private let activated: () -> Void
  private var subscription: UInt32 = 0

  /// Binds the shortcut, preferring `trigger` (`Accelerator.portalTrigger`).
  /// - Throws: `PortalError`: no portal offers GlobalShortcuts, the person declined, the key was not bound.
  init(trigger: String, environment: [String: String], activated: @escaping () -> Void) throws(PortalError) {
    let bus = try PortalBus(environment: environment)
    self.bus = bus
    guard bus.version(of: Self.interface) != nil else { throw .notOffered(interface: Self.interface) }
    let session = try bus.createSession(Self.interface, step: "create a global shortcuts session")
    self.session = session
    self.activated = activated

    let bound = try bus.request(Self.interface, "BindShortcuts", patience: Self.grantPatience) { token in
      let shortcut = PortalBus.tuple([
        g_variant_new_string(Self.identifier),
        PortalBus.dictionary([
          ("description", g_variant_new_string(Self.description)),
          ("preferred_trigger", g_variant_new_string(trigger)),
        ]),
      ])
      let type = g_variant_type_new("(sa{sv})")
      defer { g_variant_type_free(type) }
      var shortcuts: [OpaquePointer?] = [shortcut]
      let array = shortcuts.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count))! }
      return PortalBus.tuple([
        g_variant_new_object_path(session), array, g_variant_new_string(""),
        PortalBus.dictionary([("handle_token", g_variant_new_string(token))]),
      ])
    }
    defer { g_variant_unref(bound.results) }
    try PortalError.check(bound.response, step: "bind the global shortcut")
    guard let trigger = Self.boundTrigger(of: Self.identifier, in: bound.results) else {
      throw .shortcutNotBound(id: Self.identifier)
    }
    boundTrigger = trigger.isEmpty ? nil : trigger
    subscription = g_dbus_connection_signal_subscribe(
      // arg0 is an object path, which a match rule's arg0 (strings only) never matches: filtered on arrival.
      bus.connection, PortalBus.portalName, Self.interface, "Activated", PortalBus.portalPath, nil,
      G_DBUS_SIGNAL_FLAGS_NONE, Self.onActivated, Unmanaged.passUnretained(self).toOpaque(), nil)
    // GDBus sends the subscription's match rule from its own thread, without
    // waiting: one round trip to the portal after it means the bus has it
    // before a press can come (a press right after binding was lost under load).
    g_variant_unref(try bus.call("org.freedesktop.DBus.Peer", "Ping", PortalBus.tuple([])))
  }

  deinit {
    if subscription != 0 { g_dbus_connection_signal_unsubscribe(bus.connection, subscription) }
    if let closed = try? bus.call("org.freedesktop.portal.Session", "Close", PortalBus.tuple([]), path: session) {
      g_variant_unref(closed)
    }
  }

  /// The `trigger_description` of `identifier` among the `shortcuts` of
  /// `results` (`a(sa{sv})`): "" when it has none, nil when it is not there.
  private static func boundTrigger(of identifier: String, in results: OpaquePointer) -> String? {
    guard let shortcuts = g_variant_lookup_value(results, "shortcuts", nil) else { return nil }
    defer { g_variant_unref(shortcuts) }
    guard PortalBus.isType(shortcuts, "a(sa{sv})") else { return nil }
    for index in 0..<g_variant_n_children(shortcuts) {
      let entry = g_variant_get_child_value(shortcuts, index)!
      defer { g_variant_unref(entry) }
      let id = g_variant_get_child_value(entry, 0)!
      let options = g_variant_get_child_value(entry, 1)!
      defer {
        g_variant_unref(id)
        g_variant_unref(options)
      }
      guard String(cString: g_variant_get_string(id, nil)) == identifier else { continue }
      return PortalBus.string("trigger_description", in: options) ?? ""
    }
    return nil
  }

  private static let onActivated: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters, let data, PortalBus.isType(parameters, "(osta{sv})") else { return }
    let shortcut = Unmanaged<PortalShortcut>.fromOpaque(data).takeUnretainedValue()
    let session = g_variant_get_child_value(parameters, 0)!
    let id = g_variant_get_child_value(parameters, 1)!
    defer {
      g_variant_unref(session)
      g_variant_unref(id)
    }
    guard String(cString: g_variant_get_string(session, nil)) == shortcut.session,
      String(cString: g_variant_get_string(id, nil)) == PortalShortcut.identifier
    else { return }
    shortcut.activated()
  }
}
