import TranslationHostCore

/// `translation-provider-runner`: serves one provider over descriptor 3 for
/// `translation-host`. Not meant to be run by hand.
@main
enum Entrypoint {
  static func main() {
    RunnerService(channel: FrameChannel(fd: RunnerProtocol.runnerDescriptor)).run()
  }
}
