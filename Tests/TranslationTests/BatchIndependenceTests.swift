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
}
