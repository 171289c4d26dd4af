/// Why xdg-desktop-portal did not do what was asked of it: the
/// `RemoteDesktop` keyboard (`PortalKeyboard`) or the `GlobalShortcuts`
/// session (`PortalShortcut`). Each says what the person can do.
enum PortalError: Error, Equatable, CustomStringConvertible {
  /// The environment names no session bus.
  case noBus
  /// The session bus could not be reached.
  case cannotConnect(String)
  /// No portal offers `interface`: xdg-desktop-portal is not running or
  /// cannot start, or no back end of this desktop implements it.
  case notOffered(interface: String)
  /// The RemoteDesktop portal offers no keyboard (its `AvailableDeviceTypes`).
  case noKeyboard
  /// A call to the portal failed.
  case callFailed(method: String, String)
  /// The portal did not answer a request in time (a dialog left open).
  case noResponse(method: String, waited: Duration)
  /// The person declined the portal's dialog (response 1).
  case denied(step: String)
  /// The portal ended the request otherwise (response 2, or another code).
  case ended(step: String, code: UInt32)
  /// The session started without the keyboard it was asked for.
  case keyboardNotGranted
  /// The portal did not bind the shortcut it was given.
  case shortcutNotBound(id: String)

  /// Throws for a request's `response` other than 0 (granted): 1 is the
  /// person declining `step`, anything else the portal ending it.
  static func check(_ response: UInt32, step: String) throws(PortalError) {
    switch response {
    case 0: return
    case 1: throw .denied(step: step)
    default: throw .ended(step: step, code: response)
    }
  }

  var description: String {
    switch self {
    case .noBus: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no desktop portal can be asked"
    case .cannotConnect(let reason): "cannot connect to the session bus to ask the desktop portal (\(reason))"
    case .notOffered(let interface):
      "the desktop portal does not offer \(interface) here (xdg-desktop-portal is not running, or no back end of this desktop implements it)"
    case .noKeyboard: "the desktop portal's remote desktop offers no keyboard"
    case .callFailed(let method, let reason): "the desktop portal refused \(method): \(reason)"
    case .noResponse(let method, let waited):
      "the desktop portal did not answer \(method) within \(waited.components.seconds) s (its dialog was left open?)"
    case .denied(let step): "the permission to \(step) was not given in the desktop portal's dialog"
    case .ended(let step, let code): "the desktop portal ended the request to \(step) (response \(code))"
    case .keyboardNotGranted: "the desktop portal started the remote desktop session without the keyboard"
    case .shortcutNotBound(let id): "the desktop portal did not bind the shortcut '\(id)'"
    }
  }
}
