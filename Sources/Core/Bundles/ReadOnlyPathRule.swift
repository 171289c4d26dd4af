/// Which paths a manifest may ask to read under `TPReadOnlyPaths`: system
/// data that a provider needs and the sandbox does not show by default (apt's
/// lists, a dictionary in /srv), never a user's files, another process's
/// state or a folder anyone may write to.
package enum ReadOnlyPathRule {
  /// The folders below which a declared path must lie.
  package static let allowedRoots = ["/usr", "/opt", "/etc", "/var", "/srv"]
  /// Folders below the allowed roots that are never shown.
  package static let refusedRoots = ["/var/tmp", "/var/run", "/var/lock", "/var/mail", "/var/spool", "/etc/ssh"]
  /// Files that are never shown, wherever they are declared from.
  private static let refusedFiles = ["/etc/shadow", "/etc/gshadow", "/etc/sudoers"]

  /// Why `path` may not be declared, or nil when it may.
  package static func problem(with path: String) -> String? {
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    guard path.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
      !path.contains("\0")
    else { return "must be an absolute path without '.', '..', '//' or a trailing '/'" }
    func isBelow(_ root: String) -> Bool { path == root || path.hasPrefix(root + "/") }
    guard allowedRoots.contains(where: { isBelow($0) && path != $0 }) else {
      return "must lie below one of \(allowedRoots.joined(separator: ", ")) (system data, not a user's files)"
    }
    if let root = refusedRoots.first(where: isBelow) { return "must not lie below \(root)" }
    if refusedFiles.contains(where: isBelow) { return "is a file no provider may read" }
    return nil
  }
}
