import FoundationEssentials
import TestSupport
import Testing
@testable import TranslationHostCore

@Suite struct ManifestTests {
  @Test func readsAValidBundle() throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Good")
    fixture.info["CFBundleDisplayName"] = .string("Good Translator")
    fixture.info[ManifestKey.networkAccess] = .boolean(true)
    let path = try fixture.write(name: "Good", in: directory)
    let bundle = try ProviderBundle.load(at: path)
    #expect(bundle.identifier == "org.example.good")
    #expect(bundle.displayName == "Good Translator")
    #expect(bundle.executablePath == path + "/libGood.so")
    #expect(bundle.allowsNetworkAccess)
    #expect(bundle.isTranslationApp)
    #expect(bundle.warnings.isEmpty)
  }

  @Test func readsABinaryPropertyList() throws {
    let directory = try TemporaryDirectory()
    let path = try BundleFixture(name: "Binary").write(name: "Binary", in: directory)
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    let info: [String: BinaryInfoValue] = [
      "CFBundleIdentifier": .text("org.example.binary"), "CFBundleName": .text("Binary"),
      "CFBundleShortVersionString": .text("2.0"), "CFBundleExecutable": .text("libBinary.so"),
      "EXAppExtensionAttributes": .attributes(["EXExtensionPointIdentifier": "com.apple.public.translation-ui-provider"]),
    ]
    try encoder.encode(info).write(to: URL(fileURLWithPath: path + "/Info.plist"))
    #expect(try ProviderBundle.load(at: path).version == "2.0")
  }

  @Test func networkAccessKeyOfTheWrongTypeMeansNoNetwork() throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Yes")
    fixture.info[ManifestKey.networkAccess] = .string("YES")
    let bundle = try ProviderBundle.load(at: try fixture.write(name: "Yes", in: directory))
    #expect(!bundle.allowsNetworkAccess)
    #expect(bundle.warnings == [.wrongType(file: bundle.path + "/Info.plist", key: ManifestKey.networkAccess, expected: "boolean", found: "string")])
  }

  @Test(arguments: [nil, BundleFixture.PlistValue.boolean(false), .string("true")])
  func missingOrFalseEntitlementIsNotATranslationApp(_ value: BundleFixture.PlistValue?) throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Plain")
    fixture.entitlements = value.map { [ManifestKey.translationApp: $0] } ?? [:]
    #expect(try !ProviderBundle.load(at: try fixture.write(name: "Plain", in: directory)).isTranslationApp)
  }

  struct BrokenManifest: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var change: @Sendable (inout BundleFixture) -> Void
    var expected: @Sendable (String) -> ManifestError
  }

  static let brokenManifests: [BrokenManifest] = [
    BrokenManifest(testDescription: "missing identifier", change: { $0.info["CFBundleIdentifier"] = nil }) {
      .missingKey(file: $0 + "/Info.plist", key: "CFBundleIdentifier")
    },
    BrokenManifest(testDescription: "identifier not reverse-DNS", change: { $0.info["CFBundleIdentifier"] = .string("reverse") }) {
      .invalidValue(file: $0 + "/Info.plist", key: "CFBundleIdentifier", value: "reverse", reason: "is not a reverse-DNS identifier such as 'org.example.reverse'")
    },
    BrokenManifest(testDescription: "name of the wrong type", change: { $0.info["CFBundleName"] = .integer(3) }) {
      .wrongType(file: $0 + "/Info.plist", key: "CFBundleName", expected: "string", found: "integer")
    },
    BrokenManifest(testDescription: "executable with a path", change: { $0.info["CFBundleExecutable"] = .string("../libX.so") }) {
      .invalidValue(file: $0 + "/Info.plist", key: "CFBundleExecutable", value: "../libX.so", reason: "must be a file name inside the bundle, without '/' or '..'")
    },
    BrokenManifest(testDescription: "executable absent", change: { $0.writesExecutable = false }) {
      .missingFile($0 + "/libBroken.so")
    },
    BrokenManifest(testDescription: "wrong extension point", change: {
      $0.info["EXAppExtensionAttributes"] = .dictionary(["EXExtensionPointIdentifier": .string("com.apple.share-services")])
    }) {
      .invalidValue(file: $0 + "/Info.plist", key: "EXAppExtensionAttributes.EXExtensionPointIdentifier", value: "com.apple.share-services", reason: "must be 'com.apple.public.translation-ui-provider'")
    },
    BrokenManifest(testDescription: "no extension attributes", change: { $0.info["EXAppExtensionAttributes"] = nil }) {
      .missingKey(file: $0 + "/Info.plist", key: "EXAppExtensionAttributes")
    },
    BrokenManifest(testDescription: "no entitlements file", change: { $0.entitlements = nil }) {
      .entitlementsCount(bundle: $0, found: [])
    },
    BrokenManifest(testDescription: "two entitlements files", change: { $0.extraFiles["Other.entitlements"] = BundleFixture.plist([:]) }) {
      .entitlementsCount(bundle: $0, found: ["Broken.entitlements", "Other.entitlements"])
    },
  ]

  @Test(arguments: brokenManifests) func reportsBrokenManifests(_ broken: BrokenManifest) throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Broken")
    broken.change(&fixture)
    let path = try fixture.write(name: "Broken", in: directory)
    #expect(throws: broken.expected(path)) { try ProviderBundle.load(at: path) }
  }

  @Test(arguments: ["", "not a plist", "<plist><array/></plist>", "bplist00\u{1}\u{2}"])
  func reportsUnreadableInfoPlists(_ contents: String) throws {
    let directory = try TemporaryDirectory()
    let path = try BundleFixture(name: "Garbled").write(name: "Garbled", in: directory)
    try directory.write("Garbled.translationprovider/Info.plist", contents)
    #expect {
      try ProviderBundle.load(at: path)
    } throws: { error in
      guard case .unreadable(let file, _) = error as? ManifestError else { return false }
      return file == path + "/Info.plist"
    }
  }

  @Test func diagnosticsNameTheFileAndKeyAndSayWhatToDo() {
    let message = ManifestError.wrongType(file: "/p/X.translationprovider/Info.plist", key: "CFBundleName", expected: "string", found: "integer").description
    #expect(message == "/p/X.translationprovider/Info.plist: key 'CFBundleName' is of type integer but must be of type string; change its type")
  }
}

/// Values of a binary Info.plist written by `PropertyListEncoder`.
private enum BinaryInfoValue: Encodable {
  case text(String)
  case attributes([String: String])

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .text(let value): try container.encode(value)
    case .attributes(let value): try container.encode(value)
    }
  }
}
