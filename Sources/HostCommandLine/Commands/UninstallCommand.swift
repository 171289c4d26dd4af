import Core

/// `translation-host uninstall`: removes a provider from the user's provider folder.
struct UninstallCommand: Command {
  static let name = "uninstall"
  static let abstract = "Remove a provider installed for this user."
  static let usage = "<provider>"
  static let discussion = """
    Removes a bundle from $XDG_DATA_HOME/translation-host/providers. Bundles in
    other folders belong to whoever put them there (a package manager) and are
    left alone. If it was your default, the next of your preferred defaults is used.
    """
  static let arguments = [(name: "<provider>", help: "Bundle id, name or path.")]
  static let options: [OptionSpec] = []

  var reference: String

  init(_ arguments: ParsedArguments) throws(CommandError) {
    reference = try arguments.single("provider", of: Self.self)
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let snapshot = ProviderRegistry.standard().scan()
    let entry = try snapshot.entry(named: reference)
    try BundleInstaller(folder: snapshot.searchPath.userFolder).uninstall(entry.path)
    try output.data("removed \(entry.identifier ?? entry.path) from \(entry.path)\n")
    // The key is forgotten with the last copy: a new install pins afresh.
    if let identifier = entry.identifier,
      !ProviderRegistry.standard().scan().entries.contains(where: { $0.identifier == identifier }),
      SignaturePins.standard().read()[identifier] != nil
    {
      try SignaturePins.standard().set(identifier, to: nil)
      output.note("forgot the key '\(identifier)' was pinned to")
    }
    return .success
  }
}
