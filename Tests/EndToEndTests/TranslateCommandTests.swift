import Foundation
import TestSupport
import Testing

@Suite(.tags(.endToEnd)) struct TranslateCommandTests {
  let rot13 = Host.providers + "/Rot13.translationprovider"

  @Test func cProviderTranslatesHeadlessly() throws {
    let result = try Host().run("translate", "--provider", rot13, "--from", "en", "--to", "en-x-rot13", "Hello, world!")
    #expect(result.stdout == "Uryyb, jbeyq!\n")
    #expect(result.exitCode == 0)
  }

  @Test func readsStdinWithoutItsTrailingNewline() throws {
    let result = try Host().run("translate", "--provider", rot13, "--from", "en-x-rot13", "--to", "en", stdin: "Uryyb\n")
    #expect(result.stdout == "Hello\n")
  }

  @Test func anUnsupportedPairUsesAppleVocabularyAndItsExitCode() throws {
    let result = try Host().run("translate", "--provider", rot13, "--from", "en", "--to", "fr", "Hello")
    #expect(result.exitCode == 4)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("Rot13 translates only between 'en' and 'en-x-rot13'"))
  }

  @Test func aSceneOnlyProviderCannotTranslateHeadlessly() throws {
    let result = try Host().run(
      "translate", "--provider", Host.providers + "/Reverse.translationprovider", "--from", "en", "--to", "es", "x")
    #expect(result.exitCode == 70)
    #expect(result.stderr.contains("does not implement 'tp.translate/1'"))
  }
}

@Suite(.tags(.endToEnd)) struct TranslateLinesTests {
  let rot13 = Host.providers + "/Rot13.translationprovider"

  @Test func eachLineIsItsOwnRequestInOrder() throws {
    let input = (0..<3000).map { "line \($0)" }.joined(separator: "\n") + "\n\nlast without newline"
    let result = try Host().run("translate", "--lines", "--provider", rot13, "--from", "en", "--to", "en-x-rot13", stdin: input)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    try #require(lines.count == 3003, "stderr: \(result.stderr)")
    #expect(lines[0] == "yvar 0")
    #expect(lines[2999] == "yvar 2999")
    #expect(lines[3000] == "")
    #expect(lines[3001] == "ynfg jvgubhg arjyvar")
    #expect(result.exitCode == 0)
  }

  @Test func aLineThatIsNotUTF8IsRefusedByNumber() throws {
    let host = try Host()
    let result = try Command.run(
      "/bin/sh",
      ["-c", "printf 'ok\\nbad \\377\\n' | \(Host.executable) translate --lines --provider \(rot13) --from en --to en-x-rot13"],
      environment: host.environment)
    #expect(result.exitCode == 65)
    #expect(result.stderr.contains("line 2 of stdin is not valid UTF-8"))
  }

  @Test func linesAndATextArgumentDoNotMix() throws {
    let result = try Host().run("translate", "--lines", "--from", "en", "--to", "es", "text")
    #expect(result.exitCode == 64)
  }
}

@Suite(.tags(.endToEnd)) struct TranslateJSONTests {
  struct Record: Decodable, Equatable {
    var sourceLanguage: String
    var targetLanguage: String
    var sourceText: String
    var targetText: String
    var clientIdentifier: String?
  }

  @Test func oneObjectPerRequestWithApplesFieldNames() throws {
    let input = "abc\n{\"sourceText\":\"xyz\",\"clientIdentifier\":\"r2\"}\n{not json\n"
    let result = try Host().run(
      "translate", "--lines", "--json", "--provider", "Rot13", "--from", "en", "--to", "en-x-rot13", stdin: input)
    let records = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
    #expect(
      records == [
        Record(sourceLanguage: "en", targetLanguage: "en-x-rot13", sourceText: "abc", targetText: "nop", clientIdentifier: nil),
        Record(sourceLanguage: "en", targetLanguage: "en-x-rot13", sourceText: "xyz", targetText: "klm", clientIdentifier: "r2"),
        Record(
          sourceLanguage: "en", targetLanguage: "en-x-rot13", sourceText: "{not json", targetText: "{abg wfba",
          clientIdentifier: nil),
      ])
  }

  @Test func withoutLinesTheWholeInputIsOneObject() throws {
    let result = try Host().run("translate", "--json", "--provider", "Rot13", "--from", "en", "--to", "en-x-rot13", "a\nb")
    let record = try JSONDecoder().decode(Record.self, from: Data(result.stdout.utf8))
    #expect(record.targetText == "n\no")
  }
}
