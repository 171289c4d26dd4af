import FoundationEssentials
import Glibc

/// Compiles C test providers with the system's C compiler against the ABI header.
package enum CFixture {
  /// The package's root folder.
  package static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// Compiles `source` (a path) into `<directory>/<name>.so` with extra `defines`.
  package static func compile(_ source: String, defines: [String] = [], name: String, in directory: TemporaryDirectory) throws
    -> String
  {
    let output = "\(directory.path)/\(name).so"
    let arguments =
      [
        "-std=c11", "-O1", "-shared", "-fPIC", "-fvisibility=hidden",
        "-I\(packageRoot)/Sources/CTranslationProvider/include",
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
