/// One line of `translation-host validate`.
package struct ValidationCheck: Equatable, Sendable {
  package enum Outcome: String, Sendable {
    case passed = "ok"
    case failed = "FAIL"
    case warning = "warn"
    case note = "note"
  }

  package var outcome: Outcome
  /// What was checked and what came of it; for a failure, also what to do.
  package var message: String

  package static func passed(_ message: String) -> ValidationCheck { ValidationCheck(outcome: .passed, message: message) }
  package static func failed(_ message: String) -> ValidationCheck { ValidationCheck(outcome: .failed, message: message) }
  package static func note(_ message: String) -> ValidationCheck { ValidationCheck(outcome: .note, message: message) }
  /// Something users will meet that does not stop the provider from working.
  package static func warning(_ message: String) -> ValidationCheck {
    ValidationCheck(outcome: .warning, message: message)
  }
}
