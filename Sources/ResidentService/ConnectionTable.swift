import FoundationEssentials
import Service
import System

/// The service's open connections, and which of them are idle: waiting for
/// a request with no scene open.
///
/// The limit on connections counts only the ones at work (a request arriving
/// or being served, or a scene open): when every place is taken, a new
/// connection takes the place of the connection idle longest, which is shut
/// down, instead of being refused. So idle connections, however many a
/// client opens, cannot lock other clients out; a client whose idle
/// connection was closed reconnects by itself (`ServiceClient`). Each
/// connection is known by its descriptor, which its thread closes only
/// after `leave`, so a number is never reused while it is in the table.
final class ConnectionTable: @unchecked Sendable {
  private struct Entry {
    /// When the connection became idle; nil while it works.
    var idleSince: ContinuousClock.Instant?
    /// Shut down to make room; it leaves without serving another request.
    var isEvicted = false
  }

  /// Connections at work at once, at most.
  let limit: Int
  private let condition = Condition()
  private var entries: [FileDescriptor: Entry] = [:]

  init(limit: Int) {
    precondition(limit > 0)
    self.limit = limit
  }

  /// Takes in a new connection on `fd`, idle until its first request. When
  /// every place is taken, the connection idle longest is shut down to make
  /// room; returns false (the caller refuses `fd`) when none is idle.
  func admit(_ fd: FileDescriptor) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let present = entries.filter { !$0.value.isEvicted }
    if present.count >= limit {
      let idle = present.compactMap { entry in entry.value.idleSince.map { (fd: entry.key, since: $0) } }
      guard let oldest = idle.min(by: { $0.since < $1.since }) else { return false }
      entries[oldest.fd]?.isEvicted = true
      // Wakes its thread, waiting for a request, which then leaves.
      UnixSocket.shutdown(oldest.fd)
    }
    entries[fd] = Entry(idleSince: .now)
    return true
  }

  /// The connection on `fd` has a request arriving: it is no longer idle.
  /// False when it was shut down to make room; then it must leave.
  func beginWork(_ fd: FileDescriptor) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    // Read, changed and written back: `entries[fd]?.idleSince = …` goes
    // through the dictionary's modify accessor, some 1,900 instructions a
    // request (callgrind), more than the rest of this table's work.
    guard var entry = entries[fd], !entry.isEvicted else { return false }
    entry.idleSince = nil
    entries[fd] = entry
    return true
  }

  /// The connection on `fd` answered its request; it is idle again unless
  /// it `holdsScene` (a popover is open, and closing it would lose it).
  func endWork(_ fd: FileDescriptor, holdsScene: Bool) {
    condition.lock()
    defer { condition.unlock() }
    guard var entry = entries[fd] else { return }
    entry.idleSince = holdsScene ? nil : .now
    entries[fd] = entry
  }

  /// The connection on `fd` is done; call before its descriptor is closed.
  func leave(_ fd: FileDescriptor) {
    condition.lock()
    entries[fd] = nil
    condition.broadcast()
    condition.unlock()
  }

  /// Connections open now, idle or not.
  var count: Int {
    condition.lock()
    defer { condition.unlock() }
    return entries.count
  }

  /// Waits until every connection has left.
  func waitUntilEmpty() {
    condition.lock()
    while !entries.isEmpty { condition.wait() }
    condition.unlock()
  }
}
