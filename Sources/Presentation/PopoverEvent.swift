import Service
import System

/// What a front end tells the popover controller.
package enum PopoverEvent {
  /// The person pressed, edited or submitted (queued behind a call in progress).
  case action(PopoverAction)
  /// Tab, Shift-Tab and the arrow keys: focus moves among the enabled controls.
  case moveFocus(by: Int)
  /// The toolkit moved the focus itself (GTK's own Tab handling, a click).
  case focused(String?)
  /// Esc, `q`, a click elsewhere, a closed window.
  case dismiss
  /// Ends as dismissed once the call in progress is answered, without
  /// interrupting it or starting another (the desktop's Copy Translation:
  /// the session is still needed).
  case dismissAfterCall
  /// A termination signal, or Ctrl-C read as a key.
  case signal(Signal)
  /// The call the controller started returned.
  case callFinished(Result<SceneUpdate?, any Error>)
  /// The content's change watch fired: the provider may have changed on its own.
  case changeReady
  /// Arming the change watch failed (the session ended).
  case watchFailed(any Error)
  /// Something outside the controller needs a new drawing (the terminal was resized).
  case redrawAsked
  /// The clock reached `PopoverController.nextDeadline` (or later).
  case deadline(ContinuousClock.Instant)
}
