import Core
import System

/// `translation-host list`: the installed providers.
struct ListCommand: Command {
  static let name = "list"
  static let abstract = "List installed providers."
  static let usage = "[--all] [--json]"
  static let discussion = """
    Lists the providers that may run, in search order; '*' marks the default
    and 'net' those allowed on the network. With --all, also every bundle
    that is refused or shadowed, each with its problems. Listing reads
    manifests only; it never runs provider code.
    """
  static let options: [OptionSpec] = [
    .flag("all", help: "Include refused and shadowed bundles, with their problems."),
    .flag("json", help: "Print a JSON array of providers."),
  ]

  var all: Bool
  var json: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'", of: Self.self) }
    all = arguments.has("all")
    json = arguments.has("json")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let context = try RegistryContext()
    defer { context.keepUntilExit() }
    let snapshot = context.snapshot
    if json {
      try output.json((all ? snapshot.entries : snapshot.usable).map(context.summary))
      return .success
    }
    // Written from the entries in place, as bytes: a summary, a copy of an
    // entry or a String append per field cost as much as the stats.
    let defaultPath = context.choice.entry?.path
    var bytes: [UInt8] = []
    bytes.reserveCapacity(snapshot.entries.count * 80)
    var anyUsable = false
    for index in snapshot.entries.indices {
      // One copy of the entry, read from then: each access through the array copied it again.
      let entry = snapshot.entries[index]
      let usable = entry.isUsable
      anyUsable = anyUsable || usable
      guard all || usable else { continue }
      Self.appendLine(
        for: entry, usable: usable, isDefault: entry.path == defaultPath, all: all, pins: context.pins, to: &bytes)
    }
    if all { bytes.append(utf8: snapshot.folderProblems.map { "! \($0)\n" }.joined()) }
    try output.data(String(decoding: bytes, as: UTF8.self).escapingControlCharacters())
    if !all && !anyUsable {
      output.note("no eligible provider installed; 'translation-host list --all' shows what was found")
    }
    return .success
  }

  /// One line for `entry`, and with `all` its problems, each on a line of its own.
  private static func appendLine(
    for entry: RegistryEntry, usable: Bool, isDefault: Bool, all: Bool, pins: [String: String], to bytes: inout [UInt8]
  ) {
    let manifest = entry.inspection.manifest
    bytes.append(utf8: isDefault ? "* " : "  ")
    bytes.append(utf8: manifest?.identifier ?? "?")
    bytes.append(utf8: "  ")
    bytes.append(utf8: manifest?.version ?? "?")
    bytes.append(utf8: "  ")
    bytes.append(utf8: manifest?.displayName ?? entry.path)
    // Signed (claimed: `info` and `verify` check it) and pinned, only when so: most bundles are neither.
    if let manifest, manifest.hasSignature || (!pins.isEmpty && pins[manifest.identifier] != nil) {
      bytes.append(utf8: manifest.hasSignature ? "  (signed" : "  (unsigned")
      bytes.append(utf8: pins[manifest.identifier] != nil ? ", pinned)" : ")")
    }
    switch (manifest?.allowsNetworkAccess ?? false, usable) {
    case (false, true): bytes.append(utf8: "\n")
    case (true, true): bytes.append(utf8: "  [net]\n")
    case (let network, false):
      bytes.append(utf8: network ? "  [net," : "  [")
      bytes.append(utf8: entry.shadowedBy != nil ? "shadowed]\n" : "refused]\n")
    }
    if all { bytes.append(utf8: entry.problemDescriptions.map { "    \($0)\n" }.joined()) }
  }
}
