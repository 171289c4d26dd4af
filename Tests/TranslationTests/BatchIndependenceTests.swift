import TestSupport
import Testing
import Translation

/// `translations(from:)` translates each text of a batch as if alone (issue
/// 30; Apple's API promises independent requests): 2,000 distinct lines
/// (`DistinctCorpus`: lines without final punctuation, ending in an
/// abbreviation, quotes, dashes, empty lines) as one batch, through a
/// runner of the session's own and through the resident service, against
/// each line translated alone by a third session (its own runner and
/// translation memory), one request per line, from the last to the first.
@Suite(.serialized, .tags(.endToEnd)) struct BatchIndependenceTests {
  static let corpus = DistinctCorpus.lines(2_000)

  static func session(_ serviceEnvironment: [String: String]? = nil) -> TranslationSession {
    if let serviceEnvironment {
      return TranslationSession(
        installedSource: .tag("en"), target: .tag("es"), provider: Providers.apertium, serviceEnvironment: serviceEnvironment)
    }
    return TranslationSession(installedSource: .tag("en"), target: .tag("es"), provider: Providers.apertium)
  }

  static func alone() async throws -> [String] {
    let session = session()
    var translations = [String](repeating: "", count: corpus.count)
    for index in corpus.indices.reversed() where !corpus[index].isEmpty {
      translations[index] = try await session.translate(corpus[index]).targetText
    }
    return translations
  }

  @Test func aBatchTranslatesEachTextAsIfAlone() async throws {
    let alone = try await Self.alone()
    #expect(zip(Self.corpus, alone).allSatisfy { $0.isEmpty == $1.isEmpty }, "each line but an empty one translated alone")
    let requests = Self.corpus.enumerated().map { TranslationSession.Request(sourceText: $1, clientIdentifier: "\($0)") }
    let direct = try await Self.session().translations(from: requests)
    let service = try Providers.service()
    try service.start()
    defer { service.stop() }
    let throughService = try await Self.session(service.environment).translations(from: requests)
    for (path, responses) in [("a runner of the session's own", direct), ("the resident service", throughService)] {
      #expect(responses.map(\.clientIdentifier) == requests.map(\.clientIdentifier), "\(path)")
      var differences = 0
      for (index, (response, byItself)) in zip(responses, alone).enumerated() where response.targetText != byItself {
        differences += 1
        if differences <= 20 {
          Issue.record(
            "\(path), line \(index + 1) \(Self.corpus[index].debugDescription): \(response.targetText.debugDescription) in the batch, \(byItself.debugDescription) alone"
          )
        }
      }
      #expect(differences == 0, "\(path)")
    }
  }

  /// Eight sessions through the resident service at once, each sending its
  /// lines one request at a time: the service hands their texts to the
  /// Apertium runners while others are in flight (`tp.translate.stream/1`),
  /// and every answer is the line's own, as translated alone by a session
  /// with a runner of its own.
  @Test func concurrentClientsThroughTheServiceGetEachLineAsIfAlone() async throws {
    let lines = Array(Self.corpus.filter { !$0.isEmpty }.prefix(400))
    let single = Self.session()
    var alone: [String] = []
    for line in lines.reversed() { alone.insert(try await single.translate(line).targetText, at: 0) }
    let service = try Providers.service()
    try service.start()
    defer { service.stop() }
    let environment = service.environment
    let answers = try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
      for client in 0..<8 {
        group.addTask {
          let session = Self.session(environment)
          var mine: [(Int, String)] = []
          for index in stride(from: client, to: lines.count, by: 8) {
            mine.append((index, try await session.translate(lines[index]).targetText))
          }
          return mine
        }
      }
      var all = [String](repeating: "", count: lines.count)
      for try await mine in group { for (index, text) in mine { all[index] = text } }
      return all
    }
    var differences = 0
    for (index, (answer, byItself)) in zip(answers, alone).enumerated() where answer != byItself {
      differences += 1
      if differences <= 20 {
        Issue.record(
          "\(lines[index].debugDescription): \(answer.debugDescription) through the service, \(byItself.debugDescription) alone"
        )
      }
    }
    #expect(differences == 0)
  }
}
