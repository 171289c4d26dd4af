import Presentation
import Testing

@testable import DesktopPopover

/// Which output the layer surface goes on: the one with the anchor in
/// sway's layout, matched to the compositor's outputs by name.
@Suite struct LayerOutputTests {
  static let outputs = [
    LayerShellDisplay.Output(name: "DP-1", width: 1920, height: 1080),
    LayerShellDisplay.Output(name: "HDMI-A-1", width: 1280, height: 1024),
  ]
  static let layout = [
    (name: "DP-1", rect: ScreenRect(x: 0, y: 0, width: 1920, height: 1080)),
    (name: "HDMI-A-1", rect: ScreenRect(x: 1920, y: 0, width: 1280, height: 1024)),
  ]

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var outputs: [LayerShellDisplay.Output]
    var sway: Bool
    var point: ScreenPoint?
    var expected: LayerOutput
    var testDescription: String { name }
  }

  @Test(arguments: [
    Case(
      name: "the anchor on the second output", outputs: outputs, sway: true, point: ScreenPoint(x: 2000, y: 10),
      expected: LayerOutput(index: 1, screen: layout[1].rect)),
    Case(
      name: "the anchor on the first", outputs: outputs, sway: true, point: ScreenPoint(x: 5, y: 5),
      expected: LayerOutput(index: 0, screen: layout[0].rect)),
    Case(
      name: "no anchor: sway's first output", outputs: outputs, sway: true, point: nil,
      expected: LayerOutput(index: 0, screen: layout[0].rect)),
    Case(
      name: "without sway: the first output at 0, 0", outputs: outputs, sway: false, point: ScreenPoint(x: 2000, y: 10),
      expected: LayerOutput(index: 0, screen: ScreenRect(x: 0, y: 0, width: 1920, height: 1080))),
    Case(
      name: "unnamed outputs (wl_output before version 4), one of them", outputs: [.init(name: "", width: 800, height: 600)],
      sway: true, point: ScreenPoint(x: 2000, y: 10), expected: LayerOutput(index: 0, screen: layout[1].rect)),
    Case(
      name: "no output known", outputs: [], sway: false, point: nil,
      expected: LayerOutput(index: nil, screen: ScreenRect(x: 0, y: 0, width: 1024, height: 768))),
  ])
  func choose(_ test: Case) {
    #expect(LayerOutput.choose(outputs: test.outputs, layout: test.sway ? Self.layout : [], point: test.point) == test.expected)
  }
}
