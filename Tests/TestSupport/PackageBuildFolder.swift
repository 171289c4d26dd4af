import FoundationEssentials

/// The folder of a package that a test builds with swift (an app, a new
/// provider), kept between runs so that its build is incremental.
///
/// Run by `scripts/run-tests` (`make test`), it is `<name>` in the tools'
/// temporary folder (`TMPDIR` there: `.build/tmp`, where swift keeps what it
/// leaves, and from which `make` removes what is a day old). Each run puts
/// the package's files in anew (`replaceContents`); only swift's build
/// folder (`.build`) stays, so a run compiles what changed, in the package
/// and in this checkout, instead of every target of this checkout it
/// depends on (a minute or more of CPU beside the other lanes), and
/// whatever the package's own build makes (a bundle) is made anew. Run
/// otherwise, it is a fresh temporary folder.
package final class PackageBuildFolder: WritableFolder {
  package let path: String
  /// The fresh folder when it is one; removed with this value.
  private let temporary: TemporaryDirectory?

  /// What stays from one run to the next: swift's build folder.
  private static let kept: Set<String> = [".build"]

  package init(name: String) throws {
    let environment = ProcessInfo.processInfo.environment
    if environment["TRANSLATION_HOST_TEST_TMPDIR"] != nil, let tools = environment["TMPDIR"] {
      temporary = nil
      path = tools + "/" + name
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    } else {
      let folder = try TemporaryDirectory()
      temporary = folder
      path = folder.path
    }
    try clear()
  }

  /// Removes everything but swift's build folder.
  private func clear() throws {
    for entry in try FileManager.default.contentsOfDirectory(atPath: path) where !Self.kept.contains(entry) {
      try FileManager.default.removeItem(atPath: path + "/" + entry)
    }
  }

  /// Puts a copy of what `folder` holds (but a build folder of swift's) in this folder, in place of what was there.
  package func replaceContents(with folder: String) throws {
    try clear()
    for entry in try FileManager.default.contentsOfDirectory(atPath: folder) where !Self.kept.contains(entry) {
      try FileManager.default.copyItem(atPath: folder + "/" + entry, toPath: path + "/" + entry)
    }
  }
}
