import Testing

@testable import DesktopPopover

/// A translation as the RemoteDesktop portal's keyboard takes it: one X keysym per character.
@Suite struct PortalKeysymTests {
  @Test(
    arguments: [
      ("a", [0x61]), ("¿ñ", [0xBF, 0xF1]), ("漢", [0x0100_6F22]),
      ("a\r\nb\rc\td", [0x61, 0xFF0D, 0x62, 0xFF0D, 0x63, 0xFF09, 0x64]),
      ("€", [0x0100_20AC]), ("😀", [0x0101_F600]),
    ] as [(String, [UInt32])])
  func keysyms(text: String, keysyms: [UInt32]) throws {
    #expect(try TypingPlan.keysyms(text) == keysyms)
  }

  @Test(arguments: ["\u{1B}", "a\u{7F}", "\u{85}", ""])
  func refused(text: String) {
    #expect(throws: TypingPlan.Refusal.self) { try TypingPlan.keysyms(text) }
  }
}
