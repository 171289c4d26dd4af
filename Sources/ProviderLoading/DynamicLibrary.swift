import Glibc
import System

/// A `dlopen` handle; the only home of `dlopen`, `dlsym` and `dlerror`.
///
/// Provider libraries are never closed: Swift runtimes do not support
/// unloading, and a runner process serves exactly one provider.
package final class DynamicLibrary {
  package let path: String
  private let handle: UnsafeMutableRawPointer

  /// Loads `path` with `RTLD_NOW | RTLD_LOCAL`, so unresolved symbols fail
  /// here, with their names, rather than at first use.
  package init(path: String) throws(LoadError) {
    self.path = path
    try Self.checkELF(path)
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
      throw .openFailed(path, reason: Self.lastError())
    }
    self.handle = handle
  }

  /// The address of the exported symbol `name`.
  package func symbol(named name: String) throws(LoadError) -> UnsafeMutableRawPointer {
    _ = dlerror()
    guard let symbol = dlsym(handle, name) else { throw .missingEntry(path, reason: Self.lastError()) }
    return symbol
  }

  /// The address of the exported symbol `name`, or nil when the library does not export it.
  package func symbolIfPresent(named name: String) -> UnsafeMutableRawPointer? {
    _ = dlerror()
    return dlsym(handle, name)
  }

  private static func lastError() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown error"
  }

  /// Refuses files that are not ELF before `dlopen` sees them, so the message
  /// says what is wrong in words rather than "invalid ELF header".
  private static func checkELF(_ path: String) throws(LoadError) {
    let magic: [UInt8]
    do throws(Errno) { magic = try Directory.readPrefix(of: path, count: 4) } catch {
      throw .openFailed(path, reason: error.description)
    }
    guard magic == [0x7f, 0x45, 0x4c, 0x46] else { throw .notELF(path) }
  }
}
