import CGtk
import System

/// Whether an application took a paste: after the paste keys, the
/// clipboard (or PRIMARY) this process owns is asked for its contents by a
/// window of the application the keys went to, and GDK answers it.
///
/// A fixed wait would either keep the person waiting or put the earlier
/// clipboard back before a slow application has read the translation (it
/// would then paste the old text). A clipboard manager that copies every
/// new clipboard asks too, from another process: that is not the paste.
final class PasteConfirmation {
  /// How long the application has to ask for the translation once the keys are sent.
  static let timeout = Duration.seconds(5)
  /// How long after its last request the application is taken to have all it asked for.
  static let settle = Duration.milliseconds(150)

  private final class Requests {
    var first: ContinuousClock.Instant?
    var last: ContinuousClock.Instant?
  }

  private let requests = Requests()
  private let hook: UInt

  /// Starts watching for a request from process `target` (any process
  /// but this one when the X server cannot say whose window it is).
  init(x11: X11Session, target: Int32?) {
    let requests = requests
    let own = Syscalls.processID
    hook = GObjectBridge.addXEventHook { event in
      guard let request = x11.selectionDataRequest(event) else { return }
      let matches = target.map { request.processID == $0 } ?? (request.processID != own)
      guard matches else { return }
      requests.first = requests.first ?? .now
      requests.last = .now
      g_main_context_wakeup(nil)
    }
  }

  deinit { GObjectBridge.removeXEventHook(hook) }

  /// Runs the main loop (GDK answers the requests meanwhile) until the
  /// application has asked and then stopped asking, or for `timeout`.
  /// - Returns: whether it asked for the contents.
  func wait(timeout: Duration = PasteConfirmation.timeout) -> Bool {
    let deadline = ContinuousClock.Instant.after(timeout)
    // An application that keeps asking is not waited for without end.
    let limit = ContinuousClock.Instant.after(timeout * 4)
    // The loop sleeps until the next request (an X event) or until the
    // moment that ends the wait: the last request settled, or the deadline.
    while !limit.hasPassed {
      let next = requests.last.map { $0.advanced(by: Self.settle) } ?? deadline
      guard !next.hasPassed else { break }
      MainLoop.iterate(until: min(next, limit))
    }
    // What is still under way (the answer's last events) is served first.
    MainLoop.dispatchPending()
    return requests.first != nil
  }
}
