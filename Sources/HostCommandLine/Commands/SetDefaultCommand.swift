import Core

/// `translation-host set-default`: chooses the default provider.
struct SetDefaultCommand: Command {
  static let name = "set-default"
  static let abstract = "Make a provider the default."
  static let usage = "<provider>"
  static let discussion = """
    Puts the provider first in your list of preferred defaults
    ($XDG_CONFIG_HOME/translation-host/default-providers); earlier choices stay
    after it as fallbacks, used in order if it is ever uninstalled. Refuses a
    provider that is unknown, not eligible, or shadowed, and says why.
    """
  static let arguments = [(name: "<provider>", help: "Bundle id, name, or path of an installed bundle.")]
  static let options: [OptionSpec] = []

  var reference: String

  init(_ arguments: ParsedArguments) throws(CommandError) {
    reference = try arguments.single("provider", of: Self.self)
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let snapshot = ProviderRegistry.standard().scan()
    let entry = try snapshot.entry(named: reference)
    guard let identifier = entry.identifier, entry.isUsable else {
      throw RegistryError.notEligible(reference, reasons: entry.problemDescriptions)
    }
    let list = try DefaultPreferences.standard().prefer(identifier)
    try output.data("default provider: \(identifier)\n")
    if list.count > 1 { output.note("fallbacks, in order: \(list.dropFirst().joined(separator: ", "))") }
    return .success
  }
}
