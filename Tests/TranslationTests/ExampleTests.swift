import Foundation
import TestSupport
import Testing

/// The examples in `Examples/` are the README's complete examples, and they work.
@Suite struct ExampleTests {
  @Test(arguments: ["TranslateFile", "ReplaceSelection"])
  func theReadmeShowsTheExampleAsItIs(_ name: String) throws {
    let example = try String(contentsOfFile: CFixture.packageRoot + "/Examples/\(name)/main.swift", encoding: .utf8)
    let readme = try String(contentsOfFile: CFixture.packageRoot + "/README.md", encoding: .utf8)
    let section = try #require(readme.range(of: "## The client library")).upperBound
    let blocks = readme[section...].components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    let block = try #require(blocks.first { $0.hasPrefix("// \(name):") }, "no block of \(name) in the README")
    #expect(block == example)
  }

  static var translateFile: String {
    get throws {
      let binary =
        URL(fileURLWithPath: try #require(CommandLine.arguments.first)).deletingLastPathComponent().path + "/TranslateFile"
      try #require(FileManager.default.isExecutableFile(atPath: binary), "\(binary) is not built")
      return binary
    }
  }

  /// An environment with a private HOME whose providers are those in `providers`.
  static func environment(home: TemporaryDirectory, providers: String) -> [String: String] {
    [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path,
      "XDG_DATA_HOME": home.path + "/data", "XDG_CONFIG_HOME": home.path + "/config", "XDG_CACHE_HOME": home.path + "/cache",
      "TRANSLATION_HOST_PROVIDER_PATH": providers,
    ]
  }

  /// Run with a private HOME, so the default provider is the first in the
  /// build tree (Apertium), and compared with `apertium eng-spa`.
  @Test func itTranslatesEachLineWithTheDefaultProvider() throws {
    let binary = try Self.translateFile
    let home = try TemporaryDirectory()
    let environment = Self.environment(home: home, providers: Providers.buildDirectory + "/lib/translation-host/providers")
    let input = "The cat is on the table.\n\nMachine translation works offline.\n"
    let expected = try Command.run("/usr/bin/apertium", ["eng-spa"], stdin: input)
    let result = try Command.run(binary, ["en", "es"], environment: environment, stdin: input)
    #expect(result.exitCode == 0, "stderr: \(result.stderr)")
    #expect(result.stdout == expected.stdout)
    let refused = try Command.run(binary, ["en", "fr"], environment: environment, stdin: input)
    #expect(refused.exitCode == 69)
    #expect(refused.stderr.contains("does not translate this pair"))
  }

  /// Without any provider, the pair is `.unsupported` as for a pair no
  /// provider translates, but the example says what is missing instead.
  @Test(.enabled(if: !systemProvidersInstalled, "a provider installed for the whole system would be found"))
  func withoutAProviderItSaysWhatIsMissing() throws {
    let home = try TemporaryDirectory()
    var environment = Self.environment(home: home, providers: home.path + "/no-providers")
    // No translation-host on PATH either: its installation's providers would be found.
    environment["PATH"] = "/usr/bin:/bin"
    let result = try Command.run(try Self.translateFile, ["en", "es"], environment: environment, stdin: "The cat.\n")
    #expect(result.exitCode == 69)
    #expect(result.stderr.contains("no eligible provider is installed"), "stderr: \(result.stderr)")
    #expect(!result.stderr.contains("does not translate this pair"), "stderr: \(result.stderr)")
  }

  static var systemProvidersInstalled: Bool {
    ["/usr/local/lib/translation-host/providers", "/usr/lib/translation-host/providers"].contains {
      !((try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? []).isEmpty
    }
  }
}
