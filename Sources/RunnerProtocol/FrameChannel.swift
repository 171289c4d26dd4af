import Synchronization
import System

/// One end of the host–runner socket: messages as length-prefixed frames
/// (a 4-byte big-endian length, then that many bytes in the `WireFormat`).
///
/// Sending is thread-safe (a provider may raise events from its own threads);
/// receiving is for one thread.
package final class FrameChannel: @unchecked Sendable {
  /// The largest frame either side accepts.
  package static let maximumFrameSize = 16 << 20

  package let fd: FileDescriptor
  private let sendLock = Mutex(())
  /// Bytes received and not yet consumed: `buffer[consumed...]`.
  private var buffer: [UInt8] = []
  private var consumed = 0
  /// Scratch space for reads, kept between calls.
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

  /// The socket, for a loop that waits on it next to other descriptors.
  package var descriptor: FileDescriptor { fd }

  /// Bytes received and not yet part of a returned message: a frame begun
  /// (or a whole one waiting) when nonzero.
  package var pendingByteCount: Int { buffer.count - consumed }

  /// Takes ownership of `fd`.
  package init(fd: FileDescriptor) { self.fd = fd }

  deinit { Syscalls.close(fd) }

  /// Sends one message: its length and its bytes written together, in one
  /// buffer (the length is reserved first and set once the message is encoded).
  package func send(_ message: some WireCodable) throws(ProtocolError) {
    var writer = WireWriter()
    writer.integer(0)
    message.encode(to: &writer)
    let length = writer.bytes.count - 4
    guard length <= Self.maximumFrameSize else { throw .oversized(length) }
    writer.setInteger(Int32(length), at: 0)
    do throws(Errno) {
      try sendLock.withLock { _ throws(Errno) in try Syscalls.writeAll(fd, writer.bytes) }
    } catch {
      throw error == .brokenPipe ? .closed : .io(error)
    }
  }

  /// Receives one message, waiting until `deadline` (nil: forever).
  package func receive<Message: WireCodable>(
    _ type: Message.Type, deadline: ContinuousClock.Instant? = nil
  ) throws(ProtocolError) -> Message {
    let header = Array(try fill(4, deadline: deadline))
    let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
    guard length <= Self.maximumFrameSize else { throw .oversized(length) }
    consumed += 4
    var reader = WireReader(Array(try fill(length, deadline: deadline)))
    consumed += length
    if consumed == buffer.count || consumed > 1 << 20 {
      buffer.removeFirst(consumed)
      consumed = 0
    }
    let message = try Message(from: &reader)
    guard reader.isAtEnd else { throw .malformed("bytes after the end of the message") }
    return message
  }

  /// Whether bytes are waiting: buffered, or readable on the socket (which
  /// includes the peer having closed it).
  package var hasPendingInput: Bool {
    buffer.count > consumed || ((try? Syscalls.waitReadable(fd, timeout: .zero)) ?? true)
  }

  /// Reads until at least `count` unconsumed bytes are there, and returns them.
  private func fill(_ count: Int, deadline: ContinuousClock.Instant?) throws(ProtocolError) -> ArraySlice<UInt8> {
    while buffer.count - consumed < count {
      // Often the answer is already there: one non-blocking read spares a poll.
      switch chunk.withUnsafeMutableBytes({ bytes in Result { () throws(Errno) in try UnixSocket.receiveNow(fd, into: bytes) } })
      {
      case .success(0): throw .closed
      case .success(let count):
        buffer.append(contentsOf: chunk[0..<count])
        continue
      case .failure(.wouldBlock): break
      case .failure(let error): throw error == .connectionReset ? .closed : .io(error)
      }
      if let deadline {
        guard !deadline.hasPassed else { throw .timedOut }
        let readable: Bool
        do {
          readable = try Syscalls.waitReadable(fd, timeout: deadline.remaining)
        } catch {
          throw .io(error)
        }
        guard readable else { throw .timedOut }
      }
      let received: Int
      do throws(Errno) {
        received = try Syscalls.read(fd, into: &chunk)
      } catch {
        throw error == .connectionReset ? .closed : .io(error)
      }
      guard received > 0 else { throw .closed }
      buffer.append(contentsOf: chunk[0..<received])
    }
    return buffer[consumed..<consumed + count]
  }
}
