import Foundation
import Testing

@testable import TranslationViewTree

/// Documentation/ABI.md's table of the document's own keys and the C
/// header's `render` comment name every top-level key a view tree has.
@Suite struct ViewTreeDocumentationTests {
  private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// The keys of an encoded tree with every optional key present.
  private static let keys: [String] = {
    let tree = ViewTree(root: .text("Hallo"), settling: true)
    let object = try? JSONSerialization.jsonObject(with: Data(try! tree.jsonData())) as? [String: Any]
    return (object?.keys).map { $0.sorted() } ?? []
  }()

  @Test func everyKeyIsEncoded() {
    #expect(Self.keys == ["root", "settling", "version"])
  }

  @Test(arguments: keys)
  func theABIPageHasARowForIt(key: String) throws {
    let page = try String(contentsOfFile: Self.packageRoot + "/Documentation/ABI.md", encoding: .utf8)
    #expect(page.contains("\n| `\(key)` |") || page.contains("\n| `\(key)` (2.0) |"))
  }

  @Test(arguments: keys)
  func theHeaderNamesIt(key: String) throws {
    let header = try String(
      contentsOfFile: Self.packageRoot + "/Sources/CTranslationProvider/include/translation_provider.h", encoding: .utf8)
    let render = try #require(header.range(of: "Produces the scene's current view tree"))
    #expect(header[render.lowerBound...].prefix(600).contains("\"\(key)\""))
  }
}
