import Synchronization
import System

/// One end of the host–runner socket: messages as length-prefixed frames
/// (a 4-byte big-endian length, then that many bytes in the `WireFormat`).
///
/// Sending is thread-safe (a provider may raise events from its own threads);
/// receiving is for one thread.
///
/// Each frame costs one system call each way when the peer is quick, and no
/// allocation or copy of its bytes: a frame is encoded into a buffer the
/// channel keeps (length and message together, one `send`), and received into
/// another (`recv` writes straight into it), from which it is decoded in place.
/// A reply to a frame just sent is waited for (`poll`) before it is read, as
/// it can hardly be there yet; any other frame is read first and waited for
/// only when it is not there.
package final class FrameChannel: @unchecked Sendable {
  /// The largest frame either side accepts.
  package static let maximumFrameSize = 16 << 20
  /// The room each buffer starts with, and goes back to after a larger frame.
  static let standardBufferSize = 64 * 1024

  package let fd: FileDescriptor
  /// The frame being sent, encoded in place: its storage is kept between frames.
  private let outgoing = Mutex(WireWriter(capacity: FrameChannel.standardBufferSize))
  /// Whether a frame was sent since the last one was received: the next one
  /// is then a reply, waited for before it is read.
  private let sentSinceReceive = Atomic<Bool>(false)
  /// Received bytes not yet consumed, and room for the next `recv`.
  private var incoming = Incoming()

  /// The socket, for a loop that waits on it next to other descriptors.
  package var descriptor: FileDescriptor { fd }

  /// Bytes received and not yet part of a returned message: a frame begun
  /// (or a whole one waiting) when nonzero.
  package var pendingByteCount: Int { incoming.pendingByteCount }

  /// Takes ownership of `fd`.
  package init(fd: FileDescriptor) { self.fd = fd }

  deinit { Syscalls.close(fd) }

  /// Sends one message: its length and its bytes in one buffer and one `send`
  /// (the length is reserved first and set once the message is encoded).
  package func send(_ message: some WireCodable) throws(ProtocolError) {
    sentSinceReceive.store(true, ordering: .relaxed)
    let result = outgoing.withLock { writer -> Result<Void, ProtocolError> in
      writer.removeAll(keepingCapacityUpTo: Self.standardBufferSize)
      writer.integer(0)
      message.encode(to: &writer)
      let length = writer.count - 4
      guard length <= Self.maximumFrameSize else { return .failure(.oversized(length)) }
      writer.setInteger(Int32(length), at: 0)
      do throws(Errno) {
        try writer.withBytes { bytes throws(Errno) in try Syscalls.writeAll(fd, bytes) }
        return .success(())
      } catch {
        return .failure(error == .brokenPipe ? .closed : .io(error))
      }
    }
    try result.get()
  }

  /// Receives one message, waiting until `deadline` (nil: forever).
  package func receive<Message: WireCodable>(
    _ type: Message.Type, deadline: ContinuousClock.Instant? = nil
  ) throws(ProtocolError) -> Message {
    let replyExpected = sentSinceReceive.exchange(false, ordering: .relaxed)
    // One access to `incoming` for the whole frame: each access to a class's
    // stored property is checked at run time (exclusivity), and reading a
    // frame field by field was a dozen of those checks.
    return try incoming.receive(from: fd, deadline: deadline, waitFirst: replyExpected && deadline != nil)
  }

  /// The next message when one has begun to arrive (buffered, or on the
  /// socket now), without waiting for one: a single `recv` when nothing is
  /// buffered, where asking first (`hasPendingInput`) took a `poll` as well,
  /// for each message and for each look that found none. The rest of a
  /// message begun is waited for, as `receive` without a deadline does.
  package func receiveIfArrived<Message: WireCodable>(_ type: Message.Type) throws(ProtocolError) -> Message? {
    sentSinceReceive.store(false, ordering: .relaxed)
    if incoming.pendingByteCount == 0 {
      guard try incoming.receiveArrived(from: fd) else { return nil }
    }
    return try incoming.receive(from: fd, deadline: nil, waitFirst: false)
  }

  /// Waits until bytes are there to read (buffered, or readable on the
  /// socket, which includes the peer having closed it) or `other` is
  /// readable, up to `timeout` (nil: as long as it takes); returns whether
  /// each is. The next `receive` reads without waiting again first.
  package func waitForInput(or other: FileDescriptor, timeout: Duration?) throws(Errno) -> (input: Bool, other: Bool) {
    sentSinceReceive.store(false, ordering: .relaxed)
    if incoming.pendingByteCount > 0 { return (true, try Syscalls.waitReadable(other, timeout: .zero)) }
    return try Syscalls.waitReadable(fd, other, timeout: timeout)
  }

  /// The same, and which of `count` more descriptors (`watched(0)` …, at
  /// most 62) are readable, as bits, looked at in the same `poll` after the
  /// socket: when `input` is true and a descriptor's bit is not set, it had
  /// nothing to read once input had arrived. Nil bits when bytes were
  /// buffered already (no `poll` looked at them then).
  package func waitForInput(
    or other: FileDescriptor, watching count: Int, timeout: Duration?, _ watched: (Int) -> FileDescriptor
  ) throws(Errno) -> (input: Bool, other: Bool, watched: UInt64?) {
    sentSinceReceive.store(false, ordering: .relaxed)
    if incoming.pendingByteCount > 0 { return (true, try Syscalls.waitReadable(other, timeout: .zero), nil) }
    let ready = try Syscalls.waitReadable(count: count + 2, timeout: timeout) { index in
      index == 0 ? fd : index == 1 ? other : watched(index - 2)
    }
    return (ready & 1 != 0, ready & 2 != 0, ready >> 2)
  }

  /// Whether bytes are waiting: buffered, or readable on the socket (which
  /// includes the peer having closed it).
  package var hasPendingInput: Bool {
    incoming.pendingByteCount > 0 || ((try? Syscalls.waitReadable(fd, timeout: .zero)) ?? true)
  }
}

/// A channel's received bytes: `bytes[start..<end]` not yet consumed, the
/// rest of `bytes` room for the next `recv`.
private struct Incoming {
  private var bytes = [UInt8](repeating: 0, count: FrameChannel.standardBufferSize)
  private var start = 0
  private var end = 0

  var pendingByteCount: Int { end - start }

  /// Reads what has arrived on `fd`, without waiting; false when nothing had.
  /// - Throws: `.closed` when the peer closed the socket.
  mutating func receiveArrived(from fd: FileDescriptor) throws(ProtocolError) -> Bool {
    makeRoom(for: 4)
    let received: Int
    do throws(Errno) {
      received = try bytes.withUnsafeMutableBytes { [end] buffer in
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[end...])
        return Result { () throws(Errno) in try UnixSocket.receiveNow(fd, into: room) }
      }.get()
    } catch {
      switch error {
      case .wouldBlock: return false
      case .connectionReset: throw .closed
      default: throw .io(error)
      }
    }
    guard received > 0 else { throw .closed }
    end += received
    return true
  }

  /// Reads one frame from `fd` (see `FrameChannel.receive`) and decodes it.
  mutating func receive<Message: WireCodable>(
    from fd: FileDescriptor, deadline: ContinuousClock.Instant?, waitFirst: Bool
  ) throws(ProtocolError) -> Message {
    try fill(4, from: fd, deadline: deadline, waitFirst: waitFirst)
    return try decodeFrame(from: fd, deadline: deadline)
  }

  /// Reads the rest of the frame whose first 4 bytes are buffered, and decodes
  /// it where it lies. The frame is consumed even when it does not decode: it
  /// was whole, so the next one can be read.
  private mutating func decodeFrame<Message: WireCodable>(
    from fd: FileDescriptor, deadline: ContinuousClock.Instant?
  ) throws(ProtocolError) -> Message {
    let length = Int(bytes[start]) << 24 | Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
    guard length <= FrameChannel.maximumFrameSize else { throw .oversized(length) }
    try fill(4 + length, from: fd, deadline: deadline, waitFirst: false)
    let body = start + 4..<start + 4 + length
    start = body.upperBound
    defer { if start == end { reset() } }
    var reader = WireReader(bytes[body])
    let message = try Message(from: &reader)
    guard reader.isAtEnd else { throw .malformed("bytes after the end of the message") }
    return message
  }

  /// Empties the buffer, and gives back the room a large frame took.
  private mutating func reset() {
    (start, end) = (0, 0)
    if bytes.count > FrameChannel.standardBufferSize {
      bytes = [UInt8](repeating: 0, count: FrameChannel.standardBufferSize)
    }
  }

  /// Makes room after `end` for at least the rest of a frame of `count`
  /// bytes beginning at `start`: the bytes move to the front, and the buffer
  /// grows (by doubling, as bytes arrive, never just because a length was announced).
  private mutating func makeRoom(for count: Int) {
    guard start + count > bytes.count else { return }
    if start > 0 {
      let (pending, start) = (end - start, start)
      bytes.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        base.copyMemory(from: base + start, byteCount: pending)
      }
      (self.start, end) = (0, pending)
    }
    if end == bytes.count {
      bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, count - end)))
    }
  }

  /// Reads until at least `count` unconsumed bytes are there. With
  /// `waitFirst`, waits for the socket before the first read.
  private mutating func fill(
    _ count: Int, from fd: FileDescriptor, deadline: ContinuousClock.Instant?, waitFirst: Bool
  ) throws(ProtocolError) {
    var waits = waitFirst
    while end - start < count {
      if waits, let deadline {
        guard !deadline.hasPassed else { throw .timedOut }
        let readable: Bool
        do { readable = try Syscalls.waitReadable(fd, timeout: deadline.remaining) } catch { throw .io(error) }
        guard readable else { throw .timedOut }
      }
      makeRoom(for: count)
      let received: Int
      do throws(Errno) {
        received = try bytes.withUnsafeMutableBytes { [end] buffer in
          let room = UnsafeMutableRawBufferPointer(rebasing: buffer[end...])
          // Without a deadline the read itself waits; with one, `poll` does.
          return Result { () throws(Errno) in
            try deadline == nil ? UnixSocket.receive(fd, into: room) : UnixSocket.receiveNow(fd, into: room)
          }
        }.get()
      } catch {
        switch error {
        case .wouldBlock:
          // Nothing there yet (or a receive timeout, without a deadline): wait.
          if deadline == nil {
            do { _ = try Syscalls.waitReadable(fd) } catch { throw .io(error) }
          }
          waits = true
          continue
        case .connectionReset: throw .closed
        default: throw .io(error)
        }
      }
      guard received > 0 else { throw .closed }
      end += received
      waits = true
    }
  }
}
