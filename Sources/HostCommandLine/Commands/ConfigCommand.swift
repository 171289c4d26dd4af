import Core
import System

/// `translation-host config`: a provider's settings.
struct ConfigCommand: Command {
  static let name = "config"
  static let abstract = "Show or change a provider's settings."
  static let usage = "<provider> [<key> <value>] [--json]"
  static let discussion = """
    Without a key, lists the settings the provider declares (Info.plist
    TPSettings) with their values. With a key and a value, sets it for you
    ($XDG_CONFIG_HOME/translation-host/settings/<bundle-id>.json); the value
    must have the declared type (string, boolean or integer).
    """
  static let arguments = [
    (name: "<provider>", help: "Bundle id, name or path."), (name: "<key> <value>", help: "The setting to change."),
  ]
  static let options: [OptionSpec] = [.flag("json", help: "List the settings as JSON.")]

  var reference: String
  var change: (key: String, value: String)?
  var json: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    let words = arguments.positionals
    guard words.count == 1 || words.count == 3 else {
      throw .usage("expected a provider, optionally followed by a key and a value", of: Self.self)
    }
    reference = words[0]
    change = words.count == 3 ? (words[1], words[2]) : nil
    json = arguments.has("json")
  }

  private struct Listed: Encodable {
    var key: String
    var title: String
    var type: String
    var value: SettingValue
    var isDefault: Bool
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let bundle = try ProviderResolution.bundle(named: reference, notice: output.note)
    let store = SettingsStore.standard()
    if let change {
      let value = try store.set(change.key, to: change.value, for: bundle)
      try output.data("\(bundle.identifier): \(change.key) = \(value)\n")
      return .success
    }
    let values = try store.values(for: bundle)
    let listed = bundle.settings.map { setting in
      Listed(
        key: setting.key, title: setting.title, type: setting.kind.rawValue,
        value: values[setting.key] ?? setting.defaultValue, isDefault: values[setting.key] == nil)
    }
    if json {
      try output.json(listed)
    } else if listed.isEmpty {
      try output.data("\(bundle.identifier) has no settings\n")
    } else {
      try output.data(
        listed.map {
          "\($0.key) = \($0.value)\($0.isDefault ? " (default)" : "")    \($0.title) [\($0.type)]"
            .escapingControlCharacters(keeping: []) + "\n"
        }.joined())
    }
    return .success
  }
}
