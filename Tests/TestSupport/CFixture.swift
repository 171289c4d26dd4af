import FoundationEssentials
import Glibc

/// Compiles C test providers with the system's C compiler against the ABI header.
package enum CFixture {
  /// The package's root folder.
  package static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// `name` in Tests/Fixtures where another user (a session run as
  /// `nobody`) can read it: a checkout in a private folder is closed to
  /// them, and `scripts/run-tests` then copies the fixtures, with the build,
  /// into a folder others may enter (`TRANSLATION_HOST_SHARED_FIXTURES`).
  package static func shared(_ name: String) -> String {
    let folder = ProcessInfo.processInfo.environment["TRANSLATION_HOST_SHARED_FIXTURES"]
    return (folder ?? packageRoot + "/Tests/Fixtures") + "/" + name
  }

  /// The header a fixture is written against.
  package enum ABI: Sendable {
    /// ABI 1, the header as it was (`Tests/Fixtures/abi-v1`): most hostile
    /// fixtures are ABI 1 providers, which the host keeps loading.
    case v1
    /// ABI 2, the header in `Sources/CTranslationProvider/include`.
    case v2

    var includeFolder: String {
      switch self {
      case .v1: "\(packageRoot)/Tests/Fixtures/abi-v1"
      case .v2: "\(packageRoot)/Sources/CTranslationProvider/include"
      }
    }
  }

  /// Compiles `source` (a path) into `<directory>/<name>.so` with extra `defines`.
  package static func compile(
    _ source: String, defines: [String] = [], abi: ABI = .v1, name: String, in directory: TemporaryDirectory
  ) throws -> String {
    let output = "\(directory.path)/\(name).so"
    let arguments =
      [
        "-std=c11", "-O1", "-shared", "-fPIC", "-fvisibility=hidden", "-I\(abi.includeFolder)",
      ] + defines.map { "-D\($0)" } + [source, "-o", output]
    let status = try Command.run("/usr/bin/cc", arguments)
    guard status.exitCode == 0 else { throw CompileError(message: status.stderr) }
    return output
  }

  /// Compiles the program `source` into `<directory>/<name>`, linked with `libraries` (`-l` names).
  package static func compileProgram(_ source: String, libraries: [String] = [], name: String, in directory: TemporaryDirectory)
    throws -> String
  {
    let output = "\(directory.path)/\(name)"
    let status = try Command.run("/usr/bin/cc", ["-std=c11", "-O1", source, "-o", output] + libraries.map { "-l\($0)" })
    guard status.exitCode == 0 else { throw CompileError(message: status.stderr) }
    return output
  }

  package struct CompileError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { "cc failed: \(message)" }
  }
}
