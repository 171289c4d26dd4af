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

  func run(output: Output) throws -> ExitCode {
    let context = try RegistryContext()
    let entries = all ? context.snapshot.entries : context.snapshot.usable
    if json {
      try output.json(entries.map(context.summary))
      return .success
    }
    // Written from the entries directly: a summary per line cost as much as the stats that validate the cache.
    let defaultPath = context.choice.entry?.path
    var text = ""
    text.reserveCapacity(entries.count * 64)
    for entry in entries {
      let manifest = entry.manifest
      text += entry.path == defaultPath ? "* " : "  "
      text += manifest?.identifier ?? "?"
      text += "  "
      text += manifest?.version ?? "?"
      text += "  "
      text += manifest?.displayName ?? entry.path
      let eligible = entry.isUsable
      switch (manifest?.allowsNetworkAccess ?? false, eligible) {
      case (false, true): text += "\n"
      case (true, true): text += "  [net]\n"
      case (let network, false):
        text += network ? "  [net," : "  ["
        text += entry.shadowedBy != nil ? "shadowed]\n" : "refused]\n"
      }
      if all { text += entry.problemDescriptions.map { "    \($0)\n" }.joined() }
    }
    if all { text += context.snapshot.folderProblems.map { "! \($0)\n" }.joined() }
    try output.data(text.escapingControlCharacters())
    if entries.isEmpty && !all {
      output.note("no eligible provider installed; 'translation-host list --all' shows what was found")
    }
    return .success
  }
}
