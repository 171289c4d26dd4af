import Testing
import TranslationViewTree

@testable import DesktopPopover

/// View trees mapped to GTK widgets, without a display.
@Suite struct WidgetPlanTests {
  @Test(arguments: [
    (ViewNode.text("Hola"), Widget.label("Hola", style: .body)),
    (
      .vstack(alignment: "leading", spacing: 4, children: [.text("a"), .divider, .spacer]),
      .box(.vertical, spacing: 4, alignment: .start, children: [.label("a", style: .body), .separator(.horizontal), .spacer])
    ),
    (
      .hstack(alignment: "bottom", spacing: nil, children: [.text("a"), .divider]),
      .box(.horizontal, spacing: 8, alignment: .end, children: [.label("a", style: .body), .separator(.vertical)])
    ),
    (
      .button(id: "go", isEnabled: false, label: .label(title: "Translate", systemImage: "globe")),
      .button(
        id: "go", isSensitive: false,
        content: .iconLabel(iconName: "applications-internet-symbolic", title: "Translate"))
    ),
    (
      .label(title: "Odd", systemImage: "no.such.symbol"), .iconLabel(iconName: nil, title: "Odd")
    ),
    (
      .textField(id: "q", placeholder: "Search", text: "abc", isEnabled: true),
      .entry(id: "q", placeholder: "Search", text: "abc", isSensitive: true)
    ),
    (.progress(label: "Translating…", fraction: nil), .progress(label: "Translating…", fraction: nil)),
    (.progress(label: nil, fraction: 1.7), .progress(label: nil, fraction: 1)),
    (.progress(label: nil, fraction: -3), .progress(label: nil, fraction: 0)),
    (
      .vstack(alignment: "center", spacing: -5, children: []),
      .box(.vertical, spacing: 0, alignment: .center, children: [])
    ),
    (
      .vstack(alignment: "sideways", spacing: 1e9, children: []),
      .box(.vertical, spacing: 64, alignment: .center, children: [])
    ),
    (
      .vstack(alignment: "leading", spacing: .nan, children: []),
      .box(.vertical, spacing: 8, alignment: .start, children: [])
    ),
    (.image(systemName: "globe"), .image(iconName: "applications-internet-symbolic", systemName: "globe")),
    (.image(systemName: "odd.symbol"), .image(iconName: nil, systemName: "odd.symbol")),
    (
      .scroll(children: [.text("a")]),
      .box(.vertical, spacing: 8, alignment: .start, children: [.label("a", style: .body)])
    ),
    (
      .unknown(type: "chart", children: [.text("a")]),
      .box(.vertical, spacing: 8, alignment: .start, children: [.label("a", style: .body)])
    ),
    (.unknown(type: "map", children: []), .box(.vertical, spacing: 8, alignment: .start, children: [])),
  ])
  func mapsEachNode(node: ViewNode, widget: Widget) {
    #expect(WidgetPlan.widget(for: node) == widget)
  }

  @Test(arguments: [
    (ViewStyle.make(font: "headline", bold: true), WidgetStyle(classes: ["th-font-headline", "th-bold"])),
    (ViewStyle.make(font: "no-such-font", foregroundStyle: "secondary"), WidgetStyle(classes: ["dim-label"])),
    (ViewStyle.make(foregroundStyle: "blue", maxWidth: .infinity), WidgetStyle(classes: ["th-color-blue"], fillsWidth: true)),
    (ViewStyle.make(foregroundStyle: "url(evil)"), WidgetStyle()),
    (
      ViewStyle.make(padding: .init(top: 4, leading: -3, bottom: .nan, trailing: 1e9)),
      WidgetStyle(margins: [4, 0, 0, 64])
    ),
  ])
  func stylesBecomeMarginsAndClasses(style: ViewStyle, expected: WidgetStyle) {
    #expect(WidgetPlan.widget(for: .styled(style, .text("a"))) == .styled(expected, .label("a", style: .body)))
  }

  @Test func focusFollowsTheOrderOfEnabledControls() {
    let tree = ViewNode.vstack(
      alignment: "leading", spacing: nil,
      children: [
        .textField(id: "field", placeholder: "", text: "", isEnabled: true),
        .hstack(
          alignment: "center", spacing: nil,
          children: [
            .button(id: "off", isEnabled: false, label: .text("Off")),
            .button(id: "on", isEnabled: true, label: .text("On")),
          ]),
        .textField(id: "locked", placeholder: "", text: "", isEnabled: false),
      ])
    #expect(WidgetPlan.widget(for: tree).focusableIDs == ["field", "on"])
  }

  @Test(arguments: [
    ("star.fill", "starred-symbolic"), ("globe.fill", "applications-internet-symbolic"),
    ("globe", "applications-internet-symbolic"),
    ("doc.on.doc", "edit-copy-symbolic"),
  ])
  func symbolsMapToIconNames(symbol: String, icon: String) {
    #expect(SymbolIcon.name(for: symbol) == icon)
  }

  @Test(arguments: ["", "unknown.symbol", "../../etc/passwd", ".fill"])
  func unknownSymbolsGetNoIcon(symbol: String) {
    #expect(SymbolIcon.name(for: symbol) == nil)
  }
}

extension ViewStyle {
  fileprivate static func make(
    padding: Insets? = nil, font: String? = nil, bold: Bool? = nil, foregroundStyle: String? = nil, maxWidth: Double? = nil
  ) -> ViewStyle {
    var style = ViewStyle()
    style.padding = padding
    style.font = font
    style.bold = bold
    style.foregroundStyle = foregroundStyle
    style.maxWidth = maxWidth
    return style
  }
}
