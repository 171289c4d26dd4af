import CGtk
import Presentation
import System

/// The resident desktop agent: a `GApplication` named
/// `org.translationhost.Desktop` on the session bus that keeps GTK
/// initialised, its fonts and style loaded and a popover window drawn once
/// (`PopoverWarmUp`), so that a shortcut shows the popover without starting
/// GTK. One per session (GApplication's single instance); D-Bus starts it
/// on first use (`agent --gapplication-service`, from its activation file),
/// or the session does.
///
/// Its actions (`org.gtk.Actions`, as `gapplication action` sends them):
/// - `translate-selection`: `run --selection --replace`, the shortcut's;
/// - `run` (`as`): `run` with these arguments (`AgentRequest` checks them);
/// - `dismiss`: closes the popover being shown, as Esc does;
/// - `quit`: ends the agent.
///
/// An action returns at once (its D-Bus reply does not wait for the
/// popover, which may stay open for minutes); the popover is shown from
/// the main loop right after. One popover at a time: a request that comes
/// while one is on the screen is refused with a note on stderr; one that
/// comes while the last is closing (its window gone, its replacement being
/// put back or its provider's session ending) waits for it and is shown
/// then. (A shortcut pressed again right after Esc shows the popover.)
///
/// It also listens on a Unix socket (`AgentSocket`, `DesktopAgentChannel`)
/// for the popovers of programs that must not load GTK: the service's
/// D-Bus `Present` and apps' `translationPresentation`. Those bring their
/// text, get `run`'s outcome and replacement back, and close their popover
/// by closing the connection.
///
/// The agent holds no provider runner: each popover takes its scene from
/// the resident service when it runs (else from a runner started for that
/// popover and ended with it), through `perform`. It exits after `idleExit`
/// without a request (never while a popover is shown), and on SIGTERM,
/// SIGINT or SIGHUP (after the popover being shown has closed).
package final class DesktopAgent {
  /// The application id: the agent's bus name and object path (`/org/translationhost/Desktop`).
  package static let applicationID = "org.translationhost.Desktop"

  private let idleExit: Duration?
  /// The key to bind through the GlobalShortcuts portal (GTK's syntax); nil: none.
  private let globalShortcut: String?
  /// The portal's binding, while it holds: the agent then never exits when idle.
  private var portalShortcut: PortalShortcut?
  private let environment: [String: String]
  private let perform: (AgentRequest, AgentOutput?) -> Int32
  private let note: (String) -> Void
  private var application: UnsafeMutablePointer<GApplication>?
  private var pending: (request: AgentRequest, caller: FileDescriptor?)?
  private var socket: AgentSocket?
  /// The caller of the popover being shown, when it came through the socket.
  private var caller: FileDescriptor?
  private var callerWatch: UInt32 = 0
  private var showing = false
  private var quitRequested = false
  private var idleSource: UInt32 = 0

  /// An agent that runs each request with `perform` (on the main thread,
  /// with the main loop running inside it; given where `run`'s stdout and
  /// stderr go for a caller of the socket, and returning `run`'s exit
  /// status) and exits after `idleExit` without requests (nil: never).
  /// `note` tells what it refused.
  /// With `globalShortcut` (a key in GTK's syntax), it binds that key
  /// through the GlobalShortcuts portal once it has registered
  /// (`PortalShortcut`) and shows the selection's popover when the portal
  /// says it was pressed, as `translate-selection` does; while bound, it does
  /// not exit when idle (the binding ends with the agent). Where no portal
  /// binds it, `note` says why and the agent runs as without it.
  package init(
    idleExit: Duration?, globalShortcut: String? = nil, environment: [String: String],
    note: @escaping (String) -> Void, perform: @escaping (AgentRequest, AgentOutput?) -> Int32
  ) {
    self.idleExit = idleExit
    self.globalShortcut = globalShortcut
    self.environment = environment
    self.note = note
    self.perform = perform
  }

  /// Warms GTK up, registers the agent on the session bus, and serves requests until it exits.
  /// - Returns: false when another agent of this session already runs (this one did nothing).
  /// - Throws: `DesktopAgentError.cannotRegister`, or `DesktopPopoverError.noDisplay`.
  package func run() throws -> Bool {
    // A GtkApplication, not a bare GApplication: it hands the focus grant
    // that comes with a request (`gapplication` sends its
    // XDG_ACTIVATION_TOKEN or DESKTOP_STARTUP_ID as platform data) to GDK,
    // which presents the next window with it, so a compositor or window
    // manager that prevents focus stealing still gives the popover the keyboard.
    let app = UnsafeMutableRawPointer(gtk_application_new(Self.applicationID, GApplicationFlags(rawValue: 0))!)
      .assumingMemoryBound(to: GApplication.self)
    application = app
    defer {
      g_object_unref(app)
      application = nil
    }
    let me = Unmanaged.passUnretained(self).toOpaque()
    let actions: [(String, String?)] = [("translate-selection", nil), ("run", "as"), ("dismiss", nil), ("quit", nil)]
    for (name, parameter) in actions {
      let type: OpaquePointer? = parameter.flatMap { g_variant_type_new($0) }
      let action = g_simple_action_new(name, type)!
      if let type { g_variant_type_free(type) }
      th_signal_connect(UnsafeMutableRawPointer(action), "activate", Self.onAction, me)
      g_action_map_add_action(OpaquePointer(app), action)
      g_object_unref(UnsafeMutableRawPointer(action))
    }
    // `activate` (a bare launch) has nothing to show; connected so GLib does not warn.
    th_signal_connect(UnsafeMutableRawPointer(app), "activate", Self.onActivate, nil)

    // Warm first, then take the name: a request never waits for the warm-up,
    // and one that comes finds the main loop about to run.
    try PopoverWarmUp.run(environment: environment)
    var error: UnsafeMutablePointer<GError>?
    guard g_application_register(app, nil, &error) != 0 else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      if let error { g_error_free(error) }
      throw DesktopAgentError.cannotRegister(message)
    }
    if g_application_get_is_remote(app) != 0 { return false }
    // Popovers for the service's `Present` and apps' `translationPresentation` (DesktopAgentChannel).
    socket = AgentSocket(environment: environment, note: note) { [unowned self] incoming in receive(incoming) }
    defer { socket = nil }
    var sources: [UInt32] = []
    for signal in [Signal.interrupt, .terminate, .hangUp] {
      sources.append(g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal.rawValue, Self.onQuitSignal, me, nil))
    }
    defer { sources.forEach { g_source_remove($0) } }
    bindGlobalShortcut()
    defer { portalShortcut = nil }
    restartIdleTimer()
    g_application_hold(app)
    _ = g_application_run(app, 0, nil)
    if idleSource != 0 { g_source_remove(idleSource) }
    return true
  }

  // MARK: Requests

  private func receive(_ action: String, _ parameter: OpaquePointer?) {
    switch action {
    case "dismiss":
      PopoverWindow.dismissShown()
      return
    case "quit":
      quit()
      return
    default:
      break
    }
    let request: AgentRequest
    do {
      request = action == "run" ? try AgentRequest(running: Self.strings(parameter)) : .translateSelection
    } catch {
      note("\(error)")
      return
    }
    guard pending == nil && !(showing && PopoverWindow.isShowingWindow) else {
      note(DesktopAgentError.busy.description)
      return
    }
    pending = (request, nil)
    // After the D-Bus reply to this action has gone out; while a popover is
    // closing, once it has (`performPending`).
    if !showing { schedulePending() }
  }

  private func schedulePending() {
    g_idle_add_full(G_PRIORITY_DEFAULT, Self.onIdle, Unmanaged.passUnretained(self).toOpaque(), nil)
  }

  /// A request from the socket: shown when no popover is on the screen or
  /// waiting, else answered `busy` (its caller shows one of its own).
  private func receive(_ incoming: AgentSocket.Incoming) {
    guard let asked = incoming.request else {
      Syscalls.close(incoming.fd)
      return
    }
    let request: AgentRequest
    do {
      request = try AgentRequest(presenting: asked)
    } catch {
      note("\(error)")
      // 64: a usage error, as `run` exits with for options it does not take.
      AgentSocket.answer(
        incoming.fd, .init(status: 64, replacement: "", stderr: "Error: \(error.description)\n", busy: false))
      return
    }
    guard pending == nil && !showing else {
      AgentSocket.answer(incoming.fd, .init(status: nil, replacement: "", stderr: "", busy: true))
      return
    }
    pending = (request, incoming.fd)
    schedulePending()
  }

  private func performPending() {
    guard let (request, caller) = pending else { return }
    pending = nil
    showing = true
    if idleSource != 0 {
      g_source_remove(idleSource)
      idleSource = 0
    }
    if let caller {
      self.caller = caller
      // A caller that closes its connection (cancelled, or gone) closes its popover.
      callerWatch = g_timeout_add_full(
        G_PRIORITY_DEFAULT, 100, Self.onCallerCheck, Unmanaged.passUnretained(self).toOpaque(), nil)
      let output = AgentOutput()
      let status = perform(request, output)
      g_source_remove(callerWatch)
      callerWatch = 0
      self.caller = nil
      let (replacement, stderr) = output.finish()
      if let replacement {
        AgentSocket.answer(caller, .init(status: status, replacement: replacement, stderr: stderr, busy: false))
      } else {
        let error = "Error: the replacement is larger than \(AgentOutput.maximumReplacementBytes >> 20) MiB; it was not used\n"
        AgentSocket.answer(caller, .init(status: 70, replacement: "", stderr: stderr + error, busy: false))
      }
    } else {
      _ = perform(request, nil)
    }
    showing = false
    if quitRequested {
      if let waiting = pending?.caller { Syscalls.close(waiting) }
      pending = nil
      quit()
    } else if pending != nil {
      schedulePending()
    } else {
      restartIdleTimer()
    }
  }

  private func quit() {
    guard !showing else {
      quitRequested = true
      PopoverWindow.dismissShown()
      return
    }
    if let application { g_application_quit(application) }
  }

  /// Binds `globalShortcut` through the GlobalShortcuts portal, or says why not.
  private func bindGlobalShortcut() {
    guard let key = globalShortcut else { return }
    guard let accelerator = Accelerator(parsing: key) else {
      note("the global shortcut '\(key)' is not a key in GTK's syntax (e.g. <Super><Shift>t), so it was not bound")
      return
    }
    do {
      let shortcut = try PortalShortcut(trigger: accelerator.portalTrigger, environment: environment) {
        [unowned self] in receive("translate-selection", nil)
      }
      portalShortcut = shortcut
      note(
        "the desktop portal bound the global shortcut\(shortcut.boundTrigger.map { " (\($0))" } ?? "") to translating the selection"
      )
    } catch {
      note("\(error.description); bind the key in the desktop's own settings instead ('translation-host shortcut install')")
    }
  }

  private func restartIdleTimer() {
    if idleSource != 0 { g_source_remove(idleSource) }
    idleSource = 0
    // A binding held through the portal ends with this process.
    guard let idleExit, portalShortcut == nil else { return }
    let milliseconds = UInt32(clamping: idleExit.pollMilliseconds)
    idleSource = g_timeout_add_full(
      G_PRIORITY_DEFAULT, milliseconds, Self.onIdleExit, Unmanaged.passUnretained(self).toOpaque(), nil)
  }

  /// The strings of an `as` parameter.
  private static func strings(_ parameter: OpaquePointer?) -> [String] {
    guard let parameter else { return [] }
    var count = 0
    guard let values = g_variant_get_strv(parameter, &count) else { return [] }
    defer { g_free(values) }
    return (0..<count).compactMap { values[$0].map { String(cString: $0) } }
  }

  private static func agent(_ data: gpointer?) -> DesktopAgent {
    Unmanaged<DesktopAgent>.fromOpaque(data!).takeUnretainedValue()
  }

  // MARK: C callbacks

  private static let onAction: GCallback = unsafeBitCast(
    { (action: OpaquePointer?, parameter: OpaquePointer?, data: gpointer?) in
      let name = String(cString: g_action_get_name(action))
      DesktopAgent.agent(data).receive(name, parameter)
    } as @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void, to: GCallback.self)

  private static let onActivate: GCallback = unsafeBitCast(
    { (_: gpointer?, _: gpointer?) in } as @convention(c) (gpointer?, gpointer?) -> Void, to: GCallback.self)

  private static let onIdle: GSourceFunc = { data in
    DesktopAgent.agent(data).performPending()
    return 0
  }

  private static let onIdleExit: GSourceFunc = { data in
    let agent = DesktopAgent.agent(data)
    agent.idleSource = 0
    agent.quit()
    return 0
  }

  private static let onCallerCheck: GSourceFunc = { data in
    let agent = DesktopAgent.agent(data)
    // Readable now: the caller hung up (or sent more than its one request).
    if let caller = agent.caller, (try? UnixSocket.waitReadable([caller], timeout: .zero))?.first != false {
      PopoverWindow.dismissShown()
    }
    return 1
  }

  private static let onQuitSignal: GSourceFunc = { data in
    DesktopAgent.agent(data).quit()
    return 1
  }
}
