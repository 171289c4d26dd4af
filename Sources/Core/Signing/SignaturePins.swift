import FoundationEssentials
import System

/// The keys identifiers are pinned to: `$XDG_CONFIG_HOME/translation-host/pins`,
/// one "<identifier> <public key>" per line. An identifier is pinned when a
/// signed bundle of it is first installed; a later bundle with that
/// identifier must be signed by the same key (`check`). `uninstall` forgets it.
package struct SignaturePins: Sendable {
  package var file: String

  package init(file: String) { self.file = file }

  package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SignaturePins {
    SignaturePins(file: XDGFolders(environment: environment).config + "/pins")
  }

  /// The pinned public keys, by identifier.
  package func read() -> [String: String] {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [:] }
    var pins: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if fields.count == 2 { pins[String(fields[0])] = String(fields[1]) }
    }
    return pins
  }

  /// Whether `signature` (nil: unsigned) may stand for `bundle`'s identifier.
  /// - Throws: `SigningError.unsignedButPinned` or `.otherKey`, naming both keys.
  package func check(_ bundle: ProviderBundle, signedBy signature: BundleSignature?) throws(SigningError) {
    guard let pinned = read()[bundle.identifier] else { return }
    let pinnedID =
      (try? BundleSignature.claimedKeyID(publicKey: pinned)) ?? String(pinned.prefix(12))
    guard let signature else {
      throw .unsignedButPinned(bundle: bundle.path, identifier: bundle.identifier, pinned: pinnedID)
    }
    if signature.publicKey != pinned {
      throw .otherKey(bundle: bundle.path, identifier: bundle.identifier, pinned: pinnedID, found: signature.keyID)
    }
  }

  /// Pins `identifier` to `publicKey` (nil forgets it), atomically under a lock.
  package func set(_ identifier: String, to publicKey: String?) throws(SigningError) {
    do {
      try FileManager.default.createDirectory(
        atPath: URL(fileURLWithPath: file).deletingLastPathComponent().path, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      try FileLock.withLock(at: file + ".lock") {
        var pins = read()
        pins[identifier] = publicKey
        let text = pins.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        try AtomicFile.write(Array(text.utf8), to: file, mode: 0o600, durable: true)
      }
    } catch {
      throw .pinsUnwritable(file, "\(error)")
    }
  }
}
