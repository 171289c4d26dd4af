import FoundationEssentials
import System

/// Debian's minisign: Ed25519 signatures (through libsodium) with
/// password-protected secret keys and a signed "trusted comment". Found only
/// where Debian installs it: no variable or `PATH` can point elsewhere, since
/// its answer decides what runs.
package enum Minisign {
  package static let candidates = ["/usr/bin/minisign"]

  /// The tool, a file of root's that no one else may write.
  package static func locate() throws(SigningError) -> String {
    for path in candidates {
      guard let status = try? FileStatus(path: path) else { continue }
      if status.isRegularFile && status.owner == 0 && !status.isWritableByOthers && status.mode & 0o111 != 0 {
        return path
      }
    }
    throw .toolMissing(candidates)
  }

  /// Whether `signature` is a valid signature of `file` by the key in `publicKey` (a file).
  package static func verify(file: String, signature: String, publicKey: String) throws(SigningError) -> Bool {
    try run(["-V", "-q", "-p", publicKey, "-m", file, "-x", signature]) == .exited(0)
  }

  /// Signs each of `files` with the secret key in `secretKey` (asking for its
  /// password on the terminal), writing `<file>.minisig` beside it.
  package static func sign(files: [String], secretKey: String, trustedComment: String) throws(SigningError) -> ExitStatus {
    try run(["-S", "-s", secretKey, "-t", trustedComment, "-m"] + files, interactive: true)
  }

  private static func run(_ arguments: [String], interactive: Bool = false) throws(SigningError) -> ExitStatus {
    let tool = try locate()
    var actions: [Syscalls.SpawnAction] = [.nullDevice(as: .standardOutput)]
    if !interactive { actions.append(.nullDevice(as: .standardInput)) }
    do {
      let pid = try Syscalls.spawn(
        tool, arguments: arguments, environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"], actions: actions,
        newSession: false)
      return ExitStatus(waitStatus: try Syscalls.wait(pid))
    } catch {
      throw .signingFailed(tool, status: -1)
    }
  }
}
