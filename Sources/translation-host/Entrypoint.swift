import CHostProcess
import Glibc

/// `translation-host`: the command-line front of the translation host.
@main
enum Entrypoint {
  static func main() {
    // Descriptors 0–2 must be open, or the first socket the host creates
    // would become "stdout" and a replacement would be written into it.
    for fd in 0...2 where fcntl(Int32(fd), F_GETFD) == -1 {
      _ = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
    }
    signal(SIGPIPE, SIG_IGN)
    // Nothing of the same user may attach to the host or write into its
    // memory: a provider runs as the user too (Documentation/Security.md).
    if tp_host_forbid_attaching() != 0 {
      perror("translation-host: prctl(PR_SET_DUMPABLE)")
      exit(71)
    }
    exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())).rawValue)
  }
}
