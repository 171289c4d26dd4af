import FoundationEssentials
import Testing

@testable import TranslationViewTree

@Suite struct ViewTreeTests {
  private let sample = ViewTree(
    root: .vstack(
      alignment: "leading", spacing: 4,
      children: [
        .text("Hallo"),
        .button(id: "0.1", isEnabled: true, label: .label(title: "Translate", systemImage: "globe")),
        .textField(id: "0.2", placeholder: "Target", text: "es", isEnabled: false),
        .hstack(alignment: "top", spacing: nil, children: [.spacer, .divider, .progress(label: "Working", fraction: 0.5)]),
      ]))

  @Test func roundTripsThroughJSON() throws {
    let json = try sample.jsonData()
    #expect(try ViewTree.decode(json) == sample)
  }

  @Test func encodesTheDocumentedSchema() throws {
    let json = String(
      decoding: try ViewTree(root: .button(id: "b", isEnabled: false, label: .text("Go"))).jsonData(), as: UTF8.self)
    #expect(json == #"{"root":{"enabled":false,"id":"b","label":{"text":"Go","type":"text"},"type":"button"},"version":1}"#)
  }

  @Test func appliesDefaultsForOptionalKeys() throws {
    let tree = try ViewTree.decode(
      Array(
        #"{"version":1,"root":{"type":"vstack","children":[{"type":"button","id":"x","label":{"type":"text","text":"Go"}}]}}"#
          .utf8))
    #expect(
      tree.root == .vstack(alignment: "center", spacing: nil, children: [.button(id: "x", isEnabled: true, label: .text("Go"))]))
  }

  @Test func visibleTextJoinsWhatAPersonSees() {
    #expect(sample.root.visibleText == "Hallo Translate es Working")
  }

  struct BadTree: Sendable, CustomTestStringConvertible {
    var json: String
    var expected: ViewTreeError
    var testDescription: String { expected.description }
  }

  static let badTrees: [BadTree] = [
    BadTree(json: #"{"version":2,"root":{"type":"spacer"}}"#, expected: .unsupportedVersion(2)),
    BadTree(
      json: #"{"version":1,"root":{"type":"vstack","alignment":"top","children":[]}}"#,
      expected: .malformed(path: "root", reason: "alignment 'top' is not one of center, leading, trailing")),
    BadTree(
      json: #"{"version":1,"root":{"type":"hstack","spacing":-1,"children":[]}}"#,
      expected: .malformed(path: "root", reason: "spacing -1.0 is not a finite, non-negative number of points")),
    BadTree(
      json:
        #"{"version":1,"root":{"type":"vstack","children":[{"type":"button","id":"a","label":{"type":"spacer"}},{"type":"textField","id":"a","text":""}]}}"#,
      expected: .duplicateID("a", path: "root.1")),
    BadTree(
      json: #"{"version":1,"root":{"type":"button","id":"","label":{"type":"spacer"}}}"#,
      expected: .malformed(path: "root", reason: "a control has an empty id")),
    BadTree(
      json: #"{"version":1,"root":{"type":"progress","fraction":1.5}}"#,
      expected: .malformed(path: "root", reason: "progress fraction 1.5 is outside 0...1")),
    BadTree(json: #"{"version":1,"root":{"type":"text"}}"#, expected: .malformed(path: "root", reason: "missing key 'text'")),
    // Decoding and checking name a node the same way: its position, never the `children` key.
    BadTree(
      json: #"{"version":1,"root":{"type":"vstack","children":[{"type":"spacer"},{"type":"text"}]}}"#,
      expected: .malformed(path: "root.1", reason: "missing key 'text'")),
    BadTree(
      json:
        #"{"version":1,"root":{"type":"vstack","children":[{"type":"text","text":"a","style":{"padding":{"top":-1,"leading":0,"bottom":0,"trailing":0}}}]}}"#,
      expected: .malformed(path: "root.0", reason: "padding -1.0 is not a finite, non-negative number of points")),
    // A provider that forgot to escape the input text: the byte, and the bytes around it.
    BadTree(
      json: "{\"version\":1,\"root\":{\"type\":\"text\",\"text\":\"say \"hi\"\"}}",
      expected: .invalidJSON(offset: 48, snippet: #"'"text","text":"say "hi""}}'"#, reason: "expected ',' or '}' in an object")),
    BadTree(
      json: "{\"version\":1,\"root\":{\"type\":\"text\",\"text\":\"two\nlines\"}}",
      expected: .invalidJSON(
        offset: 46, snippet: #"'":"text","text":"two\u{a}lines"}}'"#, reason: "unescaped newline in a string")),
  ]

  @Test(arguments: badTrees) func refusesMalformedTrees(_ bad: BadTree) {
    #expect(throws: bad.expected) { try ViewTree.decode(Array(bad.json.utf8)) }
  }

  @Test(arguments: ["", "null", "[]", #"{"version":1}"#, "{\"version\":1,\"root\":"])
  func refusesDocumentsThatAreNotTrees(_ json: String) {
    #expect(throws: ViewTreeError.self) { try ViewTree.decode(Array(json.utf8)) }
  }

  /// Node types of a later minor are drawn as their children (none here),
  /// not refused: a provider built against a newer header still shows.
  @Test func unknownNodeTypesAreKeptAsNothing() throws {
    let tree = try ViewTree.decode(
      Array(#"{"version":1,"root":{"type":"vstack","children":[{"type":"marquee"},{"type":"text","text":"a"}]}}"#.utf8))
    #expect(tree.root.children == [.unknown(type: "marquee", children: []), .text("a")])
    #expect(tree.root.visibleText == "a")
  }

  /// Styles, scroll regions and images (ABI 2.0) round-trip, the style as a key beside the node's own.
  @Test func stylesScrollsAndImagesRoundTrip() throws {
    var style = ViewStyle()
    style.padding = .init(top: 8, leading: 16, bottom: 8, trailing: 16)
    style.font = "headline"
    style.maxWidth = .infinity
    let tree = ViewTree(
      root: .scroll(children: [.styled(style, .text("Hola")), .image(systemName: "globe")]))
    let json = String(decoding: try tree.jsonData(), as: UTF8.self)
    #expect(json.contains(#"{"style":{"font":"headline","maxWidth":"infinity","padding":{"#))
    #expect(json.contains(#""text":"Hola","type":"text"}"#))
    #expect(try ViewTree.decode(Array(json.utf8)) == tree)
  }

  /// Trees whose control ids must be checked in time proportional to their size.
  struct WideTree: CustomTestStringConvertible, Sendable {
    var name: String
    var root: ViewNode
    var controls: Int
    var nodes: Int
    var testDescription: String { name }
  }

  static let wideTrees: [WideTree] = {
    let buttons = (0..<60_000).map { ViewNode.button(id: "b\($0)", isEnabled: true, label: .text("Go")) }
    let fields = (0..<20_000).map { ViewNode.textField(id: "f\($0)", placeholder: "", text: "", isEnabled: true) }
    var style = ViewStyle()
    style.bold = true
    let rows = (0..<10_000).map { row in
      ViewNode.hstack(
        alignment: "center", spacing: nil,
        children: [.styled(style, .button(id: "r\(row)", isEnabled: true, label: .text("Go"))), .divider])
    }
    return [
      WideTree(
        name: "60,000 buttons in one stack", root: .vstack(alignment: "center", spacing: nil, children: buttons),
        controls: 60_000, nodes: 1 + 2 * 60_000),
      WideTree(
        name: "20,000 text fields in a scroll region", root: .scroll(children: fields), controls: 20_000, nodes: 1 + 20_000),
      WideTree(
        name: "10,000 rows of a styled button and a divider",
        root: .vstack(alignment: "leading", spacing: 2, children: rows), controls: 10_000, nodes: 1 + 10_000 * 4),
    ]
  }()

  /// A provider once drew 60,000 buttons and the host spent 12 s of CPU per
  /// rendering checking their ids (each control copied the set of ids seen
  /// before it). The ids are one value that cannot be copied (`ControlIDs`),
  /// and the walk visits each node once: counted, not timed.
  @Test(arguments: wideTrees) func checksTheIdsOfAWideTreeInLinearTime(_ tree: WideTree) throws {
    var ids = ControlIDs()
    try tree.root.validate(path: "root", ids: &ids)
    #expect(ids.count == tree.controls)
    #expect(ids.nodesChecked == tree.nodes)
  }

  @Test func refusesTreesDeeperThanTheLimit() {
    var node = ViewNode.text("deep")
    for _ in 0..<ViewNode.maximumDepth { node = .vstack(alignment: "center", spacing: nil, children: [node]) }
    let json = try? ViewTree(root: node).jsonData()
    #expect(throws: ViewTreeError.self) { try ViewTree.decode(json ?? []) }
  }
}
