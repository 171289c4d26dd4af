import Service
import Testing

/// Reading Swift's backtrace from a provider's log, as the runtime prints it.
@Suite struct CrashReportTests {
  static let log = """
    FoundationNetworking/TaskRegistry.swift:118: Fatal error: Trying to access a behaviour for a task that in not in the registry.

    *** Signal 4: Backtracing from 0x7efd34ef9361... done ***

    *** Program crashed: Illegal instruction at 0x00007efd34ef9361 ***

    Thread 0 "translation-pro":
      0               0x00007f256311826f poll + 79 in libc.so.6
      1 [ra]          0x000055f016660072 static Syscalls.retrying<A>(_:) + 289 in translation-provider-runner at /src/Syscalls.swift:13:20

    Thread 4 "-qos.overcommit" crashed:

      0              0x00007efd34ef9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
      1 [ra]         0x00007efd343a17e9 URLSession.behaviour(for:) + 456 in libFoundationNetworking.so
      2 [ra]         0x00007efd343bb293 closure #1 in closure #2 in URLSessionTask.cancel() + 860 in libFoundationNetworking.so
      3 [ra]         0x00007efd343b139d WebGlossaryModel.load(_:with:) + 52 in libWebGlossary.so at /src/WebGlossary.swift:97:12
      4 [ra] [thunk] 0x00007efd343659c9 thunk for @escaping @callee_guaranteed () -> () + 24 in libWebGlossary.so
      5 [ra]         0x00007efd3536294c _dispatch_call_block_and_release + 11 in libdispatch.so
    """

  @Test func theFatalErrorAndTheProvidersFramesAreNamed() {
    var report = CrashReport(providerImage: "libWebGlossary.so")
    for line in Self.log.split(separator: "\n", omittingEmptySubsequences: false) { report.read(String(line)) }
    #expect(
      report.fatalError
        == "Fatal error: Trying to access a behaviour for a task that in not in the registry.")
    #expect(report.frames.count == 6)
    #expect(report.frames[2].symbol == "closure #1 in closure #2 in URLSessionTask.cancel() + 860")
    #expect(report.frames[2].image == "libFoundationNetworking.so")
    #expect(
      report.providerFrames(limit: 1)
        == [
          CrashReport.Frame(
            symbol: "WebGlossaryModel.load(_:with:) + 52", image: "libWebGlossary.so",
            location: "/src/WebGlossary.swift:97:12")
        ])
    #expect(
      report.summary
        == "Fatal error: Trying to access a behaviour for a task that in not in the registry.; in the provider's code: "
        + "WebGlossaryModel.load(_:with:) + 52 at /src/WebGlossary.swift:97:12, called from "
        + "thunk for @escaping @callee_guaranteed () -> () + 24")
  }

  @Test(
    arguments: [
      ("", nil),
      ("hello from the provider", nil),
      (
        "Thread 1 crashed:\n  0 0x0000000000001000 crash + 4 in libOther.so",
        "in crash + 4 (libOther.so); no frame of the provider's code"
      ),
    ] as [(String, String?)])
  func aLogWithoutTheProvidersFramesSaysSo(_ log: String, _ summary: String?) {
    var report = CrashReport(providerImage: "libX.so")
    for line in log.split(separator: "\n") { report.read(String(line)) }
    #expect(report.summary == summary)
  }
}

/// `validate` says a failure that several texts share once, naming them.
@Suite struct ValidationMergeTests {
  @Test func identicalSceneFailuresAreSaidOnceWithTheirCount() {
    let checks: [(name: String, check: ValidationCheck)] = [
      ("quotes", .failed("scene on quotes: opening the scene: boom")),
      ("tabs", .passed("scene on tabs: pressed 'Go'")),
      ("emoji", .failed("scene on emoji: opening the scene: boom")),
      ("nul", .failed("scene on nul: opening the scene: other")),
    ]
    #expect(
      ProviderValidator.merged(checks).map(\.message) == [
        "scene on tabs: pressed 'Go'",
        "scene on quotes, emoji (the same failure on 2 texts): opening the scene: boom",
        "scene on nul: opening the scene: other",
      ])
  }
}
