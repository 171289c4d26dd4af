import CGtk
import Foundation
import TestSupport
import Testing

@testable import DesktopPopover

/// Replace through the RemoteDesktop portal's keyboard (`PortalKeyboard`),
/// against the real xdg-desktop-portal front end on a private bus with the
/// tests' back end (`PortalDesktop`), which records what it is asked and
/// answers its dialog as the test says.
///
/// The back end records the keysyms rather than typing them: on GNOME and
/// KDE the typing is their compositor's (Mutter's, KWin's), which cannot
/// run here, while everything up to the back end (the client, the front
/// end's checks of the session and its devices, the keysyms) is the real
/// thing; the keysyms are compared with the exact text. Typing into a real
/// application by keysyms is covered on sway (`DesktopSessions.Wayland`).
@Suite(.tags(.endToEnd)) struct PortalKeyboardTests {
  static func environment(_ portal: PortalDesktop, home: String) -> [String: String] {
    ["DBUS_SESSION_BUS_ADDRESS": portal.address, "HOME": home, "XDG_STATE_HOME": home + "/state"]
  }

  @Test(arguments: ["¿Qué año, señor?", "漢", "Hello, world", "two\nlines\tand a tab", "😀 ß ﬁ"])
  func grantedTypesTheExactText(text: String) throws {
    let portal = try PortalDesktop(answer: "grant")
    let keyboard = PortalKeyboard(environment: Self.environment(portal, home: portal.folder))
    try keyboard.type(text)
    #expect(portal.typedText == text.replacingOccurrences(of: "\r\n", with: "\n"), "\(portal.log)")
    // The keyboard alone was asked for; the dialog was shown once; the session is closed afterwards.
    let selected = try #require(portal.calls("RemoteDesktop.SelectDevices").first)
    #expect((selected["options"] as? [String: Any])?["types"] as? Int == 1)
    #expect(portal.calls("RemoteDesktop.Start").count == 1)
    try eventually("the session to be closed", timeout: .seconds(10)) { !portal.calls("Session.Close").isEmpty }
  }

  /// The person declines: nothing is typed, and the reason says so (the
  /// popover then leaves the translation on the clipboard with it).
  @Test func deniedTypesNothing() throws {
    let portal = try PortalDesktop(answer: "deny")
    let keyboard = PortalKeyboard(environment: Self.environment(portal, home: portal.folder))
    #expect(throws: DesktopPopoverError.cannotType(PortalError.denied(step: "type into the focused window").description)) {
      try keyboard.type("¿Qué año, señor?")
    }
    #expect(portal.calls("RemoteDesktop.Start").count == 1)
    #expect(portal.calls("RemoteDesktop.NotifyKeyboardKeysym").isEmpty)
  }

  /// Debian 12's front end (1.16) has RemoteDesktop version 1: no
  /// `persist_mode` nor restore token, so the client sends neither and the
  /// back end is asked again on the second Replace. (With a version 2 front
  /// end, xdg-desktop-portal 1.17 and later, the client sends
  /// `persist_mode` 2 and the kept token.)
  @Test func aVersionOneFrontEndAsksEachTime() throws {
    let portal = try PortalDesktop(answer: "grant")
    let environment = Self.environment(portal, home: portal.folder)
    let bus = try PortalBus(environment: environment)
    #expect(bus.version(of: PortalKeyboard.interface) == 1)
    // A token kept from elsewhere is not sent to a front end that cannot take it.
    RemoteDesktopGrant(environment: environment).keep("0e4c8a1e-6f0b-4d5e-9c3a-2b1d7f8e9a10")
    try PortalKeyboard(environment: environment).type("uno")
    try PortalKeyboard(environment: environment).type("dos")
    #expect(portal.typedText == "unodos")
    #expect(portal.calls("RemoteDesktop.Start").count == 2)
    for selected in portal.calls("RemoteDesktop.SelectDevices") {
      let options = try #require(selected["options"] as? [String: Any])
      #expect(Set(options.keys) == ["types"])
    }
  }

  /// No portal offers the keyboard: nothing is asked, and the reason names it.
  @Test func anAbsentPortalFallsBack() throws {
    let portal = try PortalDesktop(backEnd: false)
    let keyboard = PortalKeyboard(environment: Self.environment(portal, home: portal.folder))
    #expect(
      throws: DesktopPopoverError.cannotType(PortalError.notOffered(interface: PortalKeyboard.interface).description)
    ) { try keyboard.type("hola") }
    #expect(throws: DesktopPopoverError.cannotType(PortalError.noBus.description)) {
      try PortalKeyboard(environment: [:]).type("hola")
    }
  }

  /// What cannot be typed is refused before the portal is asked anything.
  @Test(arguments: ["a\u{1B}[31m", "bell\u{07}", ""])
  func refusedTextAsksNothing(text: String) throws {
    let portal = try PortalDesktop(answer: "grant")
    let keyboard = PortalKeyboard(environment: Self.environment(portal, home: portal.folder))
    #expect(throws: DesktopPopoverError.self) { try keyboard.type(text) }
    #expect(portal.calls.isEmpty)
  }
}
