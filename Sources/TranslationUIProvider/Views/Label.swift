import TranslationViewTree

/// A title with an icon, as SwiftUI's `Label`.
///
/// The host draws `systemImage` (an SF Symbols name) as a readable stand-in.
public struct Label: View, PrimitiveView {
  let title: String
  let systemImage: String?

  /// A label with a title and a symbol name such as `"globe"`.
  @_disfavoredOverload
  public init(_ title: some StringProtocol, systemImage: String) {
    self.title = String(title)
    self.systemImage = systemImage
  }

  /// A label whose title is a literal, localized as `Text`'s.
  public init(_ titleKey: LocalizedStringKey, systemImage: String) {
    self.title = titleKey.resolved(tableName: nil, bundle: nil)
    self.systemImage = systemImage
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    [.label(title: title, systemImage: systemImage)]
  }
}
