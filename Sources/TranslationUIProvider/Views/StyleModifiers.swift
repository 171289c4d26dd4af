import TranslationViewTree

/// The edges of a view, as SwiftUI's `Edge.Set`.
public struct EdgeSet: OptionSet, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let top = EdgeSet(rawValue: 1)
  public static let leading = EdgeSet(rawValue: 2)
  public static let bottom = EdgeSet(rawValue: 4)
  public static let trailing = EdgeSet(rawValue: 8)
  public static let horizontal: EdgeSet = [.leading, .trailing]
  public static let vertical: EdgeSet = [.top, .bottom]
  public static let all: EdgeSet = [.top, .leading, .bottom, .trailing]
}

/// SwiftUI's namespace for edges; `Edge.Set` is what `.padding` takes.
public enum Edge: Sendable {
  public typealias Set = EdgeSet
}

/// A text style, as SwiftUI's `Font`: the text styles, and `.bold()` on them.
public struct Font: Hashable, Sendable {
  let name: String
  var isBold = false
  public static let largeTitle = Font(name: "largeTitle")
  public static let title = Font(name: "title")
  public static let title2 = Font(name: "title2")
  public static let title3 = Font(name: "title3")
  public static let headline = Font(name: "headline")
  public static let subheadline = Font(name: "subheadline")
  public static let body = Font(name: "body")
  public static let callout = Font(name: "callout")
  public static let footnote = Font(name: "footnote")
  public static let caption = Font(name: "caption")
  public static let caption2 = Font(name: "caption2")
  /// A system font of a size; hosts draw it as the text style nearest to it.
  public static func system(size: Double) -> Font {
    Font(name: size >= 28 ? "title" : size >= 20 ? "title3" : size >= 17 ? "body" : size >= 13 ? "footnote" : "caption")
  }
  public func bold() -> Font {
    var font = self
    font.isBold = true
    return font
  }
  /// The font with a weight: semibold and heavier are drawn bold.
  public func weight(_ weight: Weight) -> Font {
    var font = self
    font.isBold = weight.isBold
    return font
  }
  /// The font's monospaced variant: look-only (hosts draw text in their own font).
  public func monospaced() -> Font { self }
  /// Monospaced digits: look-only.
  public func monospacedDigit() -> Font { self }
  /// The font's italic variant (as `.italic()` on a view).
  public func italic() -> Font { self }

  /// SwiftUI's font weights.
  public struct Weight: Hashable, Sendable {
    let value: Int
    public static let ultraLight = Weight(value: 100)
    public static let thin = Weight(value: 200)
    public static let light = Weight(value: 300)
    public static let regular = Weight(value: 400)
    public static let medium = Weight(value: 500)
    public static let semibold = Weight(value: 600)
    public static let bold = Weight(value: 700)
    public static let heavy = Weight(value: 800)
    public static let black = Weight(value: 900)
    var isBold: Bool { value >= 600 }
  }
}

/// What fills text, as SwiftUI's `ShapeStyle`: the hierarchical styles and colours.
public protocol ShapeStyle: Sendable {
  var styleName: String { get }
}

/// A hierarchical style, as SwiftUI's `HierarchicalShapeStyle`.
public struct HierarchicalShapeStyle: ShapeStyle {
  public let styleName: String
  public static let primary = HierarchicalShapeStyle(styleName: "primary")
  public static let secondary = HierarchicalShapeStyle(styleName: "secondary")
  public static let tertiary = HierarchicalShapeStyle(styleName: "tertiary")
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
  public static var primary: HierarchicalShapeStyle { .primary }
  public static var secondary: HierarchicalShapeStyle { .secondary }
  public static var tertiary: HierarchicalShapeStyle { .tertiary }
}

/// A colour by name, as SwiftUI's `Color`.
public struct Color: ShapeStyle, Hashable {
  public let styleName: String
  public static let red = Color(styleName: "red")
  public static let orange = Color(styleName: "orange")
  public static let yellow = Color(styleName: "yellow")
  public static let green = Color(styleName: "green")
  public static let mint = Color(styleName: "mint")
  public static let teal = Color(styleName: "teal")
  public static let cyan = Color(styleName: "cyan")
  public static let blue = Color(styleName: "blue")
  public static let indigo = Color(styleName: "indigo")
  public static let purple = Color(styleName: "purple")
  public static let pink = Color(styleName: "pink")
  public static let brown = Color(styleName: "brown")
  public static let gray = Color(styleName: "gray")
  public static let black = Color(styleName: "black")
  public static let white = Color(styleName: "white")
  public static let clear = Color(styleName: "clear")
  // swift-format-ignore: DontRepeatTypeInStaticProperties
  // (SwiftUI's name.)
  public static let accentColor = Color(styleName: "accentColor")
  public static let primary = Color(styleName: "primary")
  public static let secondary = Color(styleName: "secondary")
}

// Every colour as a `ShapeStyle` member, so that `.background(.yellow)` and
// `.foregroundStyle(.mint)` compile as in SwiftUI.
extension ShapeStyle where Self == Color {
  public static var red: Color { Color.red }
  public static var orange: Color { Color.orange }
  public static var yellow: Color { Color.yellow }
  public static var green: Color { Color.green }
  public static var mint: Color { Color.mint }
  public static var teal: Color { Color.teal }
  public static var cyan: Color { Color.cyan }
  public static var blue: Color { Color.blue }
  public static var indigo: Color { Color.indigo }
  public static var purple: Color { Color.purple }
  public static var pink: Color { Color.pink }
  public static var brown: Color { Color.brown }
  public static var gray: Color { Color.gray }
  public static var black: Color { Color.black }
  public static var white: Color { Color.white }
  public static var clear: Color { Color.clear }
  public static var accentColor: Color { Color.accentColor }
}

extension View {
  /// Space around the view, in points, as SwiftUI's `.padding`. Hosts turn
  /// points into their units (the terminal: 16 points a line, 8 a column).
  public func padding(_ edges: Edge.Set = .all, _ length: Double? = nil) -> some View {
    let value = length ?? 16
    var style = ViewStyle()
    style.padding = ViewStyle.Insets(
      top: edges.contains(.top) ? value : 0, leading: edges.contains(.leading) ? value : 0,
      bottom: edges.contains(.bottom) ? value : 0, trailing: edges.contains(.trailing) ? value : 0)
    return StyledView(content: self, style: style)
  }

  /// The same padding on every edge.
  public func padding(_ length: Double) -> some View { padding(.all, length) }

  /// The text style of text in this view, as SwiftUI's `.font`.
  public func font(_ font: Font?) -> some View {
    var style = ViewStyle()
    style.font = font?.name
    if font?.isBold == true { style.bold = true }
    return StyledView(content: self, style: style)
  }

  /// Bold text, as SwiftUI's `.bold()`.
  /// A font weight, as SwiftUI's `.fontWeight`: semibold and heavier are bold.
  public func fontWeight(_ weight: Font.Weight?) -> some View {
    bold(weight?.isBold ?? false)
  }

  public func bold(_ isActive: Bool = true) -> some View {
    var style = ViewStyle()
    style.bold = isActive
    return StyledView(content: self, style: style)
  }

  /// Italic text, as SwiftUI's `.italic()`.
  public func italic(_ isActive: Bool = true) -> some View {
    var style = ViewStyle()
    style.italic = isActive
    return StyledView(content: self, style: style)
  }

  /// What fills the text of this view, as SwiftUI's `.foregroundStyle`.
  public func foregroundStyle(_ fill: some ShapeStyle) -> some View {
    var style = ViewStyle()
    style.foregroundStyle = fill.styleName
    return StyledView(content: self, style: style)
  }

  /// The older name of `.foregroundStyle` for colours.
  public func foregroundColor(_ color: Color?) -> some View {
    var style = ViewStyle()
    style.foregroundStyle = color?.styleName
    return StyledView(content: self, style: style)
  }

  /// The largest size the view takes, as SwiftUI's `.frame(maxWidth:maxHeight:alignment:)`;
  /// `.infinity` takes all that is offered.
  public func frame(
    minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil,
    idealHeight: Double? = nil, maxHeight: Double? = nil, alignment: Alignment = .center
  ) -> some View {
    var style = ViewStyle()
    style.maxWidth = maxWidth
    style.maxHeight = maxHeight
    return StyledView(content: self, style: style)
  }

  /// A fixed size; hosts that lay out text by its content ignore it.
  public func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment = .center) -> some View {
    self
  }
}

/// Where a view sits in its frame, as SwiftUI's `Alignment`.
public struct Alignment: Equatable, Sendable {
  let name: String
  public static let leading = Alignment(name: "leading")
  public static let center = Alignment(name: "center")
  public static let trailing = Alignment(name: "trailing")
  public static let top = Alignment(name: "top")
  public static let bottom = Alignment(name: "bottom")
  public static let topLeading = Alignment(name: "topLeading")
  public static let topTrailing = Alignment(name: "topTrailing")
  public static let bottomLeading = Alignment(name: "bottomLeading")
  public static let bottomTrailing = Alignment(name: "bottomTrailing")
}

/// A view with a look applied: every node its content draws gets the style
/// (a `Group`'s children each get it, as in SwiftUI).
struct StyledView<Content: View>: View, PrimitiveView {
  let content: Content
  let style: ViewStyle

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    pass.makeNodes(for: content, at: path).map { node in
      if case .styled(let inner, let node) = node { return .styled(inner.merged(into: style), node) }
      return .styled(style, node)
    }
  }
}
