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
  public func monospaced(_ isActive: Bool = true) -> some View { self }
  public func listStyle(_ style: ListStyleName) -> some View { self }
  public func pickerStyle(_ style: PickerStyleName) -> some View { self }
  public func toggleStyle(_ style: ToggleStyleName) -> some View { self }
  public func navigationBarTitleDisplayMode(_ mode: TitleDisplayMode) -> some View { self }
  /// Keyboard focus: look-only (a host moves focus with its own keys).
  public func focused(_ condition: FocusState<Bool>.Binding) -> some View { self }
  /// Keyboard focus on a value: look-only.
  public func focused<Value: Hashable>(_ binding: FocusState<Value?>.Binding, equals value: Value) -> some View { self }
}

/// SwiftUI's list styles (look-only).
public struct ListStyleName: Sendable {
  public static let automatic = ListStyleName()
  public static let plain = ListStyleName()
  public static let inset = ListStyleName()
  public static let insetGrouped = ListStyleName()
  public static let grouped = ListStyleName()
  public static let sidebar = ListStyleName()
}

/// SwiftUI's picker styles (look-only: every picker is drawn as its options' buttons).
public struct PickerStyleName: Sendable {
  public static let automatic = PickerStyleName()
  public static let menu = PickerStyleName()
  public static let segmented = PickerStyleName()
  public static let inline = PickerStyleName()
  public static let wheel = PickerStyleName()
}

/// SwiftUI's toggle styles (look-only).
public struct ToggleStyleName: Sendable {
  public static let automatic = ToggleStyleName()
  public static let `switch` = ToggleStyleName()
  public static let button = ToggleStyleName()
  public static let checkbox = ToggleStyleName()
}

/// SwiftUI's navigation title display modes (look-only).
public enum TitleDisplayMode: Hashable, Sendable { case automatic, inline, large }

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
