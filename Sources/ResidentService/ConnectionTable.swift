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
/// A connection at work whose client has hung up gives its place too
/// (checked when a newcomer finds no idle one, so at connect time only).
final class ConnectionTable: @unchecked Sendable {
  /// One connection's place, which its thread keeps (`place(of:)`), so that
  /// marking it at work and idle, twice a request, looks nothing up.
  /// Its fields are the table's, read and written under the table's lock.
  final class Place: @unchecked Sendable {
    /// When the connection became idle; nil while it works.
    fileprivate var idleSince: ContinuousClock.Instant?
    /// Shut down to make room; it leaves without serving another request.
    fileprivate var isEvicted = false
    fileprivate init(idleSince: ContinuousClock.Instant?) { self.idleSince = idleSince }
  }

  /// Connections at work at once, at most.
  let limit: Int
  private let condition = Condition()
  private var entries: [FileDescriptor: Place] = [:]

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
      if let oldest = idle.min(by: { $0.since < $1.since }) {
        entries[oldest.fd]?.isEvicted = true
        // Wakes its thread, waiting for a request, which then leaves.
        UnixSocket.shutdown(oldest.fd)
      } else if let gone = Self.firstHungUp(Array(present.keys)) {
        // At work for a client that has gone: its thread is reading the end
        // of the stream, or has sent the last answer and not yet marked the
        // connection idle. Its place is nobody's work; it leaves by itself.
        entries[gone]?.isEvicted = true
      } else {
        return false
      }
    }
    entries[fd] = Place(idleSince: .now)
    return true
  }

  /// The first of `fds` whose client hung up (closed, or shut down both
  /// ways: a client that shut down only its sending side still waits for
  /// its answer), asked of the kernel without waiting. Their threads close
  /// them only after `leave`, which waits for the lock the caller holds.
  private static func firstHungUp(_ fds: [FileDescriptor]) -> FileDescriptor? {
    guard let events = try? Syscalls.poll(fds.map { ($0, []) }, timeout: .zero) else { return nil }
    return zip(fds, events).first { $0.1.contains(.hungUp) }?.0
  }

  /// The place of the connection on `fd`, admitted and not gone.
  func place(of fd: FileDescriptor) -> Place? {
    condition.lock()
    defer { condition.unlock() }
    return entries[fd]
  }

  /// The connection at `place` has a request arriving: it is no longer idle.
  /// False when it was shut down to make room; then it must leave.
  func beginWork(_ place: Place) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !place.isEvicted else { return false }
    place.idleSince = nil
    return true
  }

  /// The connection at `place` answered its request; it is idle again unless
  /// it `holdsScene` (a popover is open, and closing it would lose it).
  func endWork(_ place: Place, holdsScene: Bool) {
    let now = holdsScene ? nil : ContinuousClock.now
    condition.lock()
    place.idleSince = now
    condition.unlock()
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
