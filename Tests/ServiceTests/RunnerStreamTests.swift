import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Core
@testable import RunnerProtocol
@testable import Service
@testable import System

/// `tp.translate.stream/1` through a real runner, with a C provider that
/// breaks the stream's rules where a text asks it to
/// (`Tests/Fixtures/stream_provider.c`): the host sends several requests at
/// once, as the resident service does, and each rule broken fails the
/// request it belongs to and no other; the runner goes on serving, or, when
/// the provider holds a text for ever, the deadline ends it and a new one works.
@Suite(.tags(.endToEnd)) struct RunnerStreamTests {
  static let source = CFixture.packageRoot + "/Tests/Fixtures/stream_provider.c"

  /// What one request must come to.
  enum Outcome: CustomStringConvertible {
    case translated([String])
    /// A provider failure whose message contains this.
    case fails(String)
    /// The runner missed the deadline (the request held, or one before it on the runner).
    case deadline

    var description: String {
      switch self {
      case .translated(let texts): "translated \(texts)"
      case .fails(let text): "fails with '\(text)'"
      case .deadline: "deadline"
      }
    }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    /// Target and texts of each request, sent one after another before any answer is read.
    let requests: [(target: String, texts: [String])]
    let outcomes: [Outcome]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "answers in reverse order, three requests in one call",
      requests: [("en-x-upper", ["a", "b", "c"]), ("en-x-upper", ["d"]), ("en-x-upper", ["e", "f"])],
      outcomes: [.translated(["A", "B", "C"]), .translated(["D"]), .translated(["E", "F"])]),
    Case(
      name: "a text answered twice fails its request only",
      requests: [("en-x-upper", ["a"]), ("en-x-upper", ["x", "twice"]), ("en-x-upper", ["b"])],
      outcomes: [.translated(["A"]), .fails("answered index"), .translated(["B"])]),
    Case(
      name: "a second answer after its request was answered is dropped",
      requests: [("en-x-upper", ["twice"]), ("en-x-upper", ["b"])],
      outcomes: [.translated(["TWICE"]), .translated(["B"])]),
    Case(
      name: "an answer for an index never given is dropped",
      requests: [("en-x-upper", ["unknown", "a"]), ("en-x-upper", ["b"])],
      outcomes: [.translated(["UNKNOWN", "A"]), .translated(["B"])]),
    Case(
      name: "an answer given for another text fails the request holding it",
      requests: [("en-x-upper", ["ahead", "b"]), ("en-x-upper", ["c"])],
      outcomes: [.fails("answered index"), .translated(["C"])]),
    Case(
      name: "the pair changes mid-stream, to another and to an unsupported one",
      requests: [
        ("en-x-upper", ["Ab"]), ("en-x-lower", ["Ab"]), ("en-x-upper", ["Cd"]), ("fr", ["x"]), ("en-x-upper", ["e"]),
      ],
      outcomes: [
        .translated(["AB"]), .translated(["ab"]), .translated(["CD"]), .fails("translates only from 'en'"),
        .translated(["E"]),
      ]),
    Case(
      name: "a text not answered when the call returns fails its request only",
      requests: [("en-x-upper", ["a"]), ("en-x-upper", ["silent", "b"]), ("en-x-upper", ["c"])],
      outcomes: [.translated(["A"]), .fails("did not answer index"), .translated(["C"])]),
    Case(
      name: "a text held for ever meets the deadline; what was answered before it stands",
      requests: [("en-x-upper", ["a"]), ("en-x-upper", ["hold"]), ("en-x-upper", ["c"])],
      outcomes: [.translated(["A"]), .deadline, .deadline]),
    Case(
      name: "a call that blocks meets the deadline", requests: [("en-x-upper", ["block"])], outcomes: [.deadline]),
    Case(
      name: "an answer after the call failed does not reach the next call",
      requests: [("en-x-upper", ["late"]), ("en-x-upper", ["slow", "b"])],
      outcomes: [.fails("cancelled"), .translated(["SLOW", "B"])]),
    Case(
      name: "an answer larger than the protocol carries fails its request only",
      requests: [("en-x-upper", ["a"]), ("en-x-upper", ["huge"]), ("en-x-upper", ["b"])],
      outcomes: [.translated(["A"]), .fails("more than the 16777216 bytes"), .translated(["B"])]),
    Case(
      name: "answers that together are larger than the protocol carries fail their request only",
      requests: [("en-x-upper", ["big", "big"]), ("en-x-upper", ["b"])],
      outcomes: [.fails("more than the 16777216 bytes"), .translated(["B"])]),
    Case(
      name: "an answer with NULL data fails its request only",
      requests: [("en-x-upper", ["null"]), ("en-x-upper", ["b"])],
      outcomes: [.fails("NULL data"), .translated(["B"])]),
    Case(
      name: "an answer that is not UTF-8 fails its request only",
      requests: [("en-x-upper", ["a"]), ("en-x-upper", ["invalid"])],
      outcomes: [.translated(["A"]), .fails("not valid UTF-8")]),
  ]

  /// The provider's own thread (`WORKER_THREAD`) takes and answers, or the call's.
  static let threads: [[String]] = [[], ["WORKER_THREAD"]]

  @Test(arguments: cases, threads)
  func eachBrokenRuleFailsItsRequestOnly(_ test: Case, _ defines: [String]) throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, defines: defines, abi: .v2, name: "libStream", in: directory)
    let path = try BundleFixture(name: "Stream").write(name: "Stream", in: directory, library: library)
    let bundle = try ProviderBundle.load(at: path)
    let launch = {
      try RunnerClient.launch(
        bundle: bundle, policy: try SandboxPolicy.forBundle(bundle), runnerPath: RunnerClientTests.runner,
        timeout: .seconds(30))
    }
    let client = try launch()
    defer { client.close() }
    #expect(client.streamsTranslations)
    for request in test.requests { try client.sendTranslate(request.texts, from: "en", to: request.target) }
    for (request, outcome) in zip(test.requests, test.outcomes) {
      let result = Result(catching: { () throws(HostError) in
        // A short deadline where the provider holds a text, a loaded machine's where it answers.
        let wait: Duration = if case .deadline = outcome { .seconds(2) } else { .seconds(30) }
        return try client.receiveTranslations(count: request.texts.count, deadline: .after(wait))
      })
      switch (outcome, result) {
      case (.translated(let expected), .success(let translations)):
        #expect(translations == expected, "\(request.texts)")
      case (.fails(let part), .failure(let error)):
        #expect(error.kind != .deadlineExceeded && error.message.contains(part), "\(request.texts): \(error)")
      case (.deadline, .failure(let error)):
        #expect(error.kind == .deadlineExceeded, "\(request.texts): \(error)")
      default:
        Issue.record("\(request.texts): expected \(outcome), got \(result)")
      }
    }
    // The runner still serves, or, once the deadline ended it, a new one does.
    let serving = client.hasEnded ? try launch() : client
    defer { serving.close() }
    #expect(try serving.translate(["ok", "Fine"], from: "en", to: "en-x-upper") == ["OK", "FINE"])
  }

  /// The same through the resident service, whose clients share runners and
  /// batches: a client whose text the provider holds gets its deadline, one
  /// whose text it answers twice gets a failure, and the clients beside them
  /// get their own answers.
  @Test func throughTheServiceABrokenRuleCostsOnlyItsClient() throws {
    let directory = try TemporaryDirectory()
    let library = try CFixture.compile(Self.source, abi: .v2, name: "libStream", in: directory)
    let bundle = try BundleFixture(name: "Stream").write(name: "Stream", in: directory, library: library)
    let service = try ServiceProcess(environment: ["TRANSLATION_HOST_PROVIDER_PATH": directory.path])
    try service.start()
    defer { service.stop() }
    // The fixture answers the texts it took last first: "twice" twice before "x".
    let requests = [["hold"], ["x", "twice"]] + (0..<8).map { ["text \($0)"] }
    let location = service.location
    let results = Mutex<[Int: Result<[String], ServiceError>]>([:])
    DispatchQueue.concurrentPerform(iterations: requests.count) { index in
      let result = Result { () throws(ServiceError) -> [String] in
        let client = try ServiceClient.connect(to: location)
        return try client.translate(
          requests[index], from: "en", to: "en-x-upper", provider: bundle, timeout: .seconds(index == 0 ? 2 : 30))
      }
      results.withLock { $0[index] = result }
    }
    let answers = results.withLock { $0 }
    #expect(throws: (any Error).self, "held for ever") { try answers[0]!.get() }
    #expect("\(answers[1]!)".contains("answered index"), "answered twice: \(answers[1]!)")
    for index in 2..<requests.count {
      #expect(try answers[index]!.get() == requests[index].map { $0.uppercased() }, "\(requests[index])")
    }
  }
}
