import Dispatch
import FoundationEssentials
import ResidentService
import Service
import System

/// `translation-host serve`: the resident per-user service that keeps
/// providers warm (see Documentation/Service.md).
struct ServeCommand: Command {
  static let name = "serve"
  static let abstract = "Run the resident service that keeps providers warm for your commands."
  static let usage =
    "[--idle-timeout <seconds>] [--runners <count>] [--batches-per-runner <count>] [--max-connections <count>] [--connection-idle-timeout <seconds>] [--no-bus]"
  static let discussion = """
    Listens on $XDG_RUNTIME_DIR/translation-host/socket (the folder is made
    with mode 0700 and refused if anyone else may enter it) and serves only
    connections from your own user, checked by the kernel's peer credentials.
    While it runs, run, translate, languages and detect go through it (unless
    --no-service) and answer the same, faster: each provider keeps up to
    --runners warm runners, sandboxed as always, closed after --idle-timeout
    seconds without a request; a runner that crashes fails only its request.
    Changes to the default provider, settings and bundles take effect at once.

    On the session bus (DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus) it
    also owns org.translationhost.Translation1, for apps in any language
    (Documentation/DBus.md), unless --no-bus; started by the bus itself
    (D-Bus activation), it stops when the bus goes away.

    Started by systemd's translation-host.socket, it takes the socket systemd
    passes (LISTEN_PID, LISTEN_FDS). On SIGTERM or SIGINT it stops accepting,
    answers the requests it has, closes its runners, removes the socket it
    made and exits 0. Provider output and the service's own notes go to its
    stderr (the journal under systemd).
    """
  static let options: [OptionSpec] = [
    .option("idle-timeout", "seconds", help: "Close a runner idle this long (default: 300)."),
    .option("runners", "count", help: "Warm runners per provider at most (default: the number of cores, at least 2)."),
    .option(
      "batches-per-runner", "count",
      help: "Batches in a runner at once, for providers that take texts while others are in flight (default: 2)."),
    .option(
      "max-connections", "count",
      help: "Connections at work at once; a new one beyond takes an idle one's place, or is refused (default: 128)."),
    .option(
      "connection-idle-timeout", "seconds",
      help: "Close a connection that sends no request this long, unless a scene is open (default: 60)."),
    .flag("no-bus", help: "Do not offer org.translationhost.Translation1 on the session bus."),
  ]

  /// The longest `--idle-timeout` and `--connection-idle-timeout`: a runner
  /// or connection idle for a week might as well start again.
  static let longestIdleTimeout = Duration.seconds(7 * 86_400)

  var configuration = ServiceServer.Configuration()
  var offersBus = true

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'", of: Self.self) }
    for option in ["idle-timeout", "connection-idle-timeout"] {
      guard let text = arguments.value(option) else { continue }
      guard let seconds = Double(text), seconds > 0, seconds <= Self.longestIdleTimeout.inSeconds else {
        throw .usage(
          "'--\(option)' needs a positive number of seconds up to \(Self.longestIdleTimeout.secondsText) (a week), not '\(text)'",
          of: Self.self)
      }
      let span = Duration.seconds(saturating: seconds)
      if option == "idle-timeout" { configuration.idleTimeout = span } else { configuration.connectionIdleTimeout = span }
    }
    offersBus = !arguments.has("no-bus")
    for (option, limit) in [("runners", 64), ("batches-per-runner", 64), ("max-connections", 4096)] {
      guard let text = arguments.value(option) else { continue }
      guard let count = Int(text), (1...limit).contains(count) else {
        throw .usage("'--\(option)' needs a whole number from 1 to \(limit), not '\(text)'", of: Self.self)
      }
      switch option {
      case "runners": configuration.runnersPerProvider = count
      case "batches-per-runner": configuration.batchesPerRunner = count
      default: configuration.maximumConnections = count
      }
    }
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let environment = context.environment
    let listener: FileDescriptor
    let ownedSocket: String?
    if let activated = try SocketActivation.listener() {
      // systemd made the folder (DirectoryMode=0700); it is checked all the same.
      guard let location = ServiceLocation.standard(environment: environment) else { throw ServiceError.noRuntimeDirectory }
      try location.checkFolder()
      (listener, ownedSocket) = (activated, nil)
      output.note("serving on the socket systemd passed (pid \(Syscalls.processID))")
    } else {
      guard let location = ServiceLocation.standard(environment: environment) else { throw ServiceError.noRuntimeDirectory }
      try location.prepareFolder()
      (listener, ownedSocket) = (try location.listen(), location.socket)
      output.note("serving on \(location.socket) (pid \(Syscalls.processID))")
    }
    let server = try ServiceServer(
      listener: listener, socketPath: ownedSocket, configuration: configuration,
      environment: context.environment, log: { output.note($0) })
    // Started by the bus (DBUS_STARTER_BUS_TYPE), the service lives as long as the bus.
    let activatedByBus = environment["DBUS_STARTER_BUS_TYPE"] != nil
    let bus =
      offersBus
      ? BusEndpoint.start(
        for: server, executable: DesktopHandOff.desktopProgram, log: { output.note($0) },
        onClosed: { if activatedByBus { server.stop() } }) : nil
    var sources: [any DispatchSourceSignal] = []
    for signal in [Signal.terminate, .interrupt] {
      _ = signal.ignore()
      let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: .global())
      source.setEventHandler {
        // Calls on the bus are answered before the runners they use are closed.
        bus?.stop()
        server.stop()
      }
      source.resume()
      sources.append(source)
    }
    server.run()
    bus?.stop()
    sources.forEach { $0.cancel() }
    return .success
  }
}
