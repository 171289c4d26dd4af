import Presentation
import System
import TranslationViewTree

/// What `DesktopPopoverPresentation` asks of the popover's surface, whether
/// a GTK window (`PopoverWindow`) or a layer surface of the compositor
/// (`LayerPopover`): both drive `PopoverController` and differ only in
/// how they draw and read input.
protocol PopoverSurface: AnyObject {
  /// Shows the surface with a spinner and `message`.
  func presentWaiting(_ message: String?)
  /// Runs `work` on another thread while the surface stays responsive.
  /// - Returns: its value, or nil when the person dismissed the popover meanwhile.
  func wait<Value>(for work: @escaping () throws -> Value, interrupt: @escaping () -> Void) throws -> Value?
  /// Shows `content` from `first` until it finishes (its replacement, if any) or is dismissed (nil).
  func run(_ content: any PopoverContent, first: ViewTree) throws -> String??
  /// Adds Copy Translation (Alt+C), which ends the content as a dismissal with `copyPressed` set.
  func offerCopy()
  var copyPressed: Bool { get }
  /// Takes the surface off the screen.
  func hide()
  /// Serves the main loop for `span`.
  func iterate(for span: Duration)
  /// The signal that stopped the popover, if one did.
  var interruption: Signal? { get }
}

extension PopoverWindow: PopoverSurface {}
