/// Modifiers that change only how a view looks, which iOS extensions use
/// and no host here draws yet: they compile and leave the view as it is,
/// rather than break a port's build. (Modifiers that change what a person
/// can do are never in this list.)
extension View {
  public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { self }
  public func lineLimit(_ number: Int?) -> some View { self }
  public func textSelection(_ selectability: TextSelectability) -> some View { self }
  public func opacity(_ opacity: Double) -> some View { self }
  public func cornerRadius(_ radius: Double) -> some View { self }
  public func background(_ style: some ShapeStyle) -> some View { self }
  public func tint(_ tint: Color?) -> some View { self }
  public func fixedSize(horizontal: Bool = true, vertical: Bool = true) -> some View { self }
  public func layoutPriority(_ value: Double) -> some View { self }
  public func buttonStyle(_ style: ButtonStyleName) -> some View { self }
  public func controlSize(_ size: ControlSize) -> some View { self }
  public func labelStyle(_ style: LabelStyleName) -> some View { self }
  public func imageScale(_ scale: ImageScale) -> some View { self }
  public func navigationTitle(_ title: some StringProtocol) -> some View { self }
  public func accessibilityLabel(_ label: some StringProtocol) -> some View { self }
}

/// How lines of text align, as SwiftUI's `TextAlignment`.
public enum TextAlignment: Hashable, Sendable { case leading, center, trailing }
/// Whether text can be selected, as SwiftUI's `.textSelection(.enabled)`.
public struct TextSelectability: Sendable {
  public static let enabled = TextSelectability()
  public static let disabled = TextSelectability()
}
/// SwiftUI's button styles, by name.
public struct ButtonStyleName: Sendable {
  public static let automatic = ButtonStyleName()
  public static let bordered = ButtonStyleName()
  public static let borderedProminent = ButtonStyleName()
  public static let borderless = ButtonStyleName()
  public static let plain = ButtonStyleName()
}
/// SwiftUI's label styles, by name.
public struct LabelStyleName: Sendable {
  public static let automatic = LabelStyleName()
  public static let iconOnly = LabelStyleName()
  public static let titleOnly = LabelStyleName()
  public static let titleAndIcon = LabelStyleName()
}
/// SwiftUI's control sizes.
public enum ControlSize: Hashable, Sendable { case mini, small, regular, large, extraLarge }
/// SwiftUI's image scales.
public enum ImageScale: Hashable, Sendable { case small, medium, large }
