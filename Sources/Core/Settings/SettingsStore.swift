import FoundationEssentials
import System

/// The user's values for providers' settings, one JSON object per provider in
/// `$XDG_CONFIG_HOME/translation-host/settings/<bundle-id>.json`, written
/// atomically under a lock. Only settings a provider declares are accepted.
/// Secret settings are in the user's keyring instead (`SecretStore`).
package struct SettingsStore: Sendable {
  package var folder: String
  package var secrets: SecretStore
  /// Who holds each identifier: secrets go only to that bundle (`IdentityClaim`); nil hands out none.
  package var registry: ProviderRegistry?

  package init(folder: String, secrets: SecretStore = .standard(), registry: ProviderRegistry? = nil) {
    self.folder = folder
    self.secrets = secrets
    self.registry = registry
  }

  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SettingsStore {
    SettingsStore(
      folder: XDGFolders(environment: environment).config + "/settings", secrets: .standard(environment: environment),
      registry: .standard(environment: environment))
  }

  /// The values the user set for `bundle` (a key the bundle no longer
  /// declares, or a value of the wrong type, is ignored).
  package func values(for bundle: ProviderBundle) throws(SettingsError) -> [String: SettingValue] {
    let stored = try read(bundle.identifier)
    var values: [String: SettingValue] = [:]
    for setting in bundle.settings where !setting.isSecret {
      if let value = stored[setting.key], value.kind == setting.kind { values[setting.key] = value }
    }
    return values
  }

  /// Every declared setting with the user's value or its default, as the
  /// JSON object the provider receives (`tp_host.settings_json`).
  /// `overrides` replace the user's values for one run, where the bundle
  /// declares the key with that type (others are left out).
  package func effectiveJSON(
    for bundle: ProviderBundle, overrides: [String: SettingValue] = [:]
  ) throws(SettingsError) -> String {
    var effective = Dictionary(bundle.settings.map { ($0.key, $0.defaultValue) }) { first, _ in first }
    effective.merge(try values(for: bundle)) { $1 }
    // From the keyring, for the bundle that holds its identifier only (not
    // one outside the search path claiming an identifier no bundle holds now).
    let secretSettings = bundle.settings.filter(\.isSecret)
    let holds =
      !secretSettings.isEmpty
      && registry.map {
        IdentityClaim(identifier: bundle.identifier, path: bundle.path, in: $0.scan()) == .owner
      } == true
    for setting in secretSettings where holds {
      if let secret = try secrets.value(setting: setting.key, for: bundle.identifier) {
        effective[setting.key] = .string(secret)
      }
    }
    for setting in bundle.settings {
      if let value = overrides[setting.key], value.kind == setting.kind { effective[setting.key] = value }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(effective) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// Every declared setting with its default: what a bundle that does not
  /// hold its identifier gets (`IdentityClaim`), never the user's values.
  package static func defaultJSON(for bundle: ProviderBundle) -> String {
    let defaults = Dictionary(bundle.settings.map { ($0.key, $0.defaultValue) }) { first, _ in first }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(defaults) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// Sets `key` to `text`, read as the declared type.
  @discardableResult
  package func set(_ key: String, to text: String, for bundle: ProviderBundle) throws(SettingsError) -> SettingValue {
    guard let setting = bundle.settings.first(where: { $0.key == key }) else {
      throw .unknownKey(key, provider: bundle.identifier, known: bundle.settings.map(\.key))
    }
    guard let value = SettingValue(parsing: text, as: setting.kind) else {
      throw .wrongType(key, value: text, expected: setting.kind)
    }
    if setting.isSecret {
      try secrets.store(text, setting: key, for: bundle.identifier)
      return value
    }
    let file = path(bundle.identifier)
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      try FileLock.withLock(at: file + ".lock") {
        var stored = try read(bundle.identifier)
        stored[key] = value
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFile.write(Array(try encoder.encode(stored)), to: file, mode: 0o600, durable: true)
      }
    } catch let error as SettingsError {
      throw error
    } catch {
      throw .unwritable(file, reason: "\(error)")
    }
    return value
  }

  /// Puts `key` back to its default: removes the user's value (from the
  /// keyring for a secret); whether there was one.
  @discardableResult
  package func clear(_ key: String, for bundle: ProviderBundle) throws(SettingsError) -> Bool {
    guard let setting = bundle.settings.first(where: { $0.key == key }) else {
      throw .unknownKey(key, provider: bundle.identifier, known: bundle.settings.map(\.key))
    }
    if setting.isSecret { return try secrets.clear(setting: key, for: bundle.identifier) }
    let file = path(bundle.identifier)
    do {
      return try FileLock.withLock(at: file + ".lock") {
        var stored = try read(bundle.identifier)
        guard stored.removeValue(forKey: key) != nil else { return false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFile.write(Array(try encoder.encode(stored)), to: file, mode: 0o600, durable: true)
        return true
      }
    } catch let error as SettingsError {
      throw error
    } catch {
      throw .unwritable(file, reason: "\(error)")
    }
  }

  private func path(_ identifier: String) -> String { folder + "/" + identifier + ".json" }

  private func read(_ identifier: String) throws(SettingsError) -> [String: SettingValue] {
    let file = path(identifier)
    guard let data = FileManager.default.contents(atPath: file) else { return [:] }
    do {
      return try JSONDecoder().decode([String: SettingValue].self, from: data)
    } catch {
      throw .unreadable(file, reason: "not a JSON object of settings; fix or remove it")
    }
  }
}
