import System

/// Whether a bundle may act as the provider its manifest names: an
/// identifier belongs to one bundle, the first in search order that
/// declares it, and with it the user's settings, secrets and the container.
package enum IdentityClaim: Equatable, Sendable {
  /// The bundle is the first in the search path that declares its identifier.
  case owner
  /// No bundle in the search path declares the identifier: a bundle outside
  /// it (an author's build folder) may use it.
  case unclaimed
  /// Another bundle, at this path, holds the identifier.
  case heldBy(String)

  /// The claim of the bundle at `path` to `identifier` in `snapshot`.
  package init(identifier: String, path: String, in snapshot: RegistrySnapshot) {
    guard let owner = snapshot.entries.first(where: { $0.identifier == identifier && $0.shadowedBy == nil }) else {
      self = .unclaimed
      return
    }
    self = Self.samePlace(owner.path, path) ? .owner : .heldBy(owner.path)
  }

  /// Whether two spellings name one folder: compared with links, `.` and `..` resolved.
  static func samePlace(_ first: String, _ second: String) -> Bool {
    let one = Syscalls.realPath(first) ?? SearchPath.normalized(first)
    let other = Syscalls.realPath(second) ?? SearchPath.normalized(second)
    return one == other
  }

  /// Whether the bundle gets the identifier's settings, secrets and container.
  package var grantsIdentity: Bool {
    switch self {
    case .owner, .unclaimed: true
    case .heldBy: false
    }
  }
}
