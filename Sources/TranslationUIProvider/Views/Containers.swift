import TranslationViewTree

/// Views made from a collection, as SwiftUI's `ForEach`: each element's view
/// keeps its identity (and its `@State`) by the element's id, not its place.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
  let data: Data
  let id: KeyPath<Data.Element, ID>
  let content: (Data.Element) -> Content

  public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
    self.data = data
    self.id = id
    self.content = content
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    data.flatMap { element in pass.makeNodes(for: content(element), at: "\(path).\(Self.key(element[keyPath: id]))") }
  }

  /// A path component from an id: its description, with the separator escaped.
  private static func key(_ id: ID) -> String {
    "[" + String(describing: id).replacing(".", with: "·") + "]"
  }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
  public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
    self.init(data, id: \.id, content: content)
  }
}

extension ForEach where Data == Range<Int>, ID == Int {
  public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
    self.init(data, id: \.self, content: content)
  }
}

/// Views grouped without a layout of their own, as SwiftUI's `Group`:
/// modifiers applied to it reach each of them.
public struct Group<Content: View>: View, PrimitiveView {
  let content: Content
  public init(@ViewBuilder content: () -> Content) { self.content = content() }
  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] { pass.makeNodes(for: content, at: path) }
}

/// Content that scrolls when it does not fit, as SwiftUI's `ScrollView`
/// (vertical; the terminal popover scrolls the whole scene).
public struct ScrollView<Content: View>: View, PrimitiveView {
  let content: Content
  public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
    self.content = content()
  }
  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    [.scroll(children: pass.makeNodes(for: content, at: path))]
  }
}

/// SwiftUI's axes, for `ScrollView`.
public enum Axis: Sendable {
  case horizontal, vertical
  public struct Set: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let horizontal = Set(rawValue: 1)
    public static let vertical = Set(rawValue: 2)
  }
}

/// A symbol, as SwiftUI's `Image(systemName:)`; hosts draw a readable stand-in.
public struct Image: View, PrimitiveView {
  let systemName: String
  public init(systemName: String) { self.systemName = systemName }
  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] { [.image(systemName: systemName)] }
}
