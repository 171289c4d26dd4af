import System
import TranslationViewTree

/// How the popover controller ended a content.
package enum PopoverEnding {
  /// The content finished, with its replacement if any.
  case finished(String?)
  /// The person dismissed the popover (Esc, `q`, a click elsewhere).
  case dismissed
  /// A call to the content failed.
  case failed(any Error)
  /// A termination signal (or Ctrl-C) arrived.
  case interrupted(Signal)
  /// The content showed progress for longer than its limit without a change.
  case stillBusy(ViewTree)
}
