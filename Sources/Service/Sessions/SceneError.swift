import System

/// A scripted press that cannot be carried out.
package enum SceneError: HostErrorConvertible, Equatable {
  /// No button has this label; `available` lists the buttons there are, quoted.
  case noSuchButton(String, available: [String])
  /// The button exists but is disabled.
  case buttonDisabled(String, available: [String])
  /// The provider has no selected-text scene to script.
  case noScene(provider: String)

  package var description: String {
    switch self {
    case .noSuchButton(let label, let available):
      "no button '\(label)' in the scene; its buttons are \(Self.list(available))"
    case .buttonDisabled(let label, let available):
      "button '\(label)' is disabled; its buttons are \(Self.list(available))"
    case .noScene(let provider):
      "provider '\(provider)' has no selected-text scene to press buttons in"
    }
  }

  package var hostError: HostError {
    if case .noScene = self { return HostError(.usage, description) }
    return HostError(.noSuchControl, description)
  }

  private static func list(_ labels: [String]) -> String {
    labels.isEmpty ? "none" : labels.joined(separator: ", ")
  }
}
