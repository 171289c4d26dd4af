import Testing

@testable import ResidentService

/// The arguments of `run` that D-Bus `Present` starts for a request: the
/// caller's window goes with the desktop popover only.
@Suite struct BusPresentationArgumentsTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var parentWindow: String
    var environment: [String: String]
    var presses: [String] = []
    var runs: [String]
    var testDescription: String { "\(parentWindow.isEmpty ? "no window" : parentWindow) \(environment.keys.sorted())" }
  }

  static let wayland = ["WAYLAND_DISPLAY": "wayland-1"]

  @Test(arguments: [
    Case(parentWindow: "", environment: wayland, runs: ["--desktop"]),
    Case(parentWindow: "wayland:6b3f0c1e", environment: wayland, runs: ["--desktop", "--parent-window=wayland:6b3f0c1e"]),
    Case(parentWindow: "x11:1a00007", environment: ["DISPLAY": ":1"], runs: ["--desktop", "--parent-window=x11:1a00007"]),
    // No display: no desktop popover, so no window to be the dialog of.
    Case(parentWindow: "wayland:6b3f0c1e", environment: [:], runs: []),
    // Pressed buttons run the scene without a popover.
    Case(parentWindow: "wayland:6b3f0c1e", environment: wayland, presses: ["Go"], runs: ["--press=Go"]),
  ])
  func parentWindowGoesWithTheDesktopPopover(_ test: Case) {
    var request = BusPresentation.Request()
    request.parentWindow = test.parentWindow
    request.presses = test.presses
    #expect(BusPresentation.arguments(for: request, environment: test.environment) == test.runs)
  }
}
