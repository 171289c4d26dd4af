import FoundationEssentials
import TestSupport
import Testing

/// The Wayland client code Debian does not ship (the layer shell in
/// Sources/CWaylandLayerShell, the virtual keyboard in
/// Sources/CVirtualKeyboard) is what wayland-scanner makes now of our XML
/// (and of Debian's xdg-shell, which get_popup names), by the Makefile's
/// `wayland-protocols` commands; and the XML keeps the specification's
/// order of messages, which fixes their opcodes.
@Suite(.tags(.endToEnd)) struct WaylandProtocolTests {
  static let folder = CFixture.packageRoot + "/Sources/CWaylandLayerShell"

  /// Each generated file with the scanner's mode, the XML it comes from and
  /// both as the Makefile names them.
  @Test(arguments: [
    (
      "client-header", "Sources/CWaylandLayerShell/wlr-layer-shell-unstable-v1.xml",
      "$(LAYER_SHELL)/wlr-layer-shell-unstable-v1.xml", "Sources/CWaylandLayerShell/include/layer_shell_client.h",
      "$(LAYER_SHELL)/include/layer_shell_client.h"
    ),
    (
      "private-code", "Sources/CWaylandLayerShell/wlr-layer-shell-unstable-v1.xml",
      "$(LAYER_SHELL)/wlr-layer-shell-unstable-v1.xml", "Sources/CWaylandLayerShell/layer_shell_protocol.c",
      "$(LAYER_SHELL)/layer_shell_protocol.c"
    ),
    (
      "private-code", "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml", "$(XDG_SHELL_XML)",
      "Sources/CWaylandLayerShell/xdg_shell_protocol.c", "$(LAYER_SHELL)/xdg_shell_protocol.c"
    ),
    (
      "client-header", "Packaging/wayland/virtual-keyboard-unstable-v1.xml", "$(VIRTUAL_KEYBOARD_XML)",
      "Sources/CVirtualKeyboard/virtual_keyboard_protocol.h", "Sources/CVirtualKeyboard/virtual_keyboard_protocol.h"
    ),
    (
      "private-code", "Packaging/wayland/virtual-keyboard-unstable-v1.xml", "$(VIRTUAL_KEYBOARD_XML)",
      "Sources/CVirtualKeyboard/virtual_keyboard_protocol.c", "Sources/CVirtualKeyboard/virtual_keyboard_protocol.c"
    ),
  ])
  func theGeneratedCodeIsTheXMLs(_ mode: String, _ xml: String, _ xmlInMakefile: String, _ file: String, _ fileInMakefile: String)
    throws
  {
    let makefile = try String(contentsOfFile: CFixture.packageRoot + "/Makefile", encoding: .utf8)
    #expect(
      makefile.contains("wayland-scanner \(mode) \(xmlInMakefile) \(fileInMakefile)"),
      "the Makefile's wayland-protocols does not generate \(file) so")
    let temporary = try TemporaryDirectory()
    let input = xml.hasPrefix("/") ? xml : CFixture.packageRoot + "/" + xml
    let generate = try Command.run("/usr/bin/wayland-scanner", [mode, input, temporary.path + "/out"])
    #expect(generate.exitCode == 0, "\(generate.stderr)")
    let generated = try String(contentsOfFile: temporary.path + "/out", encoding: .utf8)
    let kept = try String(contentsOfFile: CFixture.packageRoot + "/" + file, encoding: .utf8)
    #expect(generated == kept, "\(file) is not what the XML gives: run make wayland-protocols")
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
