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
    var text = ""
    for entry in entries {
      let summary = context.summary(entry)
      let mark = summary.isDefault ? "*" : " "
      let flags = [
        summary.networkAccess ? "net" : nil, summary.eligible ? nil : (entry.shadowedBy != nil ? "shadowed" : "refused"),
      ]
      .compactMap { $0 }.joined(separator: ",")
      text += "\(mark) \(summary.id ?? "?")  \(summary.version ?? "?")  \(summary.displayName ?? entry.path)"
      text += flags.isEmpty ? "\n" : "  [\(flags)]\n"
      if all { text += summary.problems.map { "    \($0)\n" }.joined() }
    }
    if all { text += context.snapshot.folderProblems.map { "! \($0)\n" }.joined() }
    try output.data(text.escapingControlCharacters())
    if entries.isEmpty && !all {
      output.note("no eligible provider installed; 'translation-host list --all' shows what was found")
    }
    return .success
  }
}
