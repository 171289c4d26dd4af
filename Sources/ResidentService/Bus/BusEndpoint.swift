import CBusInterface
import CGDBus
import Dispatch
import FoundationEssentials
import System

/// The resident service on the session bus: owns `org.translationhost.Translation1`,
/// exports the interface at `/org/translationhost/Translation1` (GLib's GDBus),
/// and answers each call on a thread of its own with `BusRequests`.
///
/// GDBus delivers calls on the thread that registered the object, which runs
/// a main loop of its own here and does nothing slow: a call is read and
/// checked there, then answered from its own thread (GDBus's replies may be
/// sent from any thread), so slow providers and open popovers never hold
/// up other callers. Every call is checked against the bus's own record of
/// the caller: the user's own uid only, and never a process the service
/// started (a provider runner, or anything it started), as on the socket.
package final class BusEndpoint: @unchecked Sendable {
  /// The session bus's address for `environment`, as GLib finds it:
  /// `DBUS_SESSION_BUS_ADDRESS`, else the address an activating bus passed,
  /// else `$XDG_RUNTIME_DIR/bus` when that socket exists; nil without any
  /// (nothing is launched to make one).
  static func sessionBusAddress(environment: [String: String]) -> String? {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
    if environment["DBUS_STARTER_BUS_TYPE"] == "session", let address = environment["DBUS_STARTER_ADDRESS"], !address.isEmpty {
      return address
    }
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
      (try? FileStatus(path: runtime + "/bus", followingLinks: false))?.isSocket == true
    {
      return "unix:path=" + runtime + "/bus"
    }
    return nil
  }

  private let address: String
  private let requests: BusRequests
  private let maximumCalls: Int
  private let log: @Sendable (String) -> Void
  private let onClosed: @Sendable () -> Void
  private let state = Condition()
  private var connection: OpaquePointer?
  /// The generated `CBusTranslation1Skeleton`, made and used on the bus's thread.
  private var skeleton: OpaquePointer?
  /// What keeps the skeleton's properties and sends PropertiesChanged; the bus's thread's.
  private var properties: BusPropertyWatch?
  private var loop: OpaquePointer?
  private var context: OpaquePointer?
  private var startError: String?
  private var isStarted = false
  private var isFinished = false
  private var isStopping = false
  private var callsInFlight = 0
  /// The callers, checked once per unique name and watched for leaving.
  private let callers = BusCallers()
  /// The threads that answer calls, at most `maximumCalls`.
  private let threads: CallThreads
  /// `Present`'s request objects.
  private let requestObjects = BusRequestObjects()

  /// Connects to the bus at `address`, exports the interface and takes the
  /// name; `onClosed` is called (on another thread) if the bus goes away.
  /// - Throws: a message saying why the service is not on the bus.
  init(
    address: String, requests: BusRequests, maximumCalls: Int, log: @escaping @Sendable (String) -> Void,
    onClosed: @escaping @Sendable () -> Void
  ) throws(BusError) {
    self.address = address
    self.requests = requests
    self.maximumCalls = maximumCalls
    threads = CallThreads(name: "dbus-call", limit: maximumCalls)
    self.log = log
    self.onClosed = onClosed
    DetachedThread.start(name: "dbus") { [self] in main() }
    state.lock()
    while !isStarted { state.wait() }
    let failure = startError
    state.unlock()
    if let failure { throw .named("Failed", failure) }
  }

  /// Stops taking calls, closes open popovers, waits for the calls being
  /// answered, and leaves the bus. Any thread but the bus's.
  package func stop() {
    state.lock()
    guard !isStopping else {
      state.unlock()
      return
    }
    isStopping = true
    state.unlock()
    requests.presentation.cancelAll()
    state.lock()
    while callsInFlight > 0 { state.wait() }
    // A source of the loop's own quits it, on the bus's thread: asked before
    // the loop runs, it waits for the loop (a bare quit then would be lost).
    // The context lives until `isFinished`, which is set under this lock.
    if !isFinished, let loop, let context {
      let source = g_idle_source_new()
      g_source_set_callback(
        source,
        { loop in
          g_main_loop_quit(OpaquePointer(loop))
          return 0  // G_SOURCE_REMOVE
        }, UnsafeMutableRawPointer(loop), nil)
      g_source_attach(source, context)
      g_source_unref(source)
    }
    while !isFinished { state.wait() }
    state.unlock()
  }

  // MARK: The bus thread

  private func main() {
    let context = g_main_context_new()
    g_main_context_push_thread_default(context)
    defer {
      state.lock()
      (isStarted, isFinished) = (true, true)
      state.broadcast()
      state.unlock()
      g_main_context_pop_thread_default(context)
      g_main_context_unref(context)
    }
    guard let (connection, registration) = connect() else { return }
    let loop = g_main_loop_new(context, 0)
    // PropertiesChanged: the watched files looked at twice a second, and at each Get.
    let properties = BusPropertyWatch(requests: requests, skeleton: skeleton!)
    self.properties = properties
    let watching = Unmanaged.passRetained(WatchTick(properties: properties, connection: connection))
    let timer = g_timeout_source_new(500)!
    g_source_set_callback(timer, Self.tick, watching.toOpaque(), nil)
    g_source_attach(timer, context)
    defer {
      g_source_destroy(timer)
      g_source_unref(timer)
      watching.release()
    }
    state.lock()
    (self.connection, self.loop, self.context, isStarted) = (connection, loop, context, true)
    state.broadcast()
    state.unlock()
    g_main_loop_run(loop)
    g_dbus_connection_unregister_object(connection, registration)
    self.properties = nil
    if let skeleton { g_object_unref(UnsafeMutableRawPointer(skeleton)) }
    skeleton = nil
    g_dbus_connection_close_sync(connection, nil, nil)
    g_object_unref(UnsafeMutableRawPointer(connection))
    g_main_loop_unref(loop)
  }

  /// Connects, exports the object and takes the name; nil (with `startError` set) on failure.
  private func connect() -> (OpaquePointer, guint)? {
    func fail(_ message: String, _ error: UnsafeMutablePointer<GError>?) -> (OpaquePointer, guint)? {
      startError = message + (error.map { ": " + String(cString: $0.pointee.message) } ?? "")
      if let error { g_error_free(error) }
      return nil
    }
    var error: UnsafeMutablePointer<GError>?
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
      return fail("cannot connect to the session bus at \(address)", error)
    }
    let unretainedSelf = Unmanaged.passUnretained(self).toOpaque()
    _ = g_dbus_connection_add_filter(connection, Self.callerLeft, unretainedSelf, nil)
    _ = cgdbus_signal_connect(
      UnsafeMutableRawPointer(connection), "closed", unsafeBitCast(Self.closed, to: GCallback.self), unretainedSelf)
    // The skeleton gdbus-codegen generated from the XML: its dispatch emits
    // the method's handle-* signal (BusMethods), its properties are read
    // from its GObject properties. Registered here rather than exported with
    // g_dbus_interface_skeleton_export, so that a property is read only by
    // a caller the service serves (`getProperty`), as a method is called.
    let skeleton = cbus_translation1_skeleton_new()!
    self.skeleton = skeleton
    BusMethods.connect(skeleton, to: self)
    cbus_translation1_set_version(skeleton, BusInterface.version)
    var vtable = GDBusInterfaceVTable()
    vtable.method_call = Self.methodCall
    vtable.get_property = Self.getProperty
    let registration = g_dbus_connection_register_object(
      connection, BusInterface.objectPath, cbus_translation1_interface_info(), &vtable, unretainedSelf, nil, &error)
    guard registration != 0 else {
      g_object_unref(UnsafeMutableRawPointer(connection))
      return fail("cannot export \(BusInterface.objectPath)", error)
    }
    // DO_NOT_QUEUE (4): a second service must not wait in line for the name.
    let reply = busCall(connection, "RequestName", cgdbus_tuple_su(BusInterface.name, 4), replyType: "(u)", error: &error)
    guard let reply else {
      g_object_unref(UnsafeMutableRawPointer(connection))
      return fail("cannot own \(BusInterface.name)", error)
    }
    let outcome = GVariantCoding.withChild(reply, 0) { g_variant_get_uint32($0) }
    g_variant_unref(reply)
    // 1: primary owner; 4: already the owner.
    guard outcome == 1 || outcome == 4 else {
      g_dbus_connection_close_sync(connection, nil, nil)
      g_object_unref(UnsafeMutableRawPointer(connection))
      return fail("\(BusInterface.name) is owned by another process on the session bus", nil)
    }
    return (connection, registration)
  }

  /// A call to the bus daemon itself.
  private func busCall(
    _ connection: OpaquePointer, _ method: String, _ arguments: OpaquePointer, replyType: String,
    error: inout UnsafeMutablePointer<GError>?
  ) -> OpaquePointer? {
    let type = g_variant_type_new(replyType)
    defer { g_variant_type_free(type) }
    return g_dbus_connection_call_sync(
      connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, arguments, type,
      G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
  }

  // MARK: Calls

  /// The generated dispatch, called with the skeleton.
  private static let methodCall: GDBusInterfaceMethodCallFunc = {
    connection, sender, path, interface, method, parameters, invocation, userData in
    let endpoint = Unmanaged<BusEndpoint>.fromOpaque(userData!).takeUnretainedValue()
    guard let skeleton = endpoint.skeleton else { return }
    cbus_skeleton_vtable(UnsafeMutableRawPointer(skeleton)).pointee.method_call(
      connection, sender, path, interface, method, parameters, invocation, UnsafeMutableRawPointer(skeleton))
  }

  /// A call as the generated skeleton's handler read it (`BusMethods`), on
  /// the bus's thread: checked here and answered from a thread of its own.
  func received(_ read: Result<BusCall, BusError>, invocation: OpaquePointer) {
    let sender = g_dbus_method_invocation_get_sender(invocation).map { String(cString: $0) } ?? ""
    var call: BusCall
    switch read {
    case .success(let read): call = read
    case .failure(let error): return Self.reply(invocation, .failure(error))
    }
    state.lock()
    let connection = connection
    let refusal: String? =
      isStopping || connection == nil
      ? "the service is stopping; call again in a moment"
      : callsInFlight >= maximumCalls
        ? "all \(maximumCalls) calls the service takes at once are being answered; call again in a moment" : nil
    if refusal == nil { callsInFlight += 1 }
    state.unlock()
    guard let connection, refusal == nil else {
      return Self.reply(invocation, .failure(.named("Busy", refusal ?? "")))
    }
    // Its own calls, which need neither a thread nor the caller's credentials.
    if case .cancelTranslate(let requestID) = call {
      callers.cancel(sender, requestID: requestID)
      Self.reply(invocation, .success(.nothing))
      return finishCall()
    }
    // Watched from its first call: a caller that leaves the bus cancels its calls.
    let requestID: String = if case .translate(_, _, _, _, let id, _) = call { id } else { "" }
    let cancellation = callers.begin(sender, requestID: requestID) { name in
      g_dbus_connection_signal_subscribe(
        connection, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus", name,
        G_DBUS_SIGNAL_FLAGS_NONE, Self.nameOwnerChanged, Unmanaged.passUnretained(self).toOpaque(), nil)
    }
    // Present's request object exists before its call is answered, here on
    // the bus's thread, which answers its Close.
    var handle: String?
    if case .present(let request) = call {
      do throws(BusError) {
        call = .present(try requests.presentation.prepared(request))
        let path = try requestObjects.path(for: sender, token: request.handleToken)
        try requestObjects.export(path, for: sender, cancellation: cancellation, on: connection)
        handle = path
      } catch {
        callers.end(sender, cancellation)
        Self.reply(invocation, .failure(error))
        return finishCall()
      }
    }
    let pending = Pending(invocation: invocation, connection: connection)
    let accepted = answer(call, from: sender, handle: handle, cancellation: cancellation, pending)
    if !accepted {
      callers.end(sender, cancellation)
      if let handle { requestObjects.remove(handle, on: connection) }
      Self.reply(invocation, .failure(.named("Busy", "the service has no thread free for the call; call again in a moment")))
      finishCall()
    }
  }

  /// Answers `call` on a thread of the pool; false when none is free.
  private func answer(
    _ call: BusCall, from sender: String, handle: String?, cancellation: Cancellation, _ pending: Pending
  ) -> Bool {
    threads.run { [self] in
      defer {
        callers.end(sender, cancellation)
        finishCall()
      }
      let caller = Result { () throws(BusError) in try check(sender) }
      guard let handle else {
        let result = caller.flatMap { caller in
          Result { () throws(BusError) in try requests.answer(call, caller: caller, cancellation: cancellation) }
        }
        return Self.reply(pending.invocation, result)
      }
      if case .failure(let error) = caller {
        requestObjects.remove(handle, on: pending.connection)
        return Self.reply(pending.invocation, .failure(error))
      }
      Self.reply(pending.invocation, .success(.handle(handle)))
      let (response, results) = Self.response(
        to: Result { () throws(BusError) in try requests.answer(call, caller: caller.get(), cancellation: cancellation) })
      requestObjects.finish(handle, response: response, results: results, on: pending.connection)
    }
  }

  /// Present's `Response`: the portal's response code and results
  /// (`replacement`; for a failure, the error's `error` name and `message`).
  static func response(to result: Result<BusReply, BusError>) -> (UInt32, [String: String]) {
    switch result {
    case .success(.presented(let response, let replacement)):
      return (response, response == BusPresentation.Response.success.rawValue ? ["replacement": replacement] : [:])
    case .success:
      return (BusPresentation.Response.other.rawValue, [:])
    case .failure(let error):
      return (BusPresentation.Response.other.rawValue, ["error": error.name, "message": error.message])
    }
  }

  private func finishCall() {
    state.lock()
    callsInFlight -= 1
    state.broadcast()
    state.unlock()
  }

  /// A call being answered on a thread of the pool. GDBus objects may be used from
  /// any thread; Swift cannot know that of its opaque pointers.
  private struct Pending: @unchecked Sendable {
    var invocation: OpaquePointer
    var connection: OpaquePointer
  }

  /// Sends the answer to `invocation` (which it consumes).
  private static func reply(_ invocation: OpaquePointer, _ result: Result<BusReply, BusError>) {
    switch result {
    case .failure(let error):
      g_dbus_method_invocation_return_dbus_error(invocation, error.name, error.message)
    case .success(.translations(let texts)):
      g_dbus_method_invocation_return_value(invocation, GVariantCoding.makeTuple([GVariantCoding.makeStrings(texts)]))
    case .success(.pairs(let rows)):
      g_dbus_method_invocation_return_value(invocation, GVariantCoding.makeTuple([GVariantCoding.makeRows(rows)]))
    case .success(.detection(let tag, let confidence, let reliable)):
      g_dbus_method_invocation_return_value(invocation, cgdbus_tuple_sdb(tag, confidence, reliable ? 1 : 0))
    case .success(.presented(let response, let replacement)):
      g_dbus_method_invocation_return_value(invocation, cgdbus_tuple_us(response, replacement))
    case .success(.handle(let path)):
      g_dbus_method_invocation_return_value(invocation, GVariantCoding.makeTuple([g_variant_new_object_path(path)]))
    case .success(.nothing):
      g_dbus_method_invocation_return_value(invocation, nil)
    }
  }

  // MARK: Callers

  /// The caller behind `sender`, if the service serves it: the user's own
  /// uid, and not a process the service started.
  private func check(_ sender: String) throws(BusError) -> BusCaller {
    if let caller = callers.checked(sender) { return caller }
    let caller = try askTheBus(about: sender)
    callers.remember(caller)
    return caller
  }

  /// What the bus daemon says of `sender` (`GetConnectionCredentials`), checked.
  private func askTheBus(about sender: String) throws(BusError) -> BusCaller {
    state.lock()
    let connection = connection
    state.unlock()
    guard let connection else { throw .named("Failed", "the service is leaving the bus") }
    var error: UnsafeMutablePointer<GError>?
    guard let reply = busCall(connection, "GetConnectionCredentials", cgdbus_tuple_s(sender), replyType: "(a{sv})", error: &error)
    else {
      let reason = error.map { String(cString: $0.pointee.message) } ?? "no answer"
      if let error { g_error_free(error) }
      throw .accessDenied("the bus could not say who \(sender) is (\(reason))")
    }
    defer { g_variant_unref(reply) }
    var uid: UInt32?
    var pid: UInt32?
    GVariantCoding.withChild(reply, 0) { credentials in
      GVariantCoding.forEachEntry(credentials) { key, value in
        if key == "UnixUserID", GVariantCoding.typeString(value) == "u" { uid = g_variant_get_uint32(value) }
        if key == "ProcessID", GVariantCoding.typeString(value) == "u" { pid = g_variant_get_uint32(value) }
      }
    }
    let own = FileStatus.currentUser
    guard let uid, uid == own else {
      log("refused a D-Bus call from \(sender): uid \(uid.map(String.init) ?? "unknown"), not \(own)")
      throw .accessDenied("this service serves uid \(own) only")
    }
    guard let pid, let caller = Int32(exactly: pid) else {
      throw .accessDenied("the bus did not say which process \(sender) is")
    }
    switch ProcessLineage.descends(caller, from: Syscalls.processID) {
    case false?: return BusCaller(uniqueName: sender, uid: uid, pid: caller)
    case true?:
      log("refused a D-Bus call from pid \(caller): it is a provider runner of this service, or was started by one")
      throw .accessDenied(
        "pid \(caller) is a provider runner of this service or was started by one; providers may not use the service")
    case nil:
      throw .accessDenied(
        "the service could not tell which process pid \(caller) is (it could not read its parents from /proc); try again")
    }
  }

  /// The subscription's own callback, on the bus's thread: the filter
  /// (`callerLeft`) has acted already; this only covers a signal it missed.
  private static let nameOwnerChanged: GDBusSignalCallback = { connection, _, _, _, _, parameters, userData in
    let endpoint = Unmanaged<BusEndpoint>.fromOpaque(userData!).takeUnretainedValue()
    guard let parameters, let connection else { return }
    endpoint.nameOwnerChanged(parameters, on: connection)
  }

  /// A caller that left the bus: its calls are cancelled, and its name no longer watched.
  private func nameOwnerChanged(_ parameters: OpaquePointer, on connection: OpaquePointer) {
    guard GVariantCoding.typeString(parameters) == "(sss)" else { return }
    let name = GVariantCoding.withChild(parameters, 0, GVariantCoding.string)
    let newOwner = GVariantCoding.withChild(parameters, 2, GVariantCoding.string)
    guard newOwner.isEmpty, let subscription = callers.left(name) else { return }
    g_dbus_connection_signal_unsubscribe(connection, subscription)
  }

  /// Sees every message as GDBus's own thread reads it: a `NameOwnerChanged`
  /// from the bus (which the subscriptions asked for) is acted on here, one
  /// thread hop before the bus's thread would see it, so that a runner
  /// working for a caller that left is stopped at once. Passes every message on.
  private static let callerLeft: GDBusMessageFilterFunction = { connection, message, incoming, userData in
    guard incoming != 0, let message, let connection, g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_SIGNAL,
      let member = g_dbus_message_get_member(message), String(cString: member) == "NameOwnerChanged",
      let sender = g_dbus_message_get_sender(message), String(cString: sender) == "org.freedesktop.DBus",
      let body = g_dbus_message_get_body(message)
    else { return message }
    let endpoint = Unmanaged<BusEndpoint>.fromOpaque(userData!).takeUnretainedValue()
    endpoint.nameOwnerChanged(body, on: connection)
    return message
  }

  // MARK: Properties

  /// A property `Get` (GDBus answers `GetAll` with it too), on the bus's
  /// thread: the caller checked as for a method, the watched files looked
  /// at (so a `Get` after `set-default` sees the new default), then the
  /// generated code reads the skeleton's property.
  private static let getProperty: GDBusInterfaceGetPropertyFunc = {
    connection, sender, path, interface, property, errorOut, userData in
    let endpoint = Unmanaged<BusEndpoint>.fromOpaque(userData!).takeUnretainedValue()
    let caller = Result { () throws(BusError) in try endpoint.check(sender.map { String(cString: $0) } ?? "") }
    if case .failure(let error) = caller {
      errorOut?.pointee = g_dbus_error_new_for_dbus_error(error.name, error.message)
      return nil
    }
    guard let skeleton = endpoint.skeleton, let connection else { return nil }
    endpoint.properties?.look(on: connection)
    return cbus_skeleton_vtable(UnsafeMutableRawPointer(skeleton)).pointee.get_property(
      connection, sender, path, interface, property, errorOut, UnsafeMutableRawPointer(skeleton))
  }

  /// What the property timer needs, kept alive while it runs.
  private final class WatchTick {
    let properties: BusPropertyWatch
    let connection: OpaquePointer
    init(properties: BusPropertyWatch, connection: OpaquePointer) {
      self.properties = properties
      self.connection = connection
    }
  }

  private static let tick: GSourceFunc = { userData in
    let tick = Unmanaged<WatchTick>.fromOpaque(userData!).takeUnretainedValue()
    tick.properties.look(on: tick.connection)
    return 1  // G_SOURCE_CONTINUE
  }

  // MARK: The bus going away

  private static let closed: @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, gpointer?) -> Void = {
    _, _, _, userData in
    let endpoint = Unmanaged<BusEndpoint>.fromOpaque(userData!).takeUnretainedValue()
    endpoint.log("the session bus closed the connection")
    // Not on the bus thread: stopping waits for it.
    DispatchQueue.global().async { endpoint.onClosed() }
  }
}

extension BusEndpoint {
  /// Puts `server` on the session bus its environment names, with `Present`
  /// run by `executable` (this installation's `translation-host`); nil, and
  /// a line in the log saying why, when there is no bus or the service cannot
  /// be on it. `onClosed` is called if the bus goes away later.
  package static func start(
    for server: ServiceServer, executable: String, log: @escaping @Sendable (String) -> Void,
    onClosed: @escaping @Sendable () -> Void
  ) -> BusEndpoint? {
    guard let address = sessionBusAddress(environment: server.environment) else {
      log(
        "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus): not offering \(BusInterface.name)"
      )
      return nil
    }
    // What an activating bus daemon set is for this process only.
    let environment = server.environment.filter { !$0.key.hasPrefix("DBUS_STARTER_") }
    let presentation = BusPresentation(executable: executable, environment: environment) { pid, isRunning in
      server.presentationProcesses.withLock { if isRunning { $0.insert(pid) } else { $0.remove(pid) } }
    }
    do {
      let endpoint = try BusEndpoint(
        address: address, requests: BusRequests(server: server, presentation: presentation),
        maximumCalls: server.configuration.maximumConnections, log: log, onClosed: onClosed)
      log("offering \(BusInterface.name) on the session bus")
      return endpoint
    } catch {
      log("not offering \(BusInterface.name): \(error.message)")
      return nil
    }
  }
}
