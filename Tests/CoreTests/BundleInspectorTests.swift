import FoundationEssentials
import Glibc
import TestSupport
import Testing

@testable import Core
@testable import System

@Suite struct BundleInspectorTests {
  @Test func readsAValidBundle() throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Good")
    fixture.info["CFBundleDisplayName"] = .string("Good Translator")
    fixture.info[ManifestKey.networkAccess] = .boolean(true)
    let path = try fixture.write(name: "Good", in: directory)
    let inspection = BundleInspector.inspect(path)
    #expect(inspection.problems == [])
    #expect(inspection.isEligible)
    let bundle = try #require(inspection.manifest)
    #expect(bundle.identifier == "org.example.good")
    #expect(bundle.displayName == "Good Translator")
    #expect(bundle.executablePath == path + "/libGood.so")
    #expect(bundle.allowsNetworkAccess)
    #expect(inspection.files.map(\.name) == [".", "Good.entitlements", "Info.plist", "libGood.so"])
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
    let inspection = BundleInspector.inspect(path)
    #expect(inspection.problems == [])
    #expect(inspection.manifest?.version == "2.0")
  }

  @Test func networkAccessKeyOfTheWrongTypeMeansNoNetworkButStaysEligible() throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Yes")
    fixture.info[ManifestKey.networkAccess] = .string("YES")
    let path = try fixture.write(name: "Yes", in: directory)
    let inspection = BundleInspector.inspect(path)
    #expect(inspection.manifest?.allowsNetworkAccess == false)
    #expect(
      inspection.problems == [
        .wrongType(file: path + "/Info.plist", key: ManifestKey.networkAccess, expected: "boolean", found: "string")
      ])
    #expect(inspection.isEligible)
  }

  /// A bundle broken in one way, and exactly what inspection must say about it.
  struct Broken: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var change: @Sendable (inout BundleFixture) -> Void = { _ in }
    /// Runs after the bundle is written, with its path.
    var after: @Sendable (String) throws -> Void = { _ in }
    var expected: @Sendable (String) -> [ManifestError]
  }

  static let info = "/Info.plist"

  static let broken: [Broken] = [
    Broken(testDescription: "Info.plist missing", after: { try FileManager.default.removeItem(atPath: $0 + info) }) {
      [.missingFile($0 + info)]
    },
    Broken(testDescription: "Info.plist not a property list", after: { try write("not a plist", to: $0 + info) }) {
      [.unreadable($0 + info, reason: "not a valid property list: line 1: more after the top-level value")]
    },
    Broken(testDescription: "Info.plist is an array", after: { try write("<plist><array/></plist>", to: $0 + info) }) {
      [.unreadable($0 + info, reason: "the top level is a array, not a dictionary")]
    },
    Broken(
      testDescription: "Info.plist larger than 1 MiB",
      after: { try write(String(repeating: " ", count: (1 << 20) + 1), to: $0 + info) }
    ) {
      [.tooLarge($0 + info, size: (1 << 20) + 1)]
    },
    Broken(
      testDescription: "Info.plist nested 10,000 deep",
      after: {
        try write(
          "<plist>" + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000) + "</plist>",
          to: $0 + info)
      }
    ) { [.tooComplex($0 + info)] },
    Broken(
      testDescription: "Info.plist of 20,000 nested <plist>",
      after: {
        try write(String(repeating: "<plist>", count: 20_000) + String(repeating: "</plist>", count: 20_000), to: $0 + info)
      }
    ) {
      [
        .unreadable(
          $0 + info,
          reason:
            "not a valid property list: line 1: <plist> inside a property list; write one <plist> around the top-level value")
      ]
    },
    Broken(
      testDescription: "Info.plist with deep arrays behind a processing instruction",
      after: {
        try write(
          "<?x " + String(repeating: "</array>", count: 2_000) + "?><plist>" + String(repeating: "<array>", count: 2_000)
            + "</plist>", to: $0 + info)
      }
    ) { [.tooComplex($0 + info)] },
    Broken(
      testDescription: "Info.plist with a key written twice", change: { $0.info["CFBundleName"] = .string("A") },
      after: {
        let text = try String(contentsOfFile: $0 + info, encoding: .utf8)
        try write(
          text.replacingOccurrences(
            of: "<key>CFBundleName</key><string>A</string>",
            with: "<key>CFBundleName</key><string>A</string><key>CFBundleName</key><string>B</string>"), to: $0 + info)
      }
    ) { [.duplicateKey(file: $0 + info, key: "CFBundleName")] },
    Broken(
      testDescription: "entitlements with the translation-app key twice",
      after: {
        try write(
          "{ \"com.apple.developer.translation-app\" = 1; \"com.apple.developer.translation-app\" = 0; }",
          to: $0 + "/Broken.entitlements")
      }
    ) { [.duplicateKey(file: $0 + "/Broken.entitlements", key: "com.apple.developer.translation-app")] },
    Broken(
      testDescription: "binary Info.plist that contains itself",
      after: { try Data(selfContainingBinaryPlist).write(to: URL(fileURLWithPath: $0 + info)) }
    ) {
      [.tooComplex($0 + info)]
    },
    Broken(
      testDescription: "Info.plist is a symbolic link loop",
      after: {
        try FileManager.default.removeItem(atPath: $0 + info)
        symlink($0 + info, $0 + info)
      }
    ) { [.resolvesOutside($0 + info, target: "nothing")] },
    Broken(testDescription: "identifier missing", change: { $0.info["CFBundleIdentifier"] = nil }) {
      [.missingKey(file: $0 + info, key: "CFBundleIdentifier")]
    },
    Broken(testDescription: "identifier not reverse-DNS", change: { $0.info["CFBundleIdentifier"] = .string("reverse") }) {
      [
        .invalidValue(
          file: $0 + info, key: "CFBundleIdentifier", value: "reverse",
          reason: "is not a reverse-DNS identifier such as 'org.example.reverse'")
      ]
    },
    Broken(testDescription: "name is an integer", change: { $0.info["CFBundleName"] = .integer(3) }) {
      [.wrongType(file: $0 + info, key: "CFBundleName", expected: "string", found: "integer")]
    },
    Broken(
      testDescription: "version missing, executable missing",
      change: {
        $0.info["CFBundleShortVersionString"] = nil
        $0.info["CFBundleExecutable"] = nil
      }
    ) {
      [.missingKey(file: $0 + info, key: "CFBundleShortVersionString"), .missingKey(file: $0 + info, key: "CFBundleExecutable")]
    },
    Broken(testDescription: "executable with a path", change: { $0.info["CFBundleExecutable"] = .string("lib/libX.so") }) {
      [
        .invalidValue(
          file: $0 + info, key: "CFBundleExecutable", value: "lib/libX.so",
          reason: "must be a file name inside the bundle, without '/', '..' or control characters")
      ]
    },
    Broken(testDescription: "executable is ..", change: { $0.info["CFBundleExecutable"] = .string("..") }) {
      [
        .invalidValue(
          file: $0 + info, key: "CFBundleExecutable", value: "..",
          reason: "must be a file name inside the bundle, without '/', '..' or control characters")
      ]
    },
    Broken(testDescription: "executable with a newline", change: { $0.info["CFBundleExecutable"] = .string("libX.so\nforged") }) {
      [
        .invalidValue(
          file: $0 + info, key: "CFBundleExecutable", value: "libX.so\nforged",
          reason: "must be a file name inside the bundle, without '/', '..' or control characters")
      ]
    },
    Broken(testDescription: "executable absent", change: { $0.writesExecutable = false }) {
      [.missingExecutable($0 + "/libBroken.so")]
    },
    Broken(testDescription: "executable not ELF", after: { try write("#!/bin/sh\n", to: $0 + "/libBroken.so") }) {
      [.notELF($0 + "/libBroken.so")]
    },
    Broken(
      testDescription: "executable for AArch64",
      after: {
        var header = BundleFixture.elfHeader
        header[18] = 183
        try Data(header).write(to: URL(fileURLWithPath: $0 + "/libBroken.so"))
      }
    ) {
      [.wrongArchitecture($0 + "/libBroken.so", found: "AArch64 64-bit little-endian", expected: "x86-64 64-bit little-endian")]
    },
    Broken(
      testDescription: "executable is a program, not a library",
      after: {
        var header = BundleFixture.elfHeader
        header[16] = 2
        try Data(header).write(to: URL(fileURLWithPath: $0 + "/libBroken.so"))
      }
    ) { [.notELF($0 + "/libBroken.so")] },
    Broken(
      testDescription: "wrong extension point",
      change: {
        $0.info["EXAppExtensionAttributes"] = .dictionary(["EXExtensionPointIdentifier": .string("com.apple.share-services")])
      }
    ) {
      [
        .invalidValue(
          file: $0 + info, key: "EXAppExtensionAttributes.EXExtensionPointIdentifier", value: "com.apple.share-services",
          reason: "must be 'com.apple.public.translation-ui-provider'")
      ]
    },
    Broken(testDescription: "extension attributes missing", change: { $0.info["EXAppExtensionAttributes"] = nil }) {
      [.missingKey(file: $0 + info, key: "EXAppExtensionAttributes")]
    },
    Broken(testDescription: "extension attributes a string", change: { $0.info["EXAppExtensionAttributes"] = .string("x") }) {
      [.wrongType(file: $0 + info, key: "EXAppExtensionAttributes", expected: "dictionary", found: "string")]
    },
    Broken(testDescription: "no entitlements file", change: { $0.entitlements = nil }) {
      [.entitlementsCount(bundle: $0, found: [])]
    },
    Broken(testDescription: "two entitlements files", change: { $0.extraFiles["Other.entitlements"] = BundleFixture.plist([:]) })
    {
      [.entitlementsCount(bundle: $0, found: ["Broken.entitlements", "Other.entitlements"])]
    },
    Broken(testDescription: "entitlement false", change: { $0.entitlements = [ManifestKey.translationApp: .boolean(false)] }) {
      [.notTranslationApp(file: $0 + "/Broken.entitlements")]
    },
    Broken(testDescription: "entitlement absent", change: { $0.entitlements = [:] }) {
      [.notTranslationApp(file: $0 + "/Broken.entitlements")]
    },
    Broken(
      testDescription: "entitlements not a property list", after: { try write("<plist><dict>", to: $0 + "/Broken.entitlements") }
    ) {
      [
        .unreadable(
          $0 + "/Broken.entitlements", reason: "not a valid property list: line 1: the file ends inside a <dict> or <array>")
      ]
    },
    Broken(testDescription: "bundle writable by group", after: { chmod($0, 0o775) }) { [.writableByOthers($0, mode: 0o40775)] },
    Broken(testDescription: "Info.plist writable by everyone", after: { chmod($0 + info, 0o666) }) {
      [.writableByOthers($0 + info, mode: 0o100666)]
    },
    Broken(testDescription: "executable owned by another user", after: { chown($0 + "/libBroken.so", 12345, 12345) }) {
      [.foreignOwner($0 + "/libBroken.so", owner: 12345)]
    },
    Broken(
      testDescription: "bundle is a file",
      after: {
        try FileManager.default.removeItem(atPath: $0)
        try write("", to: $0)
      }
    ) { [.notADirectory($0)] },
    // Identity: what a bundle holds must be its own (each failed before the check was written).
    Broken(
      testDescription: "Info.plist is a link out of the bundle",
      after: {
        try FileManager.default.moveItem(atPath: $0 + info, toPath: $0 + "/../elsewhere.plist")
        symlink($0 + "/../elsewhere.plist", $0 + info)
      }
    ) { [.resolvesOutside($0 + info, target: Syscalls.realPath($0 + "/../elsewhere.plist")!)] },
    Broken(
      testDescription: "a file in a subfolder links out, dangling",
      after: {
        try FileManager.default.createDirectory(atPath: $0 + "/lib", withIntermediateDirectories: false)
        symlink("/nonexistent/data", $0 + "/lib/data")
      }
    ) { [.resolvesOutside($0 + "/lib/data", target: "nothing")] },
    Broken(
      testDescription: "the executable has a second name outside the bundle",
      after: { link($0 + "/libBroken.so", $0 + "/../libBroken-copy.so") }
    ) { [.hardLinked($0 + "/libBroken.so", links: 2)] },
    Broken(testDescription: "a named pipe in the bundle", after: { mkfifo($0 + "/pipe", 0o600) }) {
      [.unsupportedFile($0 + "/pipe", reason: "is a socket, device or pipe; a bundle holds only folders and regular files")]
    },
  ]

  @Test(arguments: broken) func reportsEachProblemPrecisely(_ test: Broken) throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Broken")
    test.change(&fixture)
    let path = try fixture.write(name: "Broken", in: directory)
    try test.after(path)
    let inspection = BundleInspector.inspect(path)
    #expect(inspection.problems == test.expected(path))
    #expect(!inspection.isEligible)
  }

  /// A bundle folder that is a symbolic link (to a bundle a provider wrote
  /// in its container, say) is refused, and so is one in the containers.
  @Test func aBundleFolderThatIsALinkIsRefused() throws {
    let directory = try TemporaryDirectory()
    let real = try BundleFixture(name: "Real").write(name: "Real", in: directory)
    let link = directory.path + "/Link.translationprovider"
    symlink(real, link)
    let inspection = BundleInspector.inspect(link)
    #expect(inspection.problems == [.resolvesOutside(link, target: Syscalls.realPath(real)!)])
    #expect(inspection.manifest == nil)
  }

  @Test func aBundleInTheContainersIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = try BundleFixture(name: "Written").write(name: "Written", in: directory)
    let inspection = BundleInspector.inspect(path, containers: directory.path)
    #expect(inspection.problems == [.insideContainer(path, containers: directory.path)])
    #expect(!inspection.isEligible)
  }

  @Test func aLinkThatStaysInsideTheBundleIsFine() throws {
    let directory = try TemporaryDirectory()
    let path = try BundleFixture(name: "Linked").write(name: "Linked", in: directory)
    try FileManager.default.createDirectory(atPath: path + "/lib", withIntermediateDirectories: false)
    try FileManager.default.moveItem(atPath: path + "/libLinked.so", toPath: path + "/lib/libLinked.so")
    symlink("lib/libLinked.so", path + "/libLinked.so")
    let inspection = BundleInspector.inspect(path)
    #expect(inspection.problems == [])
    #expect(inspection.isEligible)
  }

  @Test(arguments: [
    (
      ManifestError.wrongType(
        file: "/p/X.translationprovider/Info.plist", key: "CFBundleName", expected: "string", found: "integer"),
      "/p/X.translationprovider/Info.plist: key 'CFBundleName' is of type integer but must be of type string; change its type"
    ),
    (
      ManifestError.duplicateKey(file: "/p/X.translationprovider/Info.plist", key: "TPSettings[0].Key"),
      "/p/X.translationprovider/Info.plist: key 'TPSettings[0].Key' appears more than once in the same dictionary, and other tools may read the other value; keep one"
    ),
  ])
  func diagnosticsNameTheFileAndKeyAndSayWhatToDo(_ problem: ManifestError, _ message: String) {
    #expect(problem.description == message)
  }

  private static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// A binary property list whose top-level array contains itself.
  static let selfContainingBinaryPlist: [UInt8] = {
    var bytes = Array("bplist00".utf8)
    bytes += [0xA1, 0x00]  // object 0 at offset 8: an array of one reference, to object 0
    let tableOffset = bytes.count
    bytes += [0x08]  // offset table: object 0 at offset 8
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]  // unused, offset size 1, reference size 1
    bytes += [0, 0, 0, 0, 0, 0, 0, 1]  // one object
    bytes += [0, 0, 0, 0, 0, 0, 0, 0]  // top object 0
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(tableOffset)]
    return bytes
  }()
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

@Suite struct ProviderSettingsDeclarationTests {
  @Test func aKeyDeclaredTwiceIsReportedAndKeptOnce() throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Twice")
    let setting = BundleFixture.PlistValue.dictionary([
      "Key": .string("endpoint"), "Title": .string("Server"), "Type": .string("string"), "Default": .string("x"),
    ])
    fixture.info["TPSettings"] = .array([setting, setting])
    let path = try fixture.write(name: "Twice", in: directory)
    let inspection = BundleInspector.inspect(path)
    #expect(inspection.manifest?.settings.map(\.key) == ["endpoint"])
    #expect(
      inspection.problems.contains(
        .invalidValue(
          file: path + "/Info.plist", key: "TPSettings[1].Key", value: "endpoint", reason: "is declared twice; keep one")))
    let bundle = try #require(inspection.manifest)
    #expect(try SettingsStore(folder: directory.path + "/settings").effectiveJSON(for: bundle) == #"{"endpoint":"x"}"#)
  }

  @Test func aDefaultOfTheWrongTypeIsReported() throws {
    let directory = try TemporaryDirectory()
    var fixture = BundleFixture(name: "Typed")
    fixture.info["TPSettings"] = .array([
      .dictionary(["Key": .string("n"), "Title": .string("N"), "Type": .string("integer"), "Default": .string("ten")])
    ])
    let path = try fixture.write(name: "Typed", in: directory)
    let inspection = BundleInspector.inspect(path)
    #expect(inspection.manifest?.settings == [])
    #expect(
      inspection.problems == [
        .invalidValue(
          file: path + "/Info.plist", key: "TPSettings[0].Default", value: "ten", reason: "must be an integer, as Type says")
      ])
  }
}
