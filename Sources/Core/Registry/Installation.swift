import FoundationEssentials
import System

/// The translation-host installation a process uses: where its providers
/// (`<prefix>/lib/translation-host/providers`), its runner
/// (`<prefix>/libexec/translation-host/translation-provider-runner`) and the
/// half of the CLI that links GTK (`…/translation-host-desktop`) are.
///
/// translation-host's own programs (the CLI and its desktop half, the service, the runner) use
/// the installation they run from, so a build tree and any prefix work
/// without configuration. Any other process is an app of the `Translation`
/// library, installed anywhere (`swift build`'s folder, `/usr/bin` while
/// translation-host is in `/usr/local`): its own folder says nothing about
/// translation-host, so it uses the installation of the `translation-host`
/// that `PATH` finds, else the one in `/usr/local` or `/usr`; and while the
/// resident service runs, the service's (`ServiceContext` leaves the choice
/// to the service).
package struct Installation: Equatable, Sendable {
  /// The programs translation-host is made of: each uses its own installation.
  package static let programNames: Set<String> = ["translation-host", desktopProgramName, "translation-provider-runner"]
  /// The CLI with the desktop popover linked in, which `translation-host` becomes when it needs it.
  package static let desktopProgramName = "translation-host-desktop"
  /// Where an installation keeps the programs people do not run, under its prefix.
  static let libexecFolder = "/libexec/translation-host"

  /// The folder of `bin/translation-host` (or of the build's products).
  package var toolFolder: String
  /// The folder above it.
  package var prefix: String { URL(fileURLWithPath: toolFolder).deletingLastPathComponent().path }
  /// Its providers.
  package var providers: String { prefix + "/lib/translation-host/providers" }
  /// Where its runner may be, in order: the installed layout, then beside
  /// the tool (SwiftPM's build folder).
  package var runnerCandidates: [String] {
    [prefix + Self.libexecFolder + "/", toolFolder + "/"].map { $0 + "translation-provider-runner" }
  }
  /// Where its `translation-host-desktop` may be, in the same order. Never
  /// another installation's: the two halves of the CLI are one build.
  package var desktopCandidates: [String] {
    [prefix + Self.libexecFolder + "/", toolFolder + "/"].map { $0 + Self.desktopProgramName }
  }

  package init(toolFolder: String) { self.toolFolder = toolFolder }

  /// The installation of one of its programs at `executable`: the program's
  /// folder, or, for one in `<prefix>/libexec/translation-host`, `<prefix>/bin`.
  package init(program executable: String) {
    let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().path
    if folder.hasSuffix(Self.libexecFolder) {
      toolFolder = String(folder.dropLast(Self.libexecFolder.count)) + "/bin"
    } else {
      toolFolder = folder
    }
  }

  /// Whether the running executable is one of translation-host's own programs.
  package static let isOwnProgram: Bool = {
    guard let executable = Syscalls.executablePath() else { return false }
    return programNames.contains(URL(fileURLWithPath: executable).lastPathComponent)
  }()

  /// The installation this process uses with `environment`: its own for
  /// translation-host's programs; for an app, the `translation-host` on
  /// `PATH` (symbolic links followed), else `/usr/local/bin`'s, else
  /// `/usr/bin`'s; nil when there is none.
  package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Installation? {
    if isOwnProgram, let executable = Syscalls.executablePath() { return Installation(program: executable) }
    let searched = (environment["PATH"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    for folder in searched + ["/usr/local/bin", "/usr/bin"] {
      let tool = folder + "/translation-host"
      guard FileManager.default.isExecutableFile(atPath: tool), let real = Syscalls.realPath(tool) else { continue }
      return Installation(toolFolder: URL(fileURLWithPath: real).deletingLastPathComponent().path)
    }
    return nil
  }
}
