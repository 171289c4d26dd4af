import CHostProcess
import System

/// `translation-host`: the command-line front of the translation host.
@main
enum Entrypoint {
  static func main() {
    // Descriptors 0–2 must be open, or the first socket the host creates
    // would become "stdout" and a replacement would be written into it.
    // (`open` takes the lowest free descriptor, so each lands where it is missing.)
    for fd in [FileDescriptor.standardInput, .standardOutput, .standardError] where !Syscalls.isOpen(fd) {
      _ = try? Syscalls.open("/dev/null", fd == .standardInput ? .readOnly : .writeOnly, closeOnExec: false)
    }
    Signal.brokenPipe.ignore()
    // Nothing of the same user may attach to the host or write into its
    // memory: a provider runs as the user too (Documentation/Security.md).
    if tp_host_forbid_attaching() != 0 {
      let error = Errno.current
      Output().note("prctl(PR_SET_DUMPABLE): \(error)")
      Syscalls.exit(71)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    // A provider loaded into this process gets the main thread, as in a
    // runner: its main queue and main actor run there.
    if arguments.contains("--in-process") {
      InProcessRunner.serveOnMainThread { CommandLineTool.run(arguments).rawValue }
    }
    Syscalls.exit(CommandLineTool.run(arguments).rawValue)
  }
}
