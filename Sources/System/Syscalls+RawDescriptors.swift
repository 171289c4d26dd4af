import Glibc

// Transitional: the `Int32` forms of the calls that take or give a
// descriptor, for the files that still hold descriptors as `Int32` while
// they are rewritten elsewhere (`FrameChannel`, `RunnerClient`,
// `RunnerProcess`, `ServiceServer`, `ServiceConnection`, `ConnectionTable`,
// `ServiceClient`). Each forwards to the `FileDescriptor` form; the ones
// overloaded on their result alone are disfavoured, so that new code gets a
// `FileDescriptor`. Delete this file once those hold `FileDescriptor`s.
//
// Those files, with `ServeCommand` and `PopoverPresentation`, also still
// make a few Glibc calls themselves, each with a System counterpart:
// `recv(MSG_DONTWAIT)` (`UnixSocket.receiveNow`), `usleep`
// (`Syscalls.sleep`), `getpid` (`Syscalls.processID`), `signal(SIG_IGN)`
// (`Signal.ignore`), `isatty` (`Syscalls.isTerminal`) and `open`/`close`
// (`Syscalls.open`/`close`).

extension Syscalls {
  @_disfavoredOverload
  package static func socketPair() throws(Errno) -> (Int32, Int32) {
    let (first, second): (FileDescriptor, FileDescriptor) = try socketPair()
    return (first.rawValue, second.rawValue)
  }

  package static func close(_ fd: Int32) { close(FileDescriptor(rawValue: fd)) }

  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    try writeAll(FileDescriptor(rawValue: fd), bytes)
  }

  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
    try read(FileDescriptor(rawValue: fd), into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
  }

  package static func waitReadable(_ fd: Int32, milliseconds: Int32) throws(Errno) -> Bool {
    try waitReadable(FileDescriptor(rawValue: fd), milliseconds: milliseconds)
  }

  package static func runnerActions(protocol socket: Int32, output: FileDescriptor) -> [SpawnAction] {
    runnerActions(protocol: FileDescriptor(rawValue: socket), output: output)
  }

  package static func kill(_ pid: pid_t, _ signal: Int32) { kill(pid, Signal(rawValue: signal)) }
}

extension UnixSocket {
  @_disfavoredOverload
  package static func connect(to path: String) throws(Errno) -> Int32 {
    let fd: FileDescriptor = try connect(to: path)
    return fd.rawValue
  }

  package static func accept(_ fd: Int32) throws(Errno) -> Int32 { try accept(FileDescriptor(rawValue: fd)).rawValue }

  package static func peerCredentials(_ fd: Int32) throws(Errno) -> PeerCredentials {
    try peerCredentials(FileDescriptor(rawValue: fd))
  }

  package static func discardPending(_ fd: Int32) { discardPending(FileDescriptor(rawValue: fd)) }

  package static func shutdown(_ fd: Int32) { shutdown(FileDescriptor(rawValue: fd)) }

  package static func waitReadable(_ fds: [Int32], milliseconds: Int32) throws(Errno) -> [Bool] {
    try waitReadable(fds.map(FileDescriptor.init(rawValue:)), milliseconds: milliseconds)
  }
}
