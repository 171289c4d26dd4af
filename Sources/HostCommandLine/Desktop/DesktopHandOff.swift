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

  /// The `translation-host` a command line that outlives this process
  /// should name (a shortcut): this program, or, in
  /// `translation-host-desktop`, its installation's `translation-host`.
  static var commandLineTool: String {
    guard let executable = Syscalls.executablePath() else { return "translation-host" }
    guard URL(fileURLWithPath: executable).lastPathComponent == executableName else { return executable }
    return Installation(program: executable).commandLineTool
  }
}
