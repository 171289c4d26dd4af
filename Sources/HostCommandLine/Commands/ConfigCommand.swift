import Core
import System

/// `translation-host config`: a provider's settings.
struct ConfigCommand: Command {
  static let name = "config"
  static let abstract = "Show or change a provider's settings."
  static let usage = "<provider> [<key> <value> | --clear <key>] [--json]"
  static let discussion = """
    Without a key, lists the settings the provider declares (Info.plist
    TPSettings) with their values. With a key and a value, sets it for you
    ($XDG_CONFIG_HOME/translation-host/settings/<bundle-id>.json); the value
    must have the declared type (string, boolean or integer). A setting the
    provider declares as secret (an API key, a token) is kept in your Secret
    Service keyring (gnome-keyring, KeePassXC), never in that file, keyed by
    the provider and the key its identifier is pinned to; without a keyring
    it cannot be set. --clear puts a setting back to its default.
    """
  static let arguments = [
    (name: "<provider>", help: "Bundle id, name or path."), (name: "<key> <value>", help: "The setting to change."),
  ]
  static let options: [OptionSpec] = [
    .flag("json", help: "List the settings as JSON."),
    .option("clear", "key", help: "Put the setting back to its default (a secret: remove it from the keyring)."),
  ]

  var reference: String
  var change: (key: String, value: String)?
  var clear: String?
  var json: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    let words = arguments.positionals
    guard words.count == 1 || words.count == 3 else {
      throw .usage("expected a provider, optionally followed by a key and a value", of: Self.self)
    }
    reference = words[0]
    change = words.count == 3 ? (words[1], words[2]) : nil
    clear = arguments.value("clear")
    json = arguments.has("json")
    if clear != nil && change != nil { throw .usage("give a key and a value, or --clear <key>, not both", of: Self.self) }
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
      let secret = bundle.settings.contains { $0.key == change.key && $0.isSecret }
      try output.data("\(bundle.identifier): \(change.key) = \(secret ? "(secret, in your keyring)" : "\(value)")\n")
      return .success
    }
    if let clear {
      let removed = try store.clear(clear, for: bundle)
      try output.data("\(bundle.identifier): \(clear) \(removed ? "is back to its default" : "was not set")\n")
      return .success
    }
    let values = try store.values(for: bundle)
    let listed = try bundle.settings.map { setting throws in
      // A secret is never shown: only whether the keyring holds one.
      if setting.isSecret {
        let stored = try store.secrets.value(setting: setting.key, for: bundle.identifier) != nil
        return Listed(
          key: setting.key, title: setting.title, type: "secret string",
          value: .string(stored ? "(set, in your keyring)" : "(not set)"), isDefault: !stored)
      }
      return Listed(
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
