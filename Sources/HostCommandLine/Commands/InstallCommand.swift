import Core
import FoundationEssentials

/// `translation-host install`: validates a bundle and copies it into the user's provider folder.
struct InstallCommand: Command {
  static let name = "install"
  static let abstract = "Validate a provider bundle and install it for this user."
  static let usage = "<bundle-dir> [--replace]"
  static let discussion = """
    Runs the checks of 'validate', then copies the bundle into
    $XDG_DATA_HOME/translation-host/providers, replacing an older copy of the
    same name in one step. Nothing is installed unless every check passes.
    With no default provider chosen (set-default), the first provider you
    install becomes the default, since your folder comes first in the
    search path; install says so.
    An identifier belongs to one bundle, with its settings and container:
    install refuses a bundle whose identifier another installed bundle
    holds, unless it is an update of it (the same folder name in your
    folder) or you pass --replace, which removes the other from your folder
    (a copy in another folder of the search path stays, and is shadowed by
    yours or shadows it). The bundle is checked before the user's settings
    for that identifier ever reach it: it is tried with the defaults.
    """
  static let arguments = [(name: "<bundle-dir>", help: "The <Name>.translationprovider folder.")]
  static let options: [OptionSpec] = [
    ProviderOptions.timeoutSpec,
    .flag("replace", help: "Install over the bundle that holds the same identifier under another folder name."),
  ]

  var path: String
  var timeout: Duration
  var replace: Bool

  init(_ arguments: ParsedArguments) throws(CommandError) {
    path = try arguments.single("bundle folder", of: Self.self)
    timeout = try ProviderOptions.timeout(arguments, command: Self.self)
    replace = arguments.has("replace")
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let source = SearchPath.normalized(path)
    guard source.hasSuffix(".translationprovider") else {
      throw CommandError.usage("'\(path)' is not a <Name>.translationprovider folder", of: Self.self)
    }
    // Who holds the identifier is settled before the bundle's code runs at all.
    // (A bundle without a usable manifest fails validation, which says why.)
    let identifier = BundleInspector.inspect(source).manifest?.identifier
    let snapshot = ProviderRegistry.standard().scan()
    let userFolder = snapshot.searchPath.userFolder
    let name = URL(fileURLWithPath: source).lastPathComponent
    let target = SearchPath.normalized(userFolder + "/" + name)
    let holders = snapshot.entries.filter {
      $0.identifier != nil && $0.identifier == identifier && SearchPath.normalized($0.path) != target
    }
    if let identifier, !holders.isEmpty, !replace {
      throw CommandError(
        "'\(identifier)' belongs to \(holders.map(\.path).joined(separator: ", ")), and an identifier, with its settings and container, belongs to one bundle; to install this one instead, pass --replace",
        exitCode: .failure)
    }
    let checks = try ValidateCommand.validate(source, timeout: timeout)
    let failures = checks.filter { $0.outcome == .failed }
    guard failures.isEmpty else {
      output.diagnostic(failures.map { "FAIL  \($0.message)\n" }.joined())
      throw InstallError.invalid(source)
    }
    let manifest = try ProviderBundle.load(at: source)
    guard manifest.identifier == identifier else {
      throw CommandError("\(source) changed while it was checked; install it again", exitCode: .failure)
    }
    // Signed or not, against the key the identifier is pinned to; the first signed copy pins it.
    let signature = try BundleSignature.verified(manifest)
    let pins = SignaturePins.standard()
    try pins.check(manifest, signedBy: signature)
    let installer = BundleInstaller(folder: userFolder)
    let installed = try installer.install(
      source, executableName: URL(fileURLWithPath: manifest.executablePath).lastPathComponent)
    for holder in holders where holder.folder.path == userFolder {
      try installer.uninstall(holder.path)
      output.note("removed \(holder.path), which held '\(manifest.identifier)'")
    }
    if let signature, pins.read()[manifest.identifier] == nil {
      try pins.set(manifest.identifier, to: signature.publicKey)
      output.note("'\(manifest.identifier)' is now pinned to key \(signature.keyID): later copies must be signed by it")
    }
    try output.data("installed \(manifest.identifier) \(manifest.version) at \(installed)\n")
    for grant in manifest.grants { output.note("it \(grant)") }
    let after = ProviderRegistry.standard().scan()
    if let shadow = after.entries.first(where: { $0.path == installed })?.shadowedBy {
      output.note("warning: it is shadowed by \(shadow), which comes first in the search path")
    }
    // Chosen by rule rather than by you: your folder comes first in the search path, so say it.
    let preferences = (try? DefaultPreferences.standard().read().identifiers) ?? []
    let choice = DefaultChoice.choose(from: after, preferences: preferences)
    if choice.notice != nil, choice.entry?.path == installed {
      output.note(
        "it is the default provider: no default you chose is usable, and your provider folder comes first in the search path; 'translation-host set-default <provider>' picks another"
      )
    }
    return .success
  }
}
