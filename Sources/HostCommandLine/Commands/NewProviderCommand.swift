import Core
import FoundationEssentials
import System

/// `translation-host new-provider`: writes a provider package that builds.
struct NewProviderCommand: Command {
  static let name = "new-provider"
  static let abstract = "Write a new provider package, in Swift or in C, ready to build."
  static let usage = "<Name> --swift|--c [<folder>] [--sdk <path-or-url>]"
  static let discussion = """
    Writes a working provider (it upper-cases text, for you to replace with
    your translation) with its Info.plist, entitlements and a Makefile:
    'make' lays out build/<Name>.translationprovider, 'make install'
    installs it with 'translation-host install'. A Swift package depends on
    the SDK (TranslationUIProvider) at --sdk, by default the checkout this
    tool was built in; a C package finds the ABI header with
    'pkg-config --cflags translation-provider' (installed by translation-host's
    'make install').
    """
  static let arguments = [
    (name: "<Name>", help: "The provider's name: letters and digits, a letter first."),
    (name: "<folder>", help: "Where to write the package (default: ./<Name>); must be new or empty."),
  ]
  static let options: [OptionSpec] = [
    .flag("swift", help: "A Swift package against the SDK."),
    .flag("c", help: "A C source file against the ABI header."),
    .option("sdk", "path-or-url", help: "Where the Swift package finds translation-host: a checkout's path or its Git URL."),
  ]

  var template: ProviderTemplate
  var folder: String

  init(_ arguments: ParsedArguments) throws(CommandError) {
    let positionals = arguments.positionals
    guard (1...2).contains(positionals.count) else {
      throw .usage("give the provider's name, and optionally a folder", of: Self.self)
    }
    let language: ProviderTemplate.Language
    switch (arguments.has("swift"), arguments.has("c")) {
    case (true, false): language = .swift
    case (false, true): language = .c
    default: throw .usage("pass exactly one of --swift and --c", of: Self.self)
    }
    let sdk = arguments.value("sdk") ?? Self.checkout() ?? ""
    if language == .swift && sdk.isEmpty {
      throw .usage(
        "cannot tell where translation-host's sources are (this tool is not in a checkout's build folder); pass --sdk <path-or-url>",
        of: Self.self)
    }
    do {
      template = try ProviderTemplate(name: positionals[0], language: language, sdkLocation: sdk)
    } catch {
      throw .usage(error.description, of: Self.self)
    }
    folder = SearchPath.normalized(positionals.count == 2 ? positionals[1] : positionals[0])
  }

  func run(in context: CommandContext) throws -> ExitCode {
    let output = context.output
    let files = FileManager.default
    if let existing = try? files.contentsOfDirectory(atPath: folder), !existing.isEmpty {
      throw TemplateError.folderNotEmpty(folder)
    }
    for file in template.files {
      let path = folder + "/" + file.path
      do throws(Errno) {
        try Directory.create(URL(fileURLWithPath: path).deletingLastPathComponent().path, mode: 0o755)
        try AtomicFile.write(Array(file.contents.utf8), to: path, mode: 0o644, durable: false)
      } catch {
        throw TemplateError.cannotWrite(path, reason: error.description)
      }
    }
    try output.data(template.files.map { "wrote \(folder)/\($0.path)\n" }.joined())
    try output.data("build it with: make -C \(folder)   (then: make -C \(folder) install)\n")
    return .success
  }

  /// The checkout this tool was built in: `<checkout>/build/bin/translation-host`
  /// or `<checkout>/.build/<config>/translation-host`, when a Package.swift is there.
  private static func checkout() -> String? {
    guard let executable = Syscalls.executablePath() else { return nil }
    var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
    for _ in 0..<3 {
      folder.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: folder.path + "/Package.swift"),
        FileManager.default.fileExists(atPath: folder.path + "/Sources/TranslationUIProvider")
      {
        return folder.path
      }
    }
    return nil
  }
}
