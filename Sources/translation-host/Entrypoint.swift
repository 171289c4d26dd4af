import Glibc

/// `translation-host`: the command-line front of the translation host.
@main
enum Entrypoint {
  static func main() {
    exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())).rawValue)
  }
}
