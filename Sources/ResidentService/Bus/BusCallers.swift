import System

/// The service's callers on the bus, by unique name: whom the bus vouched
/// for (checked once per name, as a unique name is never given to another
/// connection while the bus lives), and the calls each has in flight.
///
/// Each caller's name is watched from its first call (`NameOwnerChanged`,
/// subscribed before its credentials are asked for, so a caller that leaves
/// in between is seen one way or the other). When it leaves the bus, every
/// call it has in flight is cancelled (a `Translate` gives up its runner,
/// a `Present` closes its popover) and what was known of it is dropped.
final class BusCallers: @unchecked Sendable {
  private final class Entry {
    /// What the bus said of the caller, once checked.
    var caller: BusCaller?
    /// The `NameOwnerChanged` subscription (GDBus's id) watching it.
    var subscription: UInt32
    /// Its calls in flight, each with the request id it gave (`TranslateRequest`) or "".
    var calls: [ObjectIdentifier: (requestID: String, cancellation: Cancellation)] = [:]
    init(subscription: UInt32) { self.subscription = subscription }
  }

  private let lock = Condition()
  private var entries: [String: Entry] = [:]

  init() {}

  /// Begins a call of `sender`: a cancellation, fired when the sender leaves
  /// the bus. `subscribe` (called under the lock, on the bus's thread) starts
  /// watching a sender seen for the first time and returns its subscription.
  func begin(_ sender: String, requestID: String = "", subscribe: (String) -> UInt32) -> Cancellation {
    let cancellation = Cancellation()
    lock.withLock {
      let entry = entries[sender] ?? Entry(subscription: subscribe(sender))
      entries[sender] = entry
      entry.calls[ObjectIdentifier(cancellation)] = (requestID, cancellation)
    }
    return cancellation
  }

  /// Cancels `sender`'s calls that gave `requestID` (never another caller's);
  /// how many there were.
  @discardableResult
  func cancel(_ sender: String, requestID: String) -> Int {
    guard !requestID.isEmpty else { return 0 }
    let calls = lock.withLock { entries[sender]?.calls.values.filter { $0.requestID == requestID } ?? [] }
    for call in calls { call.cancellation.fire() }
    return calls.count
  }

  /// Ends a call that `begin` began.
  func end(_ sender: String, _ cancellation: Cancellation) {
    lock.withLock { _ = entries[sender]?.calls.removeValue(forKey: ObjectIdentifier(cancellation)) }
  }

  /// What the bus said of `sender`, if it was asked already.
  func checked(_ sender: String) -> BusCaller? {
    lock.withLock { entries[sender]?.caller }
  }

  /// Keeps what the bus said of a caller, while its name is watched.
  func remember(_ caller: BusCaller) {
    lock.withLock { entries[caller.uniqueName]?.caller = caller }
  }

  /// `name` left the bus: cancels its calls and forgets it. Returns the
  /// subscription to end, if it was watched.
  func left(_ name: String) -> UInt32? {
    let entry = lock.withLock { entries.removeValue(forKey: name) }
    guard let entry else { return nil }
    for call in entry.calls.values { call.cancellation.fire() }
    return entry.subscription
  }

  /// The number of callers known, for tests and the log.
  var count: Int { lock.withLock { entries.count } }
}
