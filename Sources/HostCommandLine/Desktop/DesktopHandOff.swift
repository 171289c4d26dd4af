import Core
import FoundationEssentials
import Synchronization
import System

/// How a command reaches the desktop (`DesktopFrontEnd`).
///
/// `translation-host-desktop` registers its front end before any command
/// runs. `translation-host` has none: when a command needs the desktop, the
/// process becomes `translation-host-desktop` (`execv`, same process id,
/// arguments byte for byte, environment, descriptors, signal mask), which
/// runs the same command from the start. So a command asks for the front end
/// before it reads stdin or the selection, starts a provider or speaks to
/// the service: nothing is lost, and nothing done twice.
package enum DesktopHandOff {
  /// The program with the desktop linked in, in `<prefix>/libexec/translation-host`.
  package static let executableName = Installation.desktopProgramName

  private static let registered = Mutex<(any DesktopFrontEnd)?>(nil)

  /// Makes `frontEnd` the desktop of this process; called once by
  /// `translation-host-desktop`'s entry point, before any command runs.
  package static func register(_ frontEnd: any DesktopFrontEnd) {
    registered.withLock { $0 = frontEnd }
  }

  /// The desktop front end of this process. Without one (`translation-host`),
  /// this process becomes `translation-host-desktop` and this never returns.
  /// - Throws: `DesktopError` when `translation-host-desktop` is missing or cannot be started.
  static func frontEnd() throws(DesktopError) -> any DesktopFrontEnd {
    if let frontEnd = registered.withLock({ $0 }) { return frontEnd }
    let searched = Installation.current()?.desktopCandidates ?? []
    guard let path = searched.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      throw .notInstalled(searched: searched)
    }
    do throws(Errno) {
      try Syscalls.replaceProgram(with: path)
    } catch {
      throw .cannotStart(path, error)
    }
  }

  /// This installation's `translation-host-desktop`, for a command line
  /// that outlives this process and always wants the desktop (a shortcut):
  /// this program when it is that one, else where the installation keeps it.
  /// Naming it rather than `translation-host` saves the hand-off, the whole
  /// start of `translation-host` (about 19 ms, Benchmarks/README.md).
  static var desktopProgram: String {
    if let executable = Syscalls.executablePath(), URL(fileURLWithPath: executable).lastPathComponent == executableName {
      return executable
    }
    let candidates = Installation.current()?.desktopCandidates ?? []
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.first ?? executableName
  }
}
