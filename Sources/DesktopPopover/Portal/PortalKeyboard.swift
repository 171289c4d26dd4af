import CGtk

/// Replace on Wayland through xdg-desktop-portal's `RemoteDesktop`
/// keyboard, where AT-SPI cannot put the translation in and the compositor
/// gives ordinary clients no virtual keyboard (GNOME's Mutter, KWin): the
/// portal's back end types each character, as a keysym, into the window
/// with the keyboard focus (the one the text was selected in, once the
/// popover has closed).
///
/// The person grants the keyboard in the portal's dialog. A front end of
/// `RemoteDesktop` version 2 or later (xdg-desktop-portal 1.17 and later)
/// keeps the grant (`persist_mode` 2: until revoked) and gives a restore
/// token, kept in `RemoteDesktopGrant`'s file, so later Replaces do not
/// ask again; Debian 12's front end (1.16) is version 1, which has no such
/// option, so its back end asks every time.
///
/// Nothing is typed unless the portal says the session started with the
/// keyboard: a refused, closed or unanswered request leaves the text
/// untouched, and the caller keeps the translation on the clipboard with
/// the reason. Which window has the focus, the portal cannot say; it types
/// where the person's own keys would go.
struct PortalKeyboard {
  static let interface = "org.freedesktop.portal.RemoteDesktop"
  /// How long the popover, once hidden, leaves the compositor to give the
  /// focus back before anything is asked of the portal.
  static let focusReturn = Duration.milliseconds(150)
  /// How long the person may take to answer the portal's dialog.
  static let grantPatience = Duration.seconds(120)
  /// `types`' bit for the keyboard.
  static let keyboardDevice: UInt32 = 1
  /// `persist_mode`: keep the grant until the person revokes it.
  static let persistUntilRevoked: UInt32 = 2

  let environment: [String: String]

  /// Types `translation` into the focused window through the portal.
  /// - Throws: why nothing, or not all of it, was typed (`DesktopPopoverError.cannotType`, `.typingStopped`).
  func type(_ translation: String) throws(DesktopPopoverError) {
    let keysyms: [UInt32]
    do { keysyms = try TypingPlan.keysyms(translation) } catch { throw .cannotType(error.description) }
    let bus: PortalBus
    let session: String
    do throws(PortalError) {
      bus = try PortalBus(environment: environment)
      session = try start(on: bus)
    } catch {
      throw .cannotType(error.description)
    }
    defer {
      if let closed = try? bus.call("org.freedesktop.portal.Session", "Close", PortalBus.tuple([]), path: session) {
        g_variant_unref(closed)
      }
    }
    for (index, keysym) in keysyms.enumerated() {
      do throws(PortalError) {
        for state: UInt32 in [1, 0] {
          let arguments = PortalBus.tuple([
            g_variant_new_object_path(session), PortalBus.dictionary([]), g_variant_new_int32(Int32(bitPattern: keysym)),
            g_variant_new_uint32(state),
          ])
          g_variant_unref(try bus.call(Self.interface, "NotifyKeyboardKeysym", arguments))
        }
      } catch {
        guard index > 0 else { throw .cannotType(error.description) }
        throw .typingStopped(
          application: "the focused window", typed: index, of: keysyms.count, reason: error.description)
      }
    }
  }

  /// Creates a session, asks for the keyboard (with the kept grant's token
  /// where the front end takes one) and starts it.
  /// - Returns: the session's object path.
  private func start(on bus: PortalBus) throws(PortalError) -> String {
    guard let version = bus.version(of: Self.interface) else { throw .notOffered(interface: Self.interface) }
    if let available = bus.property("AvailableDeviceTypes", of: Self.interface) {
      defer { g_variant_unref(available) }
      if PortalBus.isType(available, "u"), g_variant_get_uint32(available) & Self.keyboardDevice == 0 {
        throw .noKeyboard
      }
    }
    let session = try bus.createSession(Self.interface, step: "start a remote desktop session")

    let grant = RemoteDesktopGrant(environment: environment)
    let selected = try bus.request(Self.interface, "SelectDevices", patience: PortalBus.callTimeout) { token in
      var options: [(String, OpaquePointer?)] = [
        ("handle_token", g_variant_new_string(token)), ("types", g_variant_new_uint32(Self.keyboardDevice)),
      ]
      // Version 1 front ends ignore these; sent only where they mean something.
      if version >= 2 {
        options.append(("persist_mode", g_variant_new_uint32(Self.persistUntilRevoked)))
        if let restoreToken = grant.read() { options.append(("restore_token", g_variant_new_string(restoreToken))) }
      }
      return PortalBus.tuple([g_variant_new_object_path(session), PortalBus.dictionary(options)])
    }
    g_variant_unref(selected.results)
    try PortalError.check(selected.response, step: "use the keyboard")

    let started = try bus.request(Self.interface, "Start", patience: Self.grantPatience) { token in
      PortalBus.tuple([
        g_variant_new_object_path(session), g_variant_new_string(""),
        PortalBus.dictionary([("handle_token", g_variant_new_string(token))]),
      ])
    }
    defer { g_variant_unref(started.results) }
    try PortalError.check(started.response, step: "type into the focused window")
    guard (PortalBus.uint32("devices", in: started.results) ?? 0) & Self.keyboardDevice != 0 else {
      throw .keyboardNotGranted
    }
    if let restoreToken = PortalBus.string("restore_token", in: started.results) { grant.keep(restoreToken) }
    return session
  }
}
