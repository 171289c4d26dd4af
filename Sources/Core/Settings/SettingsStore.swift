import FoundationEssentials
import System

/// The user's values for providers' settings, one JSON object per provider in
/// `$XDG_CONFIG_HOME/translation-host/settings/<bundle-id>.json`, written
/// atomically under a lock. Only settings a provider declares are accepted.
package struct SettingsStore: Sendable {
  package var folder: String

  package init(folder: String) { self.folder = folder }

  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SettingsStore {
    SettingsStore(folder: XDGFolders(environment: environment).config + "/settings")
  }

  /// The values the user set for `bundle` (a key the bundle no longer
  /// declares, or a value of the wrong type, is ignored).
  package func values(for bundle: ProviderBundle) throws(SettingsError) -> [String: SettingValue] {
    let stored = try read(bundle.identifier)
    var values: [String: SettingValue] = [:]
    for setting in bundle.settings {
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
