import Synchronization

/// A Boolean shared between threads.
package final class AtomicFlag: Sendable {
  private let storage: Atomic<Bool>

  package init(_ value: Bool = false) { storage = Atomic(value) }

  package var value: Bool {
    get { storage.load(ordering: .acquiring) }
    set { storage.store(newValue, ordering: .releasing) }
  }
}
