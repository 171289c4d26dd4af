import FoundationEssentials
import System

/// Waits until the file system in `folder` gives a status change time later
/// than `time` (nanoseconds, as `FileStatus.changed`): on a file system whose
/// timestamps are coarse (a second on some), a change made at once could
/// carry the same time as the one before it.
package func waitForChangeTimeAfter(_ time: Int64, in folder: String) throws {
  let probe = folder + "/.change-time-probe"
  try eventually("a change time after \(time) in \(folder)", timeout: .seconds(10), interval: .milliseconds(2)) {
    try AtomicFile.write([], to: probe, mode: 0o600, durable: false)
    return try FileStatus(path: probe).changed > time
  }
  try? FileManager.default.removeItem(atPath: probe)
}
