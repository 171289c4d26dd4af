/// What the popover controller asks its front end to do after an event, in order.
package enum PopoverEffect: Equatable, Sendable {
  /// Run the call on another thread, and send `.callFinished` when it returns
  /// (the front end wakes for it through a `WakeDescriptor`).
  case start(PopoverCall)
  /// Interrupt the call in progress and wait for it to return (its result
  /// is not wanted any more).
  case interrupt
  /// Draw the popover again from the controller's state (tree, focus, busy, frame).
  case redraw
  /// Arm the content's change watch (`PopoverContent.watchChanges`) and send
  /// `.changeReady` when its descriptor becomes readable.
  case watchChanges
  /// The content ended (`PopoverController.ending` says how); stop.
  case end
}
