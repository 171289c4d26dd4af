import Foundation
import TestSupport
import Testing

/// `run` started with no terminal (from a shortcut or a menu) tells its
/// errors as desktop notifications too: stderr reaches no one there.
extension DesktopSessions {
  @Suite struct Notifications {
    static let server = CFixture.packageRoot + "/Tests/Fixtures/notification_server.py"

    @Test func anErrorWithoutATerminalIsANotification() throws {
      let desktop = try AccessibleDesktop()
      let host = try Host()
      let log = desktop.folder.path + "/notifications.jsonl"
      let server = try desktop.start(["/usr/bin/python3", Self.server, log])
      try eventually("the notification server to start", timeout: .seconds(30), detail: { server.stderr }) {
        server.stdout.contains("ready")
      }
      // Nothing selected anywhere, and an empty clipboard.
      let popover = try RunningCommand(
        [Host.executable, "run", "--selection", "--replace", "--provider", "Reverse"],
        environment: desktop.environment.merging(host.environment) { mine, _ in mine })
      let outcome = try popover.waitForExit()
      #expect(outcome.exitCode == 65, "\(outcome.stderr)")
      let message = try #require(
        outcome.stderr.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map { String($0.dropFirst(7)) })
      #expect(message.hasPrefix("nothing is selected"))
      let shown = try eventually("the notification", timeout: .seconds(10)) {
        try? String(contentsOfFile: log, encoding: .utf8)
      }
      let records = shown.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      try #require(records.count == 1, "\(shown)")
      #expect(records[0]["summary"] as? String == "Translation failed")
      #expect(records[0]["body"] as? String == message)
      #expect(records[0]["urgency"] as? Int == 2)
      #expect(records[0]["application"] as? String == "translation-host")
    }
  }
}
