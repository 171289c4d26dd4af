import System

/// The declared folders (`TPReadOnlyPaths`) last found to hold no socket,
/// device or pipe, each with the stamp of every folder below it, kept in a
/// file of the user's cache so that the walk is not made again for each
/// `list`, `run` and `translate` (Apertium's /var/lib/dpkg is 3,500 entries,
/// about 12 ms of CPU a walk, twice before each run; Benchmarks/bundle_walk.py).
///
/// A stamp is a folder's device, inode and status-change time (`st_ctime`),
/// taken before it is listed. A name added to, removed from or renamed in a
/// folder changes its `st_ctime`, which no call can set back (unlike the
/// modification time); a folder mounted over, or replaced, changes its device
/// or inode. So while every stamp of a walk holds, the tree holds the same
/// entries, and an entry's kind (socket, device, pipe) never changes: the
/// walk's verdict holds too. One stamp that differs, a folder gone, or a
/// file that cannot be read, and the folder is walked again.
package struct CleanFolders: Sendable {
  /// A folder of a walk and what it was when listed.
  package struct Stamp: Equatable, Sendable {
    package var path: String
    package var device: UInt64
    package var inode: UInt64
    package var changed: Int64

    /// The stamp of the folder at `path` now (not following a link).
    package init?(of path: String) {
      guard let status = try? FileStatus(path: path, followingLinks: false), status.isDirectory else { return nil }
      self.path = path
      device = status.device
      inode = status.inode
      changed = status.changed
    }

    init(path: String, device: UInt64, inode: UInt64, changed: Int64) {
      self.path = path
      self.device = device
      self.inode = inode
      self.changed = changed
    }
  }

  /// The cache file.
  package let file: String
  /// How long ago every folder of a walk must have changed for it to be
  /// remembered. The kernel stamps times from a coarse clock (a few
  /// milliseconds): an entry added just after a folder was listed may leave
  /// its status-change time as it was, but never one that is older than this.
  package var settling: Duration = .seconds(2)

  /// The most folders a walk may have to be remembered (a few hundred stamps at most are read back).
  static let maximumStamps = 512
  private static let header = "translation-host clean folders 1"

  package init(file: String) { self.file = file }

  /// Whether `folder` was found clean by a walk whose stamps all hold now.
  package func isClean(_ folder: String) -> Bool {
    guard let stamps = records()[folder], !stamps.isEmpty else { return false }
    return stamps.allSatisfy { Stamp(of: $0.path) == $0 }
  }

  /// Records that the walk of `folder` found nothing, with its folders'
  /// stamps; a folder changed within `settling`, a path with a tab or a
  /// newline, or too many folders, and the walk is not remembered. Best effort: a cache that cannot be written is walked again.
  package func remember(_ folder: String, stamps: [Stamp]) {
    let settled = Syscalls.wallClockNanoseconds() - settling.components.seconds * 1_000_000_000
    guard stamps.count <= Self.maximumStamps, stamps.allSatisfy({ $0.changed < settled }),
      !([folder] + stamps.map(\.path)).contains(where: { $0.contains("\t") || $0.contains("\n") })
    else { return }
    var kept = records()
    kept[folder] = stamps
    var text = Self.header + "\n"
    for (key, values) in kept.sorted(by: { $0.key < $1.key }) {
      for stamp in values { text += "\(key)\t\(stamp.path)\t\(stamp.device)\t\(stamp.inode)\t\(stamp.changed)\n" }
    }
    let folderOfFile = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
    // Its own folder only: a cache folder whose parent is missing (no home) is not made.
    let parent = String(folderOfFile[..<(folderOfFile.lastIndex(of: "/") ?? folderOfFile.startIndex)])
    guard !parent.isEmpty, (try? FileStatus(path: parent))?.isDirectory == true,
      (try? Directory.create(folderOfFile, mode: 0o700)) != nil
    else { return }
    try? AtomicFile.write(Array(text.utf8), to: file, mode: 0o600, durable: false)
  }

  /// The records of the file; an unreadable or malformed file holds none.
  private func records() -> [String: [Stamp]] {
    guard let bytes = try? Directory.readPrefix(of: file, count: 1 << 20) else { return [:] }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    guard lines.first == Self.header[...] else { return [:] }
    var result: [String: [Stamp]] = [:]
    for line in lines.dropFirst() {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 5, let device = UInt64(fields[2]), let inode = UInt64(fields[3]),
        let changed = Int64(fields[4])
      else { return [:] }
      result[String(fields[0]), default: []].append(
        Stamp(path: String(fields[1]), device: device, inode: inode, changed: changed))
    }
    return result
  }
}
