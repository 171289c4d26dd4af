import TranslationViewTree

/// Rows, as SwiftUI's `List`: drawn as a vertical stack (hosts have no
/// separate list look).
public struct List<Content: View>: View, PrimitiveView {
  let content: Content
  public init(@ViewBuilder content: () -> Content) { self.content = content() }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    [.vstack(alignment: "leading", spacing: nil, children: pass.makeNodes(for: content, at: path))]
  }
}

extension List {
  /// A row per element, as `List(data) { … }`.
  public init<Data: RandomAccessCollection, RowContent: View>(
    _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
  ) where Data.Element: Identifiable, Content == ForEach<Data, Data.Element.ID, RowContent> {
    content = ForEach(data, content: rowContent)
  }
}

/// A group of rows with a header and a footer, as SwiftUI's `Section`:
/// the header's text, the rows, the footer's text, top to bottom.
public struct Section<Content: View>: View, PrimitiveView {
  let header: (any View)?
  let footer: (any View)?
  let content: Content

  public init(@ViewBuilder content: () -> Content) {
    header = nil
    footer = nil
    self.content = content()
  }

  public init(_ title: some StringProtocol, @ViewBuilder content: () -> Content) {
    header = Text(title).font(.headline)
    footer = nil
    self.content = content()
  }

  public init(
    @ViewBuilder content: () -> Content, @ViewBuilder header: () -> some View, @ViewBuilder footer: () -> some View
  ) {
    self.header = header()
    self.footer = footer()
    self.content = content()
  }

  public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> some View) {
    self.header = header()
    footer = nil
    self.content = content()
  }

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    var children: [ViewNode] = []
    if let header { children += pass.makeNodes(for: header, at: "\(path).header") }
    children += pass.makeNodes(for: content, at: path)
    if let footer { children += pass.makeNodes(for: footer, at: "\(path).footer") }
    return [.vstack(alignment: "leading", spacing: nil, children: children)]
  }
}

/// A navigation container, as SwiftUI's `NavigationStack`: a popover shows
/// one screen, so it draws its root view (and the toolbar items put on it).
public struct NavigationStack<Content: View>: View, PrimitiveView {
  let content: Content
  public init(@ViewBuilder root: () -> Content) { content = root() }
  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] { pass.makeNodes(for: content, at: path) }
}

/// `NavigationView`, SwiftUI's older name for a navigation container.
public typealias NavigationView = NavigationStack

/// Where a toolbar item goes, as SwiftUI's `ToolbarItemPlacement` (hosts
/// draw every item in one row below the content).
public struct ToolbarItemPlacement: Sendable {
  public static let automatic = ToolbarItemPlacement()
  public static let cancellationAction = ToolbarItemPlacement()
  public static let confirmationAction = ToolbarItemPlacement()
  public static let primaryAction = ToolbarItemPlacement()
  public static let principal = ToolbarItemPlacement()
  public static let topBarLeading = ToolbarItemPlacement()
  public static let topBarTrailing = ToolbarItemPlacement()
  public static let bottomBar = ToolbarItemPlacement()
}

/// One toolbar item, as SwiftUI's `ToolbarItem`.
public struct ToolbarItem<Content: View>: View, PrimitiveView {
  let content: Content
  public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
    self.content = content()
  }
  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] { pass.makeNodes(for: content, at: path) }
}

/// A view with toolbar items: the content, then a row with the items (their
/// buttons work as anywhere else).
struct ToolbarView<Content: View, Items: View>: View, PrimitiveView {
  let content: Content
  let items: Items

  func makeNodes(in pass: RenderPass, at path: String) -> [ViewNode] {
    let content = pass.makeNodes(for: content, at: path)
    let items = pass.makeNodes(for: items, at: "\(path).toolbar")
    guard !items.isEmpty else { return content }
    return [
      .vstack(
        alignment: "leading", spacing: nil, children: content + [.hstack(alignment: "center", spacing: nil, children: items)]
      )
    ]
  }
}

extension View {
  /// Toolbar items, as SwiftUI's `.toolbar { ToolbarItem { … } }`: drawn in a
  /// row below the view.
  public func toolbar(@ViewBuilder content: () -> some View) -> some View {
    ToolbarView(content: self, items: content())
  }
}
