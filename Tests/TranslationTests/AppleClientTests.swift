import Foundation
import TestSupport
import Testing

/// App code written for Apple's Translation framework (`Tests/Fixtures/AppleClients`)
/// compiles unchanged in Swift 6 language mode, in an app package outside
/// this checkout, and works against Apertium through the resident service:
/// the app's own folder and `PATH` lead to no translation-host at all.
@Suite(.serialized) struct AppleClientTests {
  static let clients = CFixture.packageRoot + "/Tests/Fixtures/AppleClients"

  /// An app package whose one executable is made of the client files,
  /// depending on this checkout's `Translation` product; its build is kept
  /// between runs of `make test` (`PackageBuildFolder`), its files are new.
  static func appPackage() throws -> PackageBuildFolder {
    let folder = try PackageBuildFolder(name: "apple-client-app")
    let root = URL(fileURLWithPath: CFixture.packageRoot).standardizedFileURL
    try folder.write(
      "Package.swift",
      """
      // swift-tools-version: 6.1
      import PackageDescription

      let package = Package(
        name: "ClientApp",
        platforms: [.macOS(.v15)],
        dependencies: [.package(path: "\(root.path)")],
        targets: [
          .executableTarget(
            name: "ClientApp", dependencies: [.product(name: "Translation", package: "\(root.lastPathComponent)")],
            swiftSettings: [.swiftLanguageMode(.v6)])
        ]
      )
      """)
    for file in try FileManager.default.contentsOfDirectory(atPath: clients) where file.hasSuffix(".swift") {
      try folder.write("Sources/ClientApp/" + file, try Data(contentsOf: URL(fileURLWithPath: clients + "/" + file)))
    }
    return folder
  }

  @Test func appleStyleClientsCompileUnchangedAndAreServedByTheService() throws {
    let app = try Self.appPackage()
    // The toolchain `make test` runs (`SWIFT`), found on PATH as the Makefile finds it;
    // at the lowest priority, so that the tests running beside it keep their timing.
    let swift = ProcessInfo.processInfo.environment["SWIFT"] ?? "swift"
    let build = try Command.run("/usr/bin/nice", ["-n", "19", swift, "build", "--package-path", app.path])
    try #require(build.exitCode == 0, "swift build failed:\n\(build.stdout)\n\(build.stderr)")

    let service = try ServiceProcess(environment: [
      "TRANSLATION_HOST_PROVIDER_PATH": Providers.buildDirectory + "/lib/translation-host/providers", "LANG": "C.UTF-8",
    ])
    try service.start()
    defer { service.stop() }
    #expect(service.runners().isEmpty)
    // What `translate` answers for each text is what the app must print.
    func translated(_ text: String) throws -> String {
      try service.run(["translate", "--from", "en", "--to", "es", text]).stdout.trimmingCharacters(in: .newlines)
    }
    var environment = service.environment
    environment["PATH"] = "/usr/bin:/bin"
    let run = try Command.run(app.path + "/.build/debug/ClientApp", [], environment: environment)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let expected = [
      "article: \(try translated("The cat is on the table.")) | \(try translated("The house is big."))",
      "article runs: 2, version: 1, error: none",
      "phrasebook availability: installed",
      "phrasebook: \(try translated("Good morning.")) | \(try translated("Where is the station?"))",
      "detected: en -> \(try translated("The weather is very good today in the city."))",
      "headless ready: true, strategy: highFidelity",
      "headless: \(try translated("My brother reads a book."))",
      "headless after stop refused: true",
      "editor: Hello, presented: false",
      "observable: \(try translated("The weather is very good today in the city.")), supported: true, "
        + "preview: Hola nil",
      "supported languages listed once: true",
    ]
    #expect(run.stdout.split(separator: "\n").map(String.init) == expected)
    // The service's runner did the work: the app started none of its own.
    #expect(!service.runners().isEmpty)
  }
}
