import Core
import FoundationEssentials

/// `translation-host install`: validates a bundle and copies it into the user's provider folder.
struct InstallCommand: Command {
  static let name = "install"
  static let abstract = "Validate a provider bundle and install it for this user."
  static let usage = "<bundle-dir>"
  static let discussion = """
    Runs the checks of 'validate', then copies the bundle into
    $XDG_DATA_HOME/translation-host/providers, replacing an older copy of the
    same name in one step. Nothing is installed unless every check passes.
    With no default provider chosen (set-default), the first provider you
    install becomes the default, since your folder comes first in the
    search path; install says so.
    """
  static let arguments = [(name: "<bundle-dir>", help: "The <Name>.translationprovider folder.")]
  static let options: [OptionSpec] = [ProviderOptions.timeoutSpec]

  var path: String
  var timeout: Duration

  init(_ arguments: ParsedArguments) throws(CommandError) {
    path = try arguments.single("bundle folder", of: Self.self)
    timeout = try ProviderOptions.timeout(arguments, command: Self.self)
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let source = SearchPath.normalized(path)
    guard source.hasSuffix(".translationprovider") else {
      throw CommandError.usage("'\(path)' is not a <Name>.translationprovider folder", of: Self.self)
    }
    let checks = try ValidateCommand.validate(source, timeout: timeout)
    let failures = checks.filter { $0.outcome == .failed }
    guard failures.isEmpty else {
      output.diagnostic(failures.map { "FAIL  \($0.message)\n" }.joined())
      throw InstallError.invalid(source)
    }
    let manifest = try ProviderBundle.load(at: source)
    let snapshot = ProviderRegistry.standard().scan()
    let userFolder = snapshot.searchPath.userFolder
    let name = URL(fileURLWithPath: source).lastPathComponent
    if let clash = snapshot.entries.first(where: {
      $0.folder.path == userFolder && $0.identifier == manifest.identifier && !$0.path.hasSuffix("/" + name)
    }) {
      throw CommandError(
        "'\(manifest.identifier)' is already installed as \(clash.path); uninstall it first", exitCode: .failure)
    }
    let installed = try BundleInstaller(folder: userFolder).install(
      source, executableName: URL(fileURLWithPath: manifest.executablePath).lastPathComponent)
    try output.data("installed \(manifest.identifier) \(manifest.version) at \(installed)\n")
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
