extension ViewTree {
  /// A button as a person sees it: its visible label and whether it can be pressed.
  package struct ButtonControl: Equatable, Sendable {
    package var id: String
    package var label: String
    package var isEnabled: Bool
  }

  /// Every button in the tree, in reading order.
  package var buttons: [ButtonControl] {
    var found: [ButtonControl] = []
    root.forEach { node in
      if case .button(let id, let isEnabled, let label) = node {
        found.append(ButtonControl(id: id, label: label.visibleText, isEnabled: isEnabled))
      }
    }
    return found
  }

  /// A text field: its id, what it holds, and whether it can be edited.
  package struct FieldControl: Equatable, Sendable {
    package var id: String
    package var text: String
    package var isEnabled: Bool
  }

  /// Every text field in the tree, in reading order.
  package var textFields: [FieldControl] {
    var found: [FieldControl] = []
    root.forEach { node in
      if case .textField(let id, _, let text, let isEnabled) = node {
        found.append(FieldControl(id: id, text: text, isEnabled: isEnabled))
      }
    }
    return found
  }

  /// Whether the tree shows work in progress (a `ProgressView`).
  package var isBusy: Bool {
    var busy = false
    root.forEach { if case .progress = $0 { busy = true } }
    return busy
  }
}
