import Core
import RunnerProtocol
import Service
import System

/// `translation-host info`: everything known about one provider.
struct InfoCommand: Command {
  static let name = "info"
  static let abstract = "Show everything known about one provider."
  static let usage = "<provider> [--json]"
  static let arguments = [(name: "<provider>", help: "Bundle id, name or path.")]
  static let options: [OptionSpec] = [.flag("json", help: "Print a JSON object.")]

  var reference: String
  var json: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    reference = try arguments.single("provider", of: Self.self)
    json = arguments.has("json")
  }

  /// The layers a runner puts in force for this bundle on this machine,
  /// found by starting one that loads no provider code; nil for a bundle
  /// that cannot run. Why a sandbox cannot be set up is a problem of the bundle.
  private static func sandbox(for entry: RegistryEntry, summary: inout ProviderSummary) -> (
    layers: [SandboxLayer], policy: SandboxPolicy
  )? {
    guard let manifest = entry.manifest else { return nil }
    do {
      let policy = try SandboxPolicy.forBundle(manifest)
      let layers = try RunnerClient.probeSandbox(
        bundle: manifest, policy: policy, runnerPath: try RunnerLocator.locate(), timeout: .seconds(10))
      return (layers, policy)
    } catch {
      summary.problems.append("sandbox: \(error)")
      return nil
    }
  }

  /// How the provider's container is bounded on this machine, for this user.
  private static func disk(_ sandbox: (layers: [SandboxLayer], policy: SandboxPolicy)?) -> String {
    guard let sandbox, sandbox.policy.container != nil else { return "?" }
    let limit = sandbox.policy.limits.diskMiB
    if limit == 0 { return "no limit (TRANSLATION_HOST_LIMIT_DISK_MIB=0)" }
    if sandbox.layers.contains(.diskBudget) {
      return "its container at most \(limit) MiB (TRANSLATION_HOST_LIMIT_DISK_MIB), within a run too: "
        + "a size-limited view answers ENOSPC"
    }
    return "each file at most \(limit) MiB; within a run its container can fill the file system, as /dev/fuse "
      + "cannot be opened here for a size-limited view: it is measured after each run and not started again "
      + "while over \(limit) MiB (Documentation/Security.md)"
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let context = try RegistryContext()
    let entry: RegistryEntry
    if ProviderResolution.isPath(reference), (try? context.snapshot.entry(named: reference)) == nil {
      entry = .standalone(at: reference)
    } else {
      entry = try context.snapshot.entry(named: reference)
    }
    var summary = context.summary(entry)
    let sandbox = Self.sandbox(for: entry, summary: &summary)
    summary.sandbox = sandbox?.layers.map(\.rawValue)
    if json {
      try output.json(summary)
      return .success
    }
    let rows: [(String, String)] = [
      ("Identifier", summary.id ?? "(unreadable)"),
      ("Name", summary.displayName ?? "?"),
      ("Version", summary.version ?? "?"),
      ("Bundle", summary.path),
      ("Executable", summary.executable ?? "?"),
      ("Found in", "\(summary.folder) (\(summary.origin))"),
      ("Translation app", summary.translationApp ? "yes" : "no"),
      ("Network access", summary.networkAccess ? "declared" : "not declared: the provider gets no network"),
      ("Reads", summary.readOnlyPaths.isEmpty ? "its bundle and the system only" : summary.readOnlyPaths.joined(separator: ", ")),
      (
        "Memory files",
        summary.memoryFiles
          ? "allowed (TPMemoryFiles): memory files, which the memory limit does not count" : "refused (memfd_create)"
      ),
      ("Signature", Self.signature(of: entry, pinned: summary.pinned)),
      ("Eligible", summary.eligible ? "yes" : "no"),
      ("Default", summary.isDefault ? "yes" : "no"),
      ("Disk", Self.disk(sandbox)),
      (
        "Sandbox",
        summary.sandbox.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "unavailable (see the problems below)"
      ),
    ]
    var text = rows.map { "\(($0.0 + ":").padding(18))\($0.1)\n" }.joined()
    if !summary.problems.isEmpty { text += "Problems:\n" + summary.problems.map { "  \($0)\n" }.joined() }
    try output.data(text.escapingControlCharacters())
    return .success
  }

  /// The bundle's signature, checked now, and its pin.
  private static func signature(of entry: RegistryEntry, pinned: Bool) -> String {
    guard let manifest = entry.manifest else { return "?" }
    let pin = pinned ? "; the identifier is pinned to a key" : ""
    do {
      let signature = try BundleSignature.verified(manifest)
      try SignaturePins.standard().check(manifest, signedBy: signature)
      return (signature.map { "signed by key \($0.keyID), verified" } ?? "unsigned") + pin
    } catch {
      return "does not hold: \(error)"
    }
  }
}
