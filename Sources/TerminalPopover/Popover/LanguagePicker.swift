import Service
import System
import TranslationViewTree

/// Asks for the language of the text when it could not be detected, as
/// Apple's popover does: type to filter, Enter picks the first match.
/// Finishing "with a translation" means a language was chosen: its tag.
final class LanguagePicker: PopoverContent {
  static let filterID = "filter"
  private static let optionPrefix = "language:"

  private let options: [LanguageOption]
  private var filter = ""

  init(options: [LanguageOption]) { self.options = options }

  var redirectsTyping: Bool { true }
  var wantsFullScreen: Bool { false }

  var tree: ViewTree {
    var children: [ViewNode] = [
      .text("The language of the text could not be detected. Which language is it?"),
      .textField(id: Self.filterID, placeholder: "Type to filter", text: filter, isEnabled: true),
    ]
    let matches = self.matches
    if matches.isEmpty {
      children.append(.text("No language matches '\(filter)'."))
    }
    for option in matches {
      children.append(.button(id: Self.optionPrefix + option.tag, isEnabled: true, label: .text(option.title)))
    }
    return ViewTree(root: .vstack(alignment: "leading", spacing: nil, children: children))
  }

  /// The options whose tag or name contains the filter, ignoring case.
  private var matches: [LanguageOption] {
    let wanted = filter.lowercased().trimmingWhitespace()
    guard !wanted.isEmpty else { return options }
    return options.filter { $0.title.lowercased().contains(wanted) }
  }

  func press(_ id: String) throws -> SceneUpdate {
    guard id.hasPrefix(Self.optionPrefix) else { return .view(tree) }
    return .finished(translation: String(id.dropFirst(Self.optionPrefix.count)))
  }

  func edit(_ id: String, text: String) throws -> SceneUpdate {
    filter = text
    return .view(tree)
  }

  func submit(_ id: String) throws -> SceneUpdate? {
    guard let first = matches.first else { return .view(tree) }
    return .finished(translation: first.tag)
  }

  func tick(showing tree: ViewTree) throws -> SceneUpdate? { nil }

  func interrupt() {}
}
