import CTranslationProvider

/// Bytes the SDK hands to the host as a `tp_string` that must stay valid
/// until the next call: kept in memory the SDK allocated itself, so the
/// pointer never outlives the buffer it points into.
final class OwnedBytes {
  private var storage: UnsafeMutableBufferPointer<CChar>?

  deinit { storage?.deallocate() }

  /// Replaces the bytes with `bytes` and returns a string over them, valid
  /// until the next `replace` or until this object is released.
  func replace(with bytes: some Collection<UInt8>) -> tp_string {
    storage?.deallocate()
    let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(bytes.count, 1))
    for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
    storage = buffer
    return tp_string(data: UnsafePointer(buffer.baseAddress), length: bytes.count)
  }
}
