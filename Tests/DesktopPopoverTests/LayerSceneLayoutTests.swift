import Presentation
import Testing

@testable import DesktopPopover

/// The layer surface's layout: boxes, wrapping text, buttons padded around
/// their content, spacers, and what a click hits. Text is measured as 7
/// pixels a character and 17 a line, wrapped at word boundaries.
@Suite struct LayerSceneLayoutTests {
  static func measure(_ text: String, _ style: LayerSceneLayout.TextStyle, _ wrap: Int) -> (width: Int, height: Int) {
    let perLine = max(wrap / 7, 1)
    var lines = 1
    var column = 0
    for word in text.split(separator: " ") {
      let length = word.count
      if column > 0 && column + 1 + length > perLine {
        lines += 1
        column = length
      } else {
        column += (column > 0 ? 1 : 0) + length
      }
    }
    let width = lines > 1 ? perLine * 7 : text.count * 7
    return (min(width, wrap), lines * 17)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var widget: Widget
    var width: Int
    var size: (width: Int, height: Int)
    /// Points that hit a control, with its id (nil: nothing).
    var hits: [(x: Int, y: Int, id: String?)]
    var testDescription: String { name }
  }

  @Test(arguments: [
    Case(
      name: "one short label", widget: .label("Hello", style: .body), width: 420, size: (35, 17),
      hits: [(1, 1, nil)]),
    Case(
      name: "a long label wraps at the width", widget: .label(String(repeating: "word ", count: 30), style: .body),
      width: 140, size: (140, 17 * 8), hits: []),
    Case(
      name: "a button is padded around its label",
      widget: .button(id: "go", isSensitive: true, content: .label("Translate", style: .body)), width: 420,
      size: (63 + 24, 30), hits: [(1, 1, "go"), (86, 29, "go"), (87, 15, nil)]),
    Case(
      name: "a column of a label and two buttons",
      widget: .box(
        .vertical, spacing: 8, alignment: .start,
        children: [
          .label("Hola", style: .body),
          .button(id: "a", isSensitive: true, content: .label("Translate", style: .body)),
          .button(id: "b", isSensitive: false, content: .label("Replace", style: .body)),
        ]), width: 420, size: (87, 17 + 8 + 30 + 8 + 30), hits: [(5, 30, "a"), (5, 70, "b"), (5, 5, nil)]),
    Case(
      name: "a row with a spacer takes the width, its last button at the end",
      widget: .box(
        .horizontal, spacing: 8, alignment: .center,
        children: [
          .label("Title", style: .title), .spacer, .button(id: "x", isSensitive: true, content: .label("OK", style: .body)),
        ]), width: 300, size: (300, 30), hits: [(299, 15, "x"), (200, 15, nil)]),
    Case(
      name: "a field fills the width",
      widget: .entry(id: "f", placeholder: "Type", text: "", isSensitive: true), width: 300,
      size: (300, LayerSceneLayout.fieldHeight), hits: [(150, 10, "f")]),
    Case(
      name: "margins of a style move the content",
      widget: .styled(
        WidgetStyle(margins: [10, 20, 10, 20]), .button(id: "m", isSensitive: true, content: .label("M", style: .body))),
      width: 300, size: (7 + 24 + 40, 30 + 20), hits: [(5, 5, nil), (25, 15, "m")]),
  ])
  func layout(_ test: Case) {
    let layout = LayerSceneLayout.layout(test.widget, width: test.width, measure: Self.measure)
    #expect(layout.width == test.size.width)
    #expect(layout.height == test.size.height)
    for hit in test.hits {
      #expect(layout.control(atX: hit.x, y: hit.y)?.id == hit.id, "at \(hit.x), \(hit.y)")
    }
  }

  /// A disabled button is hit but says so; offsetting moves every frame.
  @Test func offsetMovesControlsAndDisabledOnesSaySo() {
    let widget = Widget.button(id: "b", isSensitive: false, content: .label("Replace", style: .body))
    let layout = LayerSceneLayout.layout(widget, width: 420, measure: Self.measure).offset(by: 100, 50)
    #expect(layout.control(atX: 101, y: 51)?.isEnabled == false)
    #expect(layout.control(atX: 99, y: 51) == nil)
    #expect(layout.frame(of: "b") == ScreenRect(x: 100, y: 50, width: 49 + 24, height: 30))
  }
}
