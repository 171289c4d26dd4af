import Dispatch
import Synchronization

/// A call to the content run on another thread, so the popover keeps
/// reading keys and signals while a provider works: Esc and Ctrl-C can
/// then interrupt a provider that takes long or hangs.
///
/// Only the call touches the content meanwhile; the popover's own state
/// stays on its thread. The result is written once, before `isDone` is set
/// with release ordering, and read only after `isDone` is seen with acquire
/// ordering.
package final class BackgroundCall<Value>: @unchecked Sendable {
  private nonisolated(unsafe) var outcome: Result<Value, any Error>?
  private let isDone = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts `work`; `whenDone`, if any, is called on the call's thread
  /// once `result` is set (a GTK loop wakes itself up with it).
  package init(_ work: @escaping () throws -> Value, whenDone: (@Sendable () -> Void)? = nil) {
    nonisolated(unsafe) let work = work
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      outcome = Result { try work() }
      isDone.store(true, ordering: .releasing)
      finished.signal()
      whenDone?()
    }
  }

  /// The call's result, once it returned.
  package var result: Result<Value, any Error>? {
    isDone.load(ordering: .acquiring) ? outcome : nil
  }

  /// Waits until the call returned.
  package func wait() {
    finished.wait()
    finished.signal()  // for later waits
  }
}
