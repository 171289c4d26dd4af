/// A descriptor that this value owns: closed when the value ends, unless
/// `release()` hands it to a new owner first. It cannot be copied, so it is
/// closed exactly once, and a function that throws halfway closes what it
/// opened so far without a `close` on every path.
package struct OwnedDescriptor: ~Copyable {
  /// The descriptor, to use while this value lives; it is not this value's to close.
  package let descriptor: FileDescriptor

  /// Takes ownership of `descriptor`.
  package init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

  deinit { Syscalls.close(descriptor) }

  /// Hands the descriptor to a new owner, which closes it; this value no longer does.
  package consuming func release() -> FileDescriptor {
    let descriptor = descriptor
    discard self
    return descriptor
  }
}
