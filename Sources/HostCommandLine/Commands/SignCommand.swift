import Core
import FoundationEssentials
import System

/// `translation-host sign`: signs a bundle with the author's minisign key.
struct SignCommand: Command {
  static let name = "sign"
  static let abstract = "Sign a provider bundle with your minisign key."
  static let usage = "<bundle-dir> --secret-key <file> --public-key <file>"
  static let discussion = """
    Signs the bundle's Info.plist, entitlements and shared object with
    Debian's minisign (Ed25519), each with the trusted comment
    'translation-host <identifier>', and puts the signatures and your public
    key in the bundle's _CodeSignature folder. Make a key pair once with
    'minisign -G -p <public> -s <secret>'; minisign asks for the secret key's
    password. Signing is optional; once a signed bundle of an identifier is
    installed, the identifier is pinned to its key, and install refuses a
    later copy that is unsigned or signed by another key.
    """
  static let arguments = [(name: "<bundle-dir>", help: "The <Name>.translationprovider folder.")]
  static let options: [OptionSpec] = [
    .option("secret-key", "file", help: "Your minisign secret key."),
    .option("public-key", "file", help: "Its public key, copied into the bundle."),
  ]

  var path: String
  var secretKey: String
  var publicKey: String

  init(_ arguments: ParsedArguments) throws(CommandError) {
    path = try arguments.single("bundle folder", of: Self.self)
    guard let secretKey = arguments.value("secret-key"), let publicKey = arguments.value("public-key") else {
      throw .usage("--secret-key and --public-key are required", of: Self.self)
    }
    self.secretKey = secretKey
    self.publicKey = publicKey
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let bundle = try ProviderBundle.load(at: SearchPath.normalized(path))
    let folder = bundle.path + "/" + BundleSignature.folder
    let staging = bundle.path + "/.\(BundleSignature.folder).\(Syscalls.processID).signing"
    try? FileManager.default.removeItem(atPath: staging)
    try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: staging) }
    let names = BundleSignature.signedFiles(of: bundle)
    // Copies are signed, so that no signature lands beside the files.
    for name in names {
      try FileManager.default.copyItem(atPath: bundle.path + "/" + name, toPath: staging + "/" + name)
    }
    try FileManager.default.copyItem(atPath: publicKey, toPath: staging + "/" + BundleSignature.publicKeyName)
    let status = try Minisign.sign(
      files: names.map { staging + "/" + $0 }, secretKey: secretKey,
      trustedComment: BundleSignature.trustedComment(for: bundle.identifier))
    guard status == .exited(0) else {
      throw SigningError.signingFailed(bundle.path, status: { if case .exited(let code) = status { code } else { -1 } }())
    }
    for name in names { try FileManager.default.removeItem(atPath: staging + "/" + name) }
    for name in try Directory.names(at: staging) { try Syscalls.setPermissions(staging + "/" + name, 0o644) }
    try Syscalls.setPermissions(staging, 0o755)
    try? FileManager.default.removeItem(atPath: folder)
    try Syscalls.rename(staging, to: folder)
    let signature = try BundleSignature.verified(bundle)
    try output.data("signed \(bundle.identifier) with key \(signature?.keyID ?? "?"): \(names.joined(separator: ", "))\n")
    return .success
  }
}
