import Foundation
import Testing

@testable import TranslationUIProvider
@testable import TranslationViewTree

/// `String(localized:)`, `LocalizedStringResource` and the literal keys of
/// `Text`, `Button` and `Label` read a bundle's own `.lproj` folders.
@Suite struct LocalizedStringTests {
  /// A bundle folder with English and Spanish strings.
  private static let bundle: Bundle = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "LocalizedStringTests-\(getpid()).translationprovider")
    let tables: [String: String] = [
      "es.lproj/Localizable.strings": """
      "Translated by %@" = "Traducido por %@";
      "%lld words" = "%lld palabras";
      "%@ of %@" = "%2$@ de %1$@";
      "100%% of %@" = "el 100 %% de %@";
      "Wrong kind %@" = "Tipo equivocado %lld";
      "Replace with Translation" = "Reemplazar con la traducción";
      "greeting" = "Hola";
      """,
      "es.lproj/Other.strings": "\"Copy\" = \"Copiar\";\n",
      "en.lproj/Localizable.strings": "\"greeting\" = \"Hello\";\n",
    ]
    for (path, text) in tables {
      let file = folder.appendingPathComponent(path)
      try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try? text.write(to: file, atomically: true, encoding: .utf8)
    }
    return Bundle(path: folder.path)!
  }()

  private static func localized(
    _ value: String.LocalizationValue, key: String? = nil, table: String? = nil, in languages: [String]
  ) -> String {
    String.localized(
      key: key ?? value.key, default: value, table: table, bundle: bundle, locale: Locale(identifier: "en_US_POSIX"),
      languages: languages)
  }

  @Test(
    arguments: [
      ("Translated by \("example.org")", ["es-ES"], "Traducido por example.org"),
      ("Translated by \("example.org")", ["fr"], "Translated by example.org"),
      ("Translated by \("example.org")", [], "Translated by example.org"),
      ("\(3) words", ["es"], "3 palabras"),
      // An unsigned value's key is "%llu words", which the table does not have.
      ("\(UInt8(3)) words", ["es"], "3 words"),
      ("\("uno") of \("dos")", ["es"], "dos de uno"),
      ("100% of \("it")", ["es"], "el 100 % de it"),
      ("100% of \("it")", ["en"], "100% of it"),
      ("100%", ["es"], "100%"),
      // A translation whose specifier does not fit the value: the key's own text.
      ("Wrong kind \("x")", ["es"], "Wrong kind x"),
      ("Replace with Translation", ["es_ES", "en"], "Reemplazar con la traducción"),
      ("greeting", ["de", "en"], "Hello"),
      ("Not translated", ["es"], "Not translated"),
    ] as [(String.LocalizationValue, [String], String)])
  func looksUpTheBundlesStringsInTheUsersLanguage(value: String.LocalizationValue, languages: [String], expected: String) {
    #expect(Self.localized(value, in: languages) == expected)
  }

  @Test(
    arguments: [
      ("Translated by \("x")", "Translated by %@"),
      ("\(3) words, \(2.5) km, \(Float(1)) m", "%lld words, %lf km, %f m"),
      ("100% of \("x")", "100%% of %@"),
      ("100%", "100%"),
    ] as [(String.LocalizationValue, String)])
  func aLiteralsKeyHasASpecifierForEachValue(value: String.LocalizationValue, key: String) {
    #expect(value.key == key)
  }

  @Test func aTableAndADefaultValue() {
    #expect(Self.localized("Copy", table: "Other", in: ["es"]) == "Copiar")
    #expect(Self.localized("Copy", in: ["es"]) == "Copy")
    #expect(Self.localized("Hi \("Ana")", key: "greeting", in: ["es"]) == "Hola")
    #expect(Self.localized("Hi \("Ana")", key: "missing", in: ["es"]) == "Hi Ana")
  }

  @Test func theInitializersTakeABundleAndAResource() {
    // The user's languages come from the environment, which names none of these here.
    let value = String(localized: "Not translated \(7)", bundle: Self.bundle)
    #expect(value == "Not translated 7")
    let resource = LocalizedStringResource("Not translated either", bundle: .atURL(Self.bundle.bundleURL))
    #expect(String(localized: resource) == "Not translated either")
    #expect(String(localized: "absent", defaultValue: "Absent \(1)", bundle: Self.bundle) == "Absent 1")
  }

  /// A literal is a `LocalizedStringKey`, as in SwiftUI, so an
  /// interpolated `Double` fills a `%lf` (six decimals, as on iOS); a
  /// `String` is shown as it is.
  @MainActor @Test func aLiteralIsAKeyAndAStringIsNot() {
    struct Numbers: View {
      let string = "\(2.5)"
      var body: some View {
        VStack {
          Text("\(2.5) km")
          Text(string)
          Button("\(2.5)") {}
          Label("\(2.5)", systemImage: "ruler")
          Text("Hi \(Text("Ana"))")
        }
      }
    }
    let root = SceneSession(rootView: Numbers(), context: nil) {}.render().root
    #expect(root.children.map(\.visibleText) == ["2.500000 km", "2.5", "2.500000", "2.500000", "Hi Ana"])
  }

  @MainActor @Test func literalsInViewsAreKeysAndVariablesAreShownAsTheyAre() {
    struct Literals: View {
      let word = "%@ as it is"
      var body: some View {
        VStack {
          Text("\(3) words")
          Text(word)
          Text(verbatim: "%lld")
          Button("Replace with Translation") {}
          Label("Copy", systemImage: "doc.on.doc")
          Text(LocalizedStringResource("resource"))
        }
      }
    }
    let root = SceneSession(rootView: Literals(), context: nil) {}.render().root
    #expect(
      root.children.map(\.visibleText) == [
        "3 words", "%@ as it is", "%lld", "Replace with Translation", "Copy", "resource",
      ])
  }
}
