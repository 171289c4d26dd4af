import Foundation
import TestSupport
import Testing

/// The C walkthrough in Documentation/ABI.md is a working provider: the code
/// blocks of its section, put together as written, compile and run through
/// the host.
@Suite(.tags(.endToEnd)) struct DocumentationTests {
  private func walkthroughSource() throws -> String {
    let page = try String(contentsOfFile: CFixture.packageRoot + "/Documentation/ABI.md", encoding: .utf8)
    let walkthrough = try #require(page.range(of: "## Walkthrough")).upperBound
    // Its section only: later sections show C that is not part of it (ABI 1's tables).
    let end = page[walkthrough...].range(of: "\n## ")?.lowerBound ?? page.endIndex
    return page[walkthrough..<end].components(separatedBy: "```c\n").dropFirst()
      .map { $0.components(separatedBy: "```")[0] }
      .joined(separator: "\n")
  }

  @Test func theCWalkthroughIsAWorkingProvider() throws {
    let directory = try TemporaryDirectory()
    let source = try directory.write("shout.c", try walkthroughSource())
    let library = try CFixture.compile(source, abi: .v2, name: "libShout", in: directory)
    let bundle = try BundleFixture(name: "Shout").write(name: "Shout", in: directory, library: library)

    let host = try Host()
    let translated = try host.run("translate", "--provider", bundle, "--from", "en", "--to", "en-x-shout", "hello, world")
    #expect(translated.stdout == "HELLO, WORLD\n")
    let replaced = try host.run(
      "run", "--provider", bundle, "--text", "hello", "--replace", "--press", "Shout", "--press", "Replace with Translation")
    #expect(replaced.stdout == "HELLO")
    #expect(replaced.exitCode == 0)
  }
}

/// `Plugins/Reverse` is Apple's sample from the seed document, verbatim but
/// for `import SwiftUI`; this keeps it so.
@Suite struct AppleSampleTests {
  static let seed = CFixture.packageRoot + "/../shared/seeds/default-translation-app.md"

  @Test(.enabled(if: FileManager.default.fileExists(atPath: seed), "the shared/ folder is not beside this checkout"))
  func reverseIsAppleSampleWithoutTheSwiftUIImport() throws {
    let page = try String(contentsOfFile: Self.seed, encoding: .utf8)
    let block = try #require(page.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
    let expected = block.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "import SwiftUI" }.joined(
      separator: "\n")
    let actual = try String(
      contentsOfFile: CFixture.packageRoot + "/Plugins/Reverse/MyTranslationExtension.swift", encoding: .utf8)
    #expect(actual == expected)
  }
}

/// The README's Package.swift excerpt is what `new-provider --swift` writes
/// (which `ProviderAuthoringTests` builds), line for line.
@Suite(.tags(.endToEnd)) struct ReadmeManifestTests {
  @Test func theReadmeManifestExcerptIsWhatNewProviderWrites() throws {
    let readme = try String(contentsOfFile: CFixture.packageRoot + "/README.md", encoding: .utf8)
    let block = try #require(
      readme.components(separatedBy: "```swift\n").first {
        $0.hasPrefix("// Package.swift (excerpt of what new-provider writes)")
      }?
      .components(separatedBy: "```").first)
    let folder = try TemporaryDirectory()
    let host = try Host()
    let created = try host.run(
      "new-provider", "MyProvider", "--swift", folder.path + "/MyProvider", "--sdk", "/path/to/translation-host")
    try #require(created.exitCode == 0, "\(created.stderr)")
    let manifest = try String(contentsOfFile: folder.path + "/MyProvider/Package.swift", encoding: .utf8)
    let written = Set(manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !line.hasPrefix("//") {
      // The excerpt ends some lines with a comma where the manifest lists one item.
      let bare = line.hasSuffix(",") ? String(line.dropLast()) : line
      let codeOnly = bare.components(separatedBy: "  //")[0]
      #expect(written.contains(codeOnly) || written.contains(codeOnly + ","), "README line not in the manifest: \(line)")
    }
  }
}
