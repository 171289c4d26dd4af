import Glibc
import Synchronization

/// The password database (`getpwent`, through NSS: files, LDAP, systemd's
/// users alike), read as a whole.
package enum UserDatabase {
  /// `getpwent` keeps its place in process-wide state: one reader at a time.
  private static let lock = Mutex<Void>(())

  /// Every user's home folder, as the database spells it, without duplicates.
  package static func homeFolders() -> [String] {
    lock.withLock { _ in
      var homes: [String] = []
      var seen: Set<String> = []
      setpwent()
      defer { endpwent() }
      while let entry = getpwent() {
        guard let directory = entry.pointee.pw_dir else { continue }
        let home = String(cString: directory)
        if seen.insert(home).inserted { homes.append(home) }
      }
      return homes
    }
  }
}
