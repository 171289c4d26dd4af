import FoundationEssentials
import TestSupport
import Testing

/// The layer-shell client code in Sources/CWaylandLayerShell is what
/// wayland-scanner makes now of the XML there (and of Debian's xdg-shell,
/// which get_popup names), by the Makefile's `layer-shell-protocol`
/// commands; and the XML keeps the specification's order of messages,
/// which fixes their opcodes.
@Suite(.tags(.endToEnd)) struct LayerShellProtocolTests {
  static let folder = CFixture.packageRoot + "/Sources/CWaylandLayerShell"

  /// Each generated file with the scanner's mode and the XML it comes from.
  @Test(arguments: [
    ("client-header", "wlr-layer-shell-unstable-v1.xml", "include/layer_shell_client.h"),
    ("private-code", "wlr-layer-shell-unstable-v1.xml", "layer_shell_protocol.c"),
    ("private-code", "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml", "xdg_shell_protocol.c"),
  ])
  func theGeneratedCodeIsTheXMLs(_ mode: String, _ xml: String, _ file: String) throws {
    let makefile = try String(contentsOfFile: CFixture.packageRoot + "/Makefile", encoding: .utf8)
    let source = xml.hasPrefix("/") ? "$(XDG_SHELL_XML)" : "$(LAYER_SHELL)/" + xml
    #expect(
      makefile.contains("wayland-scanner \(mode) \(source) $(LAYER_SHELL)/\(file)"),
      "the Makefile's layer-shell-protocol does not generate \(file) so")
    let temporary = try TemporaryDirectory()
    let input = xml.hasPrefix("/") ? xml : Self.folder + "/" + xml
    let generate = try Command.run("/usr/bin/wayland-scanner", [mode, input, temporary.path + "/out"])
    #expect(generate.exitCode == 0, "\(generate.stderr)")
    let generated = try String(contentsOfFile: temporary.path + "/out", encoding: .utf8)
    let kept = try String(contentsOfFile: Self.folder + "/" + file, encoding: .utf8)
    #expect(generated == kept, "Sources/CWaylandLayerShell/\(file) is not what the XML gives: run make layer-shell-protocol")
  }

  /// The opcodes of zwlr_layer_surface_v1 version 4's requests, as the
  /// specification's order gives them (a missing or moved request would
  /// send the compositor another one).
  @Test(arguments: [
    ("SET_SIZE", 0), ("SET_ANCHOR", 1), ("SET_EXCLUSIVE_ZONE", 2), ("SET_MARGIN", 3),
    ("SET_KEYBOARD_INTERACTIVITY", 4), ("GET_POPUP", 5), ("ACK_CONFIGURE", 6), ("DESTROY", 7), ("SET_LAYER", 8),
  ])
  func requestsKeepTheSpecificationsOpcodes(_ name: String, _ opcode: Int) throws {
    let header = try String(contentsOfFile: Self.folder + "/include/layer_shell_client.h", encoding: .utf8)
    #expect(header.contains("#define ZWLR_LAYER_SURFACE_V1_\(name) \(opcode)\n"))
  }
}
