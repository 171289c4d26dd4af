import Testing
import TranslationViewTree

@testable import TerminalPopover

@Suite struct SceneLayoutTests {
  init() { TerminalLocale.prepare() }

  private func text(_ layout: SceneLayout) -> [String] {
    layout.lines.map { String($0.text.reversed().drop { $0 == " " }.reversed()) }
  }

  @Test func laysOutApplesSample() {
    let tree = ViewNode.vstack(
      alignment: "leading", spacing: nil,
      children: [
        .text("Hello, world"),
        .text(""),
        .button(id: "0.2", isEnabled: true, label: .label(title: "Translate", systemImage: "globe")),
        .button(id: "0.3", isEnabled: false, label: .text("Replace With Translation")),
      ])
    let layout = SceneLayout(tree, width: 40, options: LayoutOptions(focus: "0.2"))
    #expect(text(layout) == ["Hello, world", "", "[ 🌐 Translate ]", "[ Replace With Translation ]"])
    #expect(layout.controls.map(\.id) == ["0.2", "0.3"])
    #expect(layout.controls.map(\.isEnabled) == [true, false])
    #expect(layout.lines[2].spans.first?.style.contains(.reverse) == true)
    #expect(layout.lines[3].spans.first?.style.contains(.dim) == true)
  }

  @Test(arguments: [
    ("leading", ["ab", "abcd"]),
    ("center", [" ab", "abcd"]),
    ("trailing", ["  ab", "abcd"]),
  ])
  func alignsStacks(alignment: String, lines: [String]) {
    let layout = SceneLayout(
      .vstack(alignment: alignment, spacing: nil, children: [.text("ab"), .text("abcd")]), width: 4, options: LayoutOptions())
    #expect(text(layout) == lines)
  }

  @Test func putsAnHStackSideBySideAndSpacersPushApart() {
    let layout = SceneLayout(
      .hstack(alignment: "center", spacing: nil, children: [.text("left"), .spacer, .text("right")]), width: 20,
      options: LayoutOptions())
    #expect(text(layout) == ["left           right"])
  }

  @Test func stacksAnHStackThatDoesNotFit() {
    let layout = SceneLayout(
      .hstack(alignment: "top", spacing: nil, children: [.text("a long first part"), .text("second")]), width: 10,
      options: LayoutOptions())
    #expect(text(layout) == ["a long", "first part", "second"])
  }

  @Test func turnsSpacingIntoLines() {
    let layout = SceneLayout(
      .vstack(alignment: "leading", spacing: 32, children: [.text("a"), .text("b")]), width: 10, options: LayoutOptions())
    #expect(text(layout) == ["a", "", "", "b"])
  }

  @Test func showsAFocusedFieldWithItsCaretInView() throws {
    let field = ViewNode.textField(id: "f", placeholder: "Search", text: "abcdefghijklmnop", isEnabled: true)
    let layout = SceneLayout(field, width: 10, options: LayoutOptions(focus: "f", caret: 16))
    #expect(text(layout) == ["hijklmnop"])
    #expect(layout.cursor == CellPosition(line: 0, column: 9))
    let unfocused = SceneLayout(
      .textField(id: "f", placeholder: "Search", text: "", isEnabled: true), width: 10, options: LayoutOptions())
    #expect(text(unfocused) == ["Search"])
    #expect(unfocused.cursor == nil)
  }

  @Test(arguments: [
    (ViewNode.progress(label: "Translating", fraction: nil), 0, "⠋ Translating"),
    (ViewNode.progress(label: "Translating", fraction: nil), 1, "⠙ Translating"),
    (ViewNode.progress(label: nil, fraction: 0.5), 0, "██████████░░░░░░░░░░ 50%"),
    (ViewNode.divider, 0, "──────────────────────────────"),
    (ViewNode.label(title: "Copy", systemImage: "doc.on.doc"), 0, "⧉ Copy"),
    (ViewNode.label(title: "Odd", systemImage: "made.up.symbol"), 0, "[made.up.symbol] Odd"),
  ])
  func drawsPrimitives(node: ViewNode, frame: Int, line: String) {
    let layout = SceneLayout(node, width: 30, options: LayoutOptions(spinnerFrame: frame))
    #expect(text(layout) == [line])
  }

  @Test func drawsASCIIStandInsWithoutUnicode() {
    let tree = ViewNode.vstack(
      alignment: "leading", spacing: nil, children: [.divider, .label(title: "Go", systemImage: "globe")])
    let layout = SceneLayout(tree, width: 12, options: LayoutOptions(unicode: false))
    #expect(text(layout) == ["------------", "(globe) Go"])
  }
}

@Suite struct DeepTreeTests {
  init() { TerminalLocale.prepare() }

  /// Stacks nested as deep as a view tree may be: an HStack measures its
  /// children before placing them, and without memoising that, this tree
  /// would take 2^64 layouts.
  @Test func laysOutNestedStacksOnce() {
    var node = ViewNode.text("leaf")
    for level in 0..<64 {
      node =
        level % 2 == 0
        ? .hstack(alignment: "center", spacing: nil, children: [node, .text("h\(level)")])
        : .vstack(alignment: "leading", spacing: nil, children: [node])
    }
    let layout = SceneLayout(node, width: 40, options: LayoutOptions())
    #expect(layout.lines.map(\.text).joined(separator: "\n").contains("leaf"))
  }
}
