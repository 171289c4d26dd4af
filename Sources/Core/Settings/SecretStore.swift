import CSecretService
import FoundationEssentials
import Glibc

/// Secret settings (`TPSettings` entries with `Secret`: API keys, tokens) in
/// the user's Secret Service keyring, keyed by the provider's identifier, the
/// key the identifier is pinned to (`SignaturePins`; "unsigned" without one)
/// and the setting's key: a bundle signed by another key never finds them.
/// Only the bundle that holds its identifier (`IdentityClaim`) is handed
/// them, by `SettingsStore.effectiveJSON`. Without a keyring every call fails
/// with `SettingsError.keyringUnavailable`: there is no plaintext fallback.
package struct SecretStore: Sendable {
  /// The pins that decide the signer part of each secret's key.
  package var pins: SignaturePins

  package init(pins: SignaturePins) { self.pins = pins }

  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SecretStore {
    SecretStore(pins: .standard(environment: environment))
  }

  /// The signer part of `identifier`'s secrets: the id of the key it is pinned to, or "unsigned".
  package func signer(of identifier: String) -> String {
    guard let key = pins.read()[identifier] else { return "unsigned" }
    return (try? BundleSignature.claimedKeyID(publicKey: key)) ?? "unsigned"
  }

  package func store(_ value: String, setting: String, for identifier: String) throws(SettingsError) {
    var message = [CChar](repeating: 0, count: 512)
    let label = "translation-host: \(setting) of \(identifier)"
    let result = tp_secret_store(identifier, signer(of: identifier), setting, label, value, &message, message.count)
    if result != 0 { throw .keyringUnavailable(provider: identifier, setting: setting, reason: Self.text(message)) }
  }

  /// The stored value, or nil when none is stored.
  package func value(setting: String, for identifier: String) throws(SettingsError) -> String? {
    var message = [CChar](repeating: 0, count: 512)
    var found: UnsafeMutablePointer<CChar>?
    let result = tp_secret_lookup(identifier, signer(of: identifier), setting, &found, &message, message.count)
    defer { free(found) }
    switch result {
    case 0: return found.map { String(cString: $0) }
    case 1: return nil
    default: throw .keyringUnavailable(provider: identifier, setting: setting, reason: Self.text(message))
    }
  }

  /// Removes the stored value; whether there was one.
  @discardableResult
  package func clear(setting: String, for identifier: String) throws(SettingsError) -> Bool {
    var message = [CChar](repeating: 0, count: 512)
    let result = tp_secret_clear(identifier, signer(of: identifier), setting, &message, message.count)
    if result < 0 { throw .keyringUnavailable(provider: identifier, setting: setting, reason: Self.text(message)) }
    return result == 0
  }

  private static func text(_ message: [CChar]) -> String {
    String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
