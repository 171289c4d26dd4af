import CGtk
import Foundation
import TestSupport
import Testing

@testable import DesktopPopover

/// The global shortcut through the GlobalShortcuts portal (`PortalShortcut`),
/// against the real xdg-desktop-portal front end and the tests' back end:
/// what is bound, and a press reaching the holder.
@Suite(.tags(.endToEnd)) struct PortalShortcutTests {
  @Test(arguments: [("<Super><Shift>t", "LOGO+SHIFT+t"), ("<Control><Alt>F5", "CTRL+ALT+F5")])
  func boundWithItsIdDescriptionAndTrigger(key: String, trigger: String) throws {
    let accelerator = try #require(Accelerator(parsing: key))
    #expect(accelerator.portalTrigger == trigger)
    let portal = try PortalDesktop(answer: "grant")
    let context = g_main_context_new()!
    g_main_context_push_thread_default(context)
    defer {
      g_main_context_pop_thread_default(context)
      g_main_context_unref(context)
    }
    var presses = 0
    var shortcut: PortalShortcut? = try PortalShortcut(
      trigger: accelerator.portalTrigger, environment: ["DBUS_SESSION_BUS_ADDRESS": portal.address]
    ) { presses += 1 }
    let bound = try #require(portal.calls("GlobalShortcuts.BindShortcuts").first)
    let shortcuts = try #require(bound["shortcuts"] as? [[Any]])
    #expect(shortcuts.count == 1)
    #expect(shortcuts.first?.first as? String == "translate-selection")
    let options = try #require(shortcuts.first?.last as? [String: Any])
    #expect(options["description"] as? String == PortalShortcut.description)
    #expect(options["preferred_trigger"] as? String == trigger)
    #expect(shortcut?.boundTrigger == trigger)

    portal.pressShortcut()
    try eventually("the press to reach the holder", timeout: .seconds(10), detail: { portal.log }) {
      g_main_context_iteration(context, 0)
      return presses == 1
    }
    portal.pressShortcut()
    try eventually("the second press", timeout: .seconds(10)) {
      g_main_context_iteration(context, 0)
      return presses == 2
    }
    // Released, the session is closed and a press reaches nobody.
    shortcut = nil
    try eventually("the session to be closed", timeout: .seconds(10)) { !portal.calls("Session.Close").isEmpty }
    portal.pressShortcut()
    for _ in 0..<20 {
      g_main_context_iteration(context, 0)
      usleep(10_000)
    }
    #expect(presses == 2)
  }

  @Test func declinedOrAbsentBindsNothing() throws {
    let declined = try PortalDesktop(answer: "deny")
    #expect(throws: PortalError.denied(step: "bind the global shortcut")) {
      _ = try PortalShortcut(trigger: "LOGO+SHIFT+t", environment: ["DBUS_SESSION_BUS_ADDRESS": declined.address]) {}
    }
    let absent = try PortalDesktop(backEnd: false)
    #expect(throws: PortalError.notOffered(interface: PortalShortcut.interface)) {
      _ = try PortalShortcut(trigger: "LOGO+SHIFT+t", environment: ["DBUS_SESSION_BUS_ADDRESS": absent.address]) {}
    }
  }
}
