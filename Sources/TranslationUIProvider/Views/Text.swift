import Foundation
import TranslationViewTree

/// Static text, as SwiftUI's `Text`.
public struct Text: View, PrimitiveView {
  let content: String

  /// Text from a string, shown as it is (a literal is a
  /// `LocalizedStringKey`, as in SwiftUI).
  @_disfavoredOverload
  public init(_ content: some StringProtocol) { self.content = String(content) }

  /// Text from a string, shown as it is.
  public init(verbatim content: String) { self.content = content }

  /// Text from a literal, localized: the string for `key` in table
  /// `tableName` of `bundle` (nil: the provider's own bundle), in the
  /// user's language; else the literal as written (`LocalizedStringKey`).
  public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
    content = key.resolved(tableName: tableName, bundle: bundle)
  }

  /// Text from a `LocalizedStringResource`, looked up in the user's language.
  @_disfavoredOverload
  public init(_ resource: LocalizedStringResource) { content = String(localized: resource) }

  /// Text from an attributed string; the characters are shown, attributes are not.
  public init(_ attributedContent: AttributedString) {
    content = String(attributedContent.characters)
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] { [.text(content)] }

  /// Two texts as one, as SwiftUI's `Text + Text`.
  public static func + (lhs: Text, rhs: Text) -> Text { Text(verbatim: lhs.content + rhs.content) }
}

extension String.LocalizationValue.StringInterpolation {
  /// Another text's characters (`%@`), as SwiftUI's `Text` interpolates one.
  public mutating func appendInterpolation(_ text: Text) { appendInterpolation(text.content) }
}
