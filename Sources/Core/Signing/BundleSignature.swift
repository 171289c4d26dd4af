import FoundationEssentials
import System

/// A bundle's signature (optional for authors): in `_CodeSignature/`, the
/// author's minisign public key (`minisign.pub`) and one minisign signature
/// per signed file (`Info.plist.minisig`, …) over the manifest, the
/// entitlements and the shared object, each with the trusted comment
/// "translation-host <identifier>". Made by `translation-host sign`;
/// checked by `verify` and `install`, which pins the identifier to the key.
package struct BundleSignature: Equatable, Sendable {
  package static let folder = "_CodeSignature"
  package static let publicKeyName = "minisign.pub"

  /// The public key, as its base64 line.
  package var publicKey: String
  /// The key's id, as minisign prints it (16 hexadecimal digits).
  package var keyID: String

  /// The names of the files a signature covers, in the bundle folder.
  package static func signedFiles(of bundle: ProviderBundle) -> [String] {
    let names = (try? Directory.names(at: bundle.path)) ?? []
    let entitlements = names.filter { $0.hasSuffix(".entitlements") }.sorted()
    return ["Info.plist"] + entitlements + [URL(fileURLWithPath: bundle.executablePath).lastPathComponent]
  }

  package static func trustedComment(for identifier: String) -> String { "translation-host \(identifier)" }

  /// The bundle's claimed signer, without checking anything; nil when unsigned.
  /// - Throws: `SigningError.malformed` for a public key that is not one.
  package static func claimed(in bundle: ProviderBundle) throws(SigningError) -> BundleSignature? {
    let file = bundle.path + "/" + folder + "/" + publicKeyName
    guard FileManager.default.fileExists(atPath: bundle.path + "/" + folder) else { return nil }
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      throw .malformed(file, "the public key is missing or unreadable")
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    guard lines.count == 2, lines[0].hasPrefix("untrusted comment:"), let key = Data(base64Encoded: lines[1]),
      key.count == 42, key.prefix(2) == Data("Ed".utf8)
    else { throw .malformed(file, "not a minisign public key") }
    return BundleSignature(publicKey: lines[1], keyID: try claimedKeyID(publicKey: lines[1]))
  }

  /// The id of the minisign public key `publicKey` (its base64 line).
  package static func claimedKeyID(publicKey: String) throws(SigningError) -> String {
    guard let key = Data(base64Encoded: publicKey), key.count == 42, key.prefix(2) == Data("Ed".utf8) else {
      throw .malformed(publicKey, "not a minisign public key")
    }
    let digits = Array("0123456789ABCDEF".utf8)
    let bytes = key[key.startIndex + 2..<key.startIndex + 10].reversed()
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
  }

  /// Checks every signed file of `bundle` against its signature and the
  /// bundle's key, and the trusted comment against its identifier.
  /// - Returns: the signer, or nil when the bundle is unsigned.
  package static func verified(_ bundle: ProviderBundle) throws(SigningError) -> BundleSignature? {
    guard let signature = try claimed(in: bundle) else { return nil }
    let publicKey = bundle.path + "/" + folder + "/" + publicKeyName
    for name in signedFiles(of: bundle) {
      let file = bundle.path + "/" + name
      let sig = bundle.path + "/" + folder + "/" + name + ".minisig"
      guard let text = try? String(contentsOfFile: sig, encoding: .utf8) else {
        throw .malformed(sig, "the signature of \(name) is missing")
      }
      // Signed by the global signature, which minisign checks.
      let comment = text.split(separator: "\n").first { $0.hasPrefix("trusted comment: ") }
      guard comment == "trusted comment: " + trustedComment(for: bundle.identifier) else {
        throw .malformed(sig, "its trusted comment is not '\(trustedComment(for: bundle.identifier))'")
      }
      guard try Minisign.verify(file: file, signature: sig, publicKey: publicKey) else {
        throw .invalid(file: file, keyID: signature.keyID)
      }
    }
    return signature
  }
}
