import Core
import FoundationEssentials

/// `translation-host verify`: checks a bundle's signature and its pin.
struct VerifyCommand: Command {
  static let name = "verify"
  static let abstract = "Check a provider bundle's signature against its key and your pinned keys."
  static let usage = "<bundle-dir | provider>"
  static let discussion = """
    Checks every signed file of the bundle against its signature with the
    bundle's own key, and that key against the one its identifier is pinned
    to (the key of the first signed copy you installed). Exits 0 for a
    bundle whose signature holds and matches the pin, or an unsigned one
    whose identifier is not pinned (it says so); 69 otherwise.
    """
  static let arguments = [(name: "<bundle-dir | provider>", help: "A bundle folder, or an installed provider.")]
  static let options: [OptionSpec] = []

  var reference: String

  init(_ arguments: ParsedArguments) throws(CommandError) {
    reference = try arguments.single("bundle", of: Self.self)
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let path =
      ProviderResolution.isPath(reference)
      ? SearchPath.normalized(reference) : try ProviderRegistry.standard().scan().entry(named: reference).path
    let bundle = try ProviderBundle.load(at: path)
    let signature = try BundleSignature.verified(bundle)
    try SignaturePins.standard().check(bundle, signedBy: signature)
    let pinned = SignaturePins.standard().read()[bundle.identifier] != nil
    if let signature {
      try output.data(
        "\(bundle.identifier): signed by key \(signature.keyID)\(pinned ? ", the key it is pinned to" : ", not pinned yet")\n")
    } else {
      try output.data("\(bundle.identifier): unsigned\n")
    }
    return .success
  }
}
