import Presentation

/// The output the popover's layer surface goes on, and where that output
/// is in the coordinates of the anchor (sway's layout pixels): a layer
/// surface is placed by margins from its output's edges.
struct LayerOutput: Equatable {
  /// Its place in the compositor's outputs (`LayerShellDisplay.outputs`); nil: the compositor's choice.
  var index: Int?
  var screen: ScreenRect

  /// The output with `point` (the anchor, the selection, the focused
  /// window), as sway's `get_outputs` places them (`layout`), matched to
  /// the compositor's by name; without sway, the first output at 0, 0.
  static func choose(
    outputs: [LayerShellDisplay.Output], layout: [(name: String, rect: ScreenRect)], point: ScreenPoint?
  ) -> LayerOutput {
    if let chosen = layout.first(where: { point.map($0.rect.contains) ?? false }) ?? layout.first {
      let index = outputs.firstIndex { $0.name == chosen.name }
      return LayerOutput(index: index ?? (outputs.count == 1 ? 0 : nil), screen: chosen.rect)
    }
    guard let first = outputs.first, first.width > 0, first.height > 0 else {
      return LayerOutput(index: nil, screen: ScreenRect(x: 0, y: 0, width: 1024, height: 768))
    }
    return LayerOutput(index: 0, screen: ScreenRect(x: 0, y: 0, width: first.width, height: first.height))
  }
}
