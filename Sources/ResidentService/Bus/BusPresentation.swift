import Core
import FoundationEssentials
import Presentation
import Synchronization
import System

/// `Present`: the default provider's popover for an app, shown by the
/// session's resident desktop agent (`DesktopAgentClient`, started if
/// none runs), else by this installation's own `run` (`PopoverProcess`:
/// `translation-host-desktop`, which needs no hand-off to draw on the
/// desktop) started for the caller, with the display environment the
/// service has (`DISPLAY`, `WAYLAND_DISPLAY`, …). The service itself never
/// loads GTK. `BusRequestObjects` gives the caller a request
/// object at once and tells it the outcome in a `Response` signal.
///
/// A failure of `run` is named after its exit status's meaning, with `run`'s
/// own `Error:` line as its message. A request closed (`Close`) or whose
/// caller leaves the bus has its popover closed: the process group is killed.
final class BusPresentation: Sendable {
  /// What the caller asked for.
  struct Request: Sendable {
    /// "" or the caller's window as xdg-desktop-portal spells it: on
    /// Wayland the popover becomes its dialog (`run --parent-window`).
    var parentWindow = ""
    var text = ""
    /// A screen point, for a desktop popover.
    var anchor: (x: Int32, y: Int32)?
    var arrowEdge: String?
    var allowsReplacement = false
    var provider: String?
    var source: String?
    var target: String?
    var presses: [String] = []
    /// The last element of the request object's path, as the caller chose it (portals' `handle_token`).
    var handleToken: String?
    /// The deadline of each request to the provider (`run --timeout`); nil: `RequestDeadline.standard`.
    var timeout: Duration?
  }

  /// The response codes of `Response`, as xdg-desktop-portal's.
  enum Response: UInt32 {
    case success = 0
    case cancelled = 1
    case other = 2
  }

  /// The longest text `Present` takes: a popover is for a few sentences
  /// (Apple's advice for its own); `Translate` takes long texts.
  static let maximumTextBytes = 96 * 1024

  /// The installation's `translation-host-desktop`, with the service's own environment.
  let popover: PopoverProcess
  /// What closes each open popover (kills its process group, or closes
  /// its connection to the desktop agent), by its request's cancellation.
  private let running = Mutex<[ObjectIdentifier: @Sendable () -> Void]>([:])
  /// Told of each `run` process (or desktop agent) it starts, while it runs and when it has ended.
  private let track: @Sendable (_ pid: Int32, _ isRunning: Bool) -> Void

  init(executable: String, environment: [String: String], track: @escaping @Sendable (Int32, Bool) -> Void) {
    popover = PopoverProcess(executable: executable, environment: environment)
    self.track = track
  }

  /// The arguments of `run` for `request` (its text goes to stdin).
  static func arguments(for request: Request, environment: [String: String]) -> [String] {
    var arguments: [String] = []
    // In a graphical session the popover is the desktop's, at the anchor
    // (screen pixels); `press` drives the scene without one, for scripts.
    let graphical = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    if graphical && request.presses.isEmpty {
      arguments.append("--desktop")
      if let anchor = request.anchor { arguments.append("--anchor=\(anchor.x),\(anchor.y)") }
      if !request.parentWindow.isEmpty { arguments.append("--parent-window=" + request.parentWindow) }
    }
    if request.allowsReplacement { arguments.append("--replace") }
    if let provider = request.provider { arguments.append("--provider=" + provider) }
    if let source = request.source { arguments.append("--from=" + source) }
    if let target = request.target { arguments.append("--to=" + target) }
    if let edge = request.arrowEdge { arguments.append("--arrow-edge=" + edge) }
    if let timeout = request.timeout { arguments.append("--timeout=" + timeout.secondsText) }
    for label in request.presses { arguments.append("--press=" + label) }
    return arguments
  }

  /// `request` checked as the interface documents it, with a provider path
  /// replaced by the identifier of the registered bundle there: done before
  /// `Present` answers with its request object, so that a bad call fails as
  /// a D-Bus error and no path a caller names reaches `run`.
  func prepared(_ request: Request) throws(BusError) -> Request {
    try Self.check(request)
    var request = request
    if let provider = request.provider, ProviderResolution.isPath(provider) {
      request.provider = try Self.registeredIdentifier(provider, environment: popover.environment)
    }
    return request
  }

  /// Checks `request` as the interface documents it.
  static func check(_ request: Request) throws(BusError) {
    try checkParentWindow(request.parentWindow)
    if let anchor = request.anchor, anchor.x < 0 || anchor.y < 0 {
      throw .invalidArguments("option 'anchor' is (\(anchor.x), \(anchor.y)); it takes a screen point, neither below 0")
    }
    if let edge = request.arrowEdge, !["top", "bottom", "leading", "trailing"].contains(edge) {
      throw .invalidArguments("option 'arrow_edge' is '\(edge)'; it takes top, bottom, leading or trailing")
    }
    guard request.text.utf8.count <= maximumTextBytes else {
      throw .named(
        "InvalidText",
        "the text is \(request.text.utf8.count) bytes; Present takes up to \(maximumTextBytes) (use Translate for long texts)")
    }
    for (name, value) in [("text", request.text), ("provider", request.provider ?? "")] + request.presses.map({ ("press", $0) })
    where value.contains("\0") {
      throw .invalidArguments("'\(name)' contains a NUL character")
    }
  }

  /// The identifier of the bundle at `path`, which the service's search path
  /// must list and which must hold it, as for `Translate`
  /// (`ProviderResolution`'s `searchPathOnly`): `run` is then asked for the
  /// identifier, so that no path a caller names (a bundle a provider wrote,
  /// say) is run for it.
  static func registeredIdentifier(_ path: String, environment: [String: String]) throws(BusError) -> String {
    let snapshot = ProviderRegistry.standard(environment: environment).scan()
    guard let entry = ProviderResolution.listed(path, in: snapshot), let identifier = entry.identifier else {
      let refusal = RegistryError.outsideSearchPath(path, searched: snapshot.searchPath.folders.map(\.path))
      throw .named("ProviderUnavailable", refusal.description)
    }
    if let owner = entry.shadowedBy {
      throw .named(
        "ProviderUnavailable", RegistryError.identifierHeld(path, identifier: identifier, owner: owner).description)
    }
    return identifier
  }

  /// `parent_window`: "", `x11:<hex>` or `wayland:<handle>`.
  private static func checkParentWindow(_ window: String) throws(BusError) {
    if window.isEmpty { return }
    if window.hasPrefix("x11:") {
      let id = window.dropFirst(4)
      if !id.isEmpty, id.count <= 16, id.allSatisfy(\.isHexDigit) { return }
    } else if window.hasPrefix("wayland:") {
      let handle = window.dropFirst(8)
      if !handle.isEmpty, handle.count <= 256,
        handle.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
      {
        return
      }
    }
    throw .invalidArguments(
      "parent_window is '\(window)'; it takes \"\", \"x11:<hexadecimal window id>\" or \"wayland:<exported handle>\", as xdg-desktop-portal"
    )
  }

  /// Shows the popover and waits for it to close: (response, replacement).
  /// `cancellation` (the request's `Close`, or its caller leaving the bus) closes it.
  /// `request` is one that `prepared(_:)` returned.
  func present(_ request: Request, cancellation: Cancellation) throws(BusError) -> (UInt32, String) {
    let id = ObjectIdentifier(cancellation)
    cancellation.onFire { [self] in cancel(id) }
    defer { cancellation.clear() }
    guard !cancellation.isFired else { return (Response.cancelled.rawValue, "") }
    let output: PopoverProcess.Output
    do {
      output = try popover.present(
        Self.arguments(for: request, environment: popover.environment), text: request.text, track: track,
        started: { close in
          running.withLock { $0[id] = close }
          if cancellation.isFired { cancel(id) }
        },
        ending: {
          // Before it is reaped (or its connection closed): `cancel` closes only under this lock.
          running.withLock { $0[id] = nil }
        })
    } catch {
      throw .named("Failed", error.description)
    }
    switch output.status {
    case .exited(0):
      return (Response.success.rawValue, request.allowsReplacement ? output.replacement : "")
    case .exited(2):
      return (Response.cancelled.rawValue, "")
    case .exited(let code) where code > 128:
      return (Response.other.rawValue, "")
    case .signaled:
      return (Response.other.rawValue, "")
    case .exited(let code):
      throw Self.failure(code: code, message: output.errorLine)
    }
  }

  /// Closes the popover of the request `id` names. (Under the lock: a
  /// popover leaves the table before it is reaped.)
  private func cancel(_ id: ObjectIdentifier) {
    running.withLock { $0[id]?() }
  }

  /// Closes every open popover (the service is stopping).
  func cancelAll() {
    running.withLock { for close in $0.values { close() } }
  }

  /// The failure `run`'s exit `code` stands for, with its `Error:` line as the message.
  static func failure(code: Int32, message line: String?) -> BusError {
    let message = line ?? "translation-host run exited with status \(code)"
    let name =
      switch code {
      case 3: "NoSuchControl"
      case 4: "UnsupportedLanguage"
      case 64: "InvalidArguments"
      case 65: "InvalidText"
      case 69: "ProviderUnavailable"
      case 70: "ProviderFailed"
      case 75: "Timeout"
      default: "Failed"
      }
    return .named(name, message)
  }
}
