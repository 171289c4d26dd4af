import Service
import System
import TranslationViewTree

/// Asks for the language of the text when it could not be detected, as
/// Apple's popover does: type to filter, Enter picks the first match.
/// Finishing "with a translation" means a language was chosen: its tag.
package final class LanguagePicker: PopoverContent {
  package static let filterID = "filter"
  private static let optionPrefix = "language:"

  private let options: [LanguageOption]
  private var filter = ""

  package init(options: [LanguageOption]) { self.options = options }

  package var redirectsTyping: Bool { true }
  package var wantsFullScreen: Bool { false }

  package var tree: ViewTree {
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

  package func press(_ id: String) throws -> SceneUpdate {
    guard id.hasPrefix(Self.optionPrefix) else { return .view(tree) }
    return .finished(translation: String(id.dropFirst(Self.optionPrefix.count)))
  }

  package func edit(_ id: String, text: String) throws -> SceneUpdate {
    filter = text
    return .view(tree)
  }

  package func submit(_ id: String) throws -> SceneUpdate? {
    guard let first = matches.first else { return .view(tree) }
    return .finished(translation: first.tag)
  }

  package var changesOnItsOwn: Bool { false }
  package var busyLimit: Duration? { nil }

  package func takeChange() throws -> SceneUpdate? { nil }

  /// Never called: the picker does not change on its own.
  package func watchChanges() throws -> FileDescriptor {
    preconditionFailure("the language picker has no changes to watch")
  }

  package func stillBusy(showing tree: ViewTree) -> any Error {
    preconditionFailure("the language picker never shows progress")
  }

  package func interrupt() {}
}
