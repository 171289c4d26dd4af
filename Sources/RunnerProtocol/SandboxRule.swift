/// A sandbox rule a manifest declares: its key, what it grants in words (for
/// `info`, `validate` and `install`), and its wire form, in which the host
/// hands it to the runner inside `SandboxPolicy`. The check of what a
/// manifest may declare lives with the rule.
package protocol SandboxRule: WireCodable, Equatable, Sendable {
  /// The Info.plist key.
  static var manifestKey: String { get }
  /// What the rule lets the provider do beyond the default sandbox, in one
  /// line; nil when it grants nothing.
  var grant: String? { get }
}
