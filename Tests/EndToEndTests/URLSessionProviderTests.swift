import Foundation
import Glibc
import TestSupport
import Testing

/// `Examples/WebGlossary`, laid out by `make build`: an iOS extension that
/// calls a web API with URLSession (a class entry point with stored
/// properties, settings, localized strings, UserDefaults), against a server
/// the test starts on 127.0.0.1 and stops by its process id.
@Suite(.serialized, .tags(.endToEnd)) struct URLSessionProviderTests {
  static let bundle = Host.buildDirectory + "/examples/WebGlossary.translationprovider"
  static let server = CFixture.packageRoot + "/Tests/Fixtures/glossary_server.py"

  /// The glossary server on a free port of 127.0.0.1, listening.
  private func startServer(in folder: TemporaryDirectory) throws -> (BackgroundProcess, UInt16) {
    let port = BackgroundProcess.freePort()
    let server = try BackgroundProcess("/usr/bin/python3", [Self.server, String(port)], log: folder.path + "/server.log")
    try eventually("the glossary server to listen on port \(port)", timeout: .seconds(20), interval: .milliseconds(50)) {
      BackgroundProcess.isListening(port)
    }
    return (server, port)
  }

  /// A host whose WebGlossary provider asks the server at `port`.
  private func host(port: UInt16, program: String = Host.executable) throws -> Host {
    let host = try Host()
    let set = try host.run(program: program, ["config", Self.bundle, "endpoint", "http://127.0.0.1:\(port)"])
    #expect(set.exitCode == 0, "\(set.stderr)")
    return host
  }

  /// Each run is a new runner, so each run loads Foundation and
  /// FoundationNetworking into a new sandbox, starts a session, and ends
  /// while libcurl's threads may still be winding down.
  @Test func twoHundredTranslationsInARowNeverCrash() throws {
    let folder = try TemporaryDirectory()
    let (server, port) = try startServer(in: folder)
    defer { server.stop() }
    let host = try host(port: port)
    var failures: [String] = []
    for run in 1...200 {
      let result = try host.run("translate", "--provider", Self.bundle, "--from", "en", "--to", "es", "Hello, world!")
      if result.stdout != "hola mundo\n" || result.exitCode != 0 {
        failures.append("run \(run): exit \(result.exitCode), stdout '\(result.stdout)', stderr \(result.stderr)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of 200 runs failed; first: \(failures.first ?? "")")
  }

  /// The scene: `.task` asks the server with `await session.data(for:)`,
  /// and enables Replace when the answer is there (no progress indicator:
  /// the press waits for the scene to settle); its title and button come
  /// from the bundle's own `.lproj` folders.
  @Test(arguments: [
    (language: "C.UTF-8", replace: "Replace with Translation"),
    (language: "es_ES.UTF-8", replace: "Reemplazar con la traducción"),
  ])
  func theSceneWaitsForItsTaskAndSpeaksTheUsersLanguage(language: String, replace: String) throws {
    let folder = try TemporaryDirectory()
    let (server, port) = try startServer(in: folder)
    defer { server.stop() }
    var host = try host(port: port)
    host.environment["LANG"] = language
    for _ in 1...5 {
      let result = try host.run(
        "run", "--provider", Self.bundle, "--headless", "--replace", "--text", "The cat is on the table.", "--press", replace)
      #expect(result.stdout == "el gato es en el mesa", "\(result.stderr)")
      #expect(result.exitCode == 0)
    }
  }

  @Test func validatePassesAndItsStateLandsInTheContainer() throws {
    let folder = try TemporaryDirectory()
    let (server, port) = try startServer(in: folder)
    defer { server.stop() }
    let host = try host(port: port)
    for _ in 1...10 {
      let result = try host.run("validate", Self.bundle)
      #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
      #expect(!result.stdout.contains("never became enabled"), "\(result.stdout)")
    }
    // UserDefaults.standard wrote into the provider's container, nowhere else.
    let container = host.home.path + "/data/translation-host/containers/org.translationhost.example.webglossary"
    let written = FileManager.default.enumerator(atPath: container)?.allObjects.compactMap { $0 as? String } ?? []
    #expect(written.contains { $0.hasSuffix(".plist") }, "container holds \(written)")
    let home = FileManager.default.enumerator(atPath: host.home.path)?.allObjects.compactMap { $0 as? String } ?? []
    #expect(home.filter { $0.hasSuffix(".plist") && !$0.hasPrefix("data/translation-host/containers/") }.isEmpty, "\(home)")
  }

  /// The same bundle without the network-access key: the sandbox cuts it
  /// off, and URLSession reports that as an error, not a crash.
  @Test func withoutTheNetworkKeyURLSessionFailsCleanly() throws {
    let folder = try TemporaryDirectory()
    let (server, port) = try startServer(in: folder)
    defer { server.stop() }
    let copy = folder.path + "/WebGlossary.translationprovider"
    try FileManager.default.copyItem(atPath: Self.bundle, toPath: copy)
    let info = copy + "/Info.plist"
    let plist = try String(contentsOfFile: info, encoding: .utf8)
      .replacingOccurrences(
        of: "\t<key>com.apple.developer.translation-ui-provider.network-access</key>\n\t<true/>\n", with: "")
    try plist.write(toFile: info, atomically: true, encoding: .utf8)
    let host = try Host()
    _ = try host.run("config", copy, "endpoint", "http://127.0.0.1:\(port)")
    let result = try host.run("translate", "--provider", copy, "--from", "en", "--to", "es", "Hello")
    #expect(result.exitCode == 70, "\(result.stderr)")
    #expect(result.stderr.contains("http://127.0.0.1:\(port)"), "\(result.stderr)")
    #expect(!result.stderr.contains("killed by"), "\(result.stderr)")
  }

  /// From an installed copy (`make install` into a staging folder), whose
  /// runner lives outside the folders every provider sees, with the bundle
  /// dropped into the prefix's providers folder and found there by its
  /// identifier: the release build of its class entry point, created
  /// through its init() (the SDK's entry point plugin), as a user installs it.
  @Test func anInstalledHostRunsIt() throws {
    let folder = try TemporaryDirectory()
    let root = folder.path + "/root"
    let install = try Command.run(
      "/usr/bin/make", ["-s", "-C", CFixture.packageRoot, "install", "DESTDIR=\(root)", "PREFIX=/usr/local"],
      environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
    try #require(install.exitCode == 0, "\(install.stderr)")
    let installed = root + "/usr/local/bin/translation-host"
    let providers = root + "/usr/local/lib/translation-host/providers"
    try FileManager.default.copyItem(atPath: Self.bundle, toPath: providers + "/WebGlossary.translationprovider")
    let identifier = "org.translationhost.example.webglossary"
    let (server, port) = try startServer(in: folder)
    defer { server.stop() }
    let host = try Host()
    let set = try host.run(program: installed, ["config", identifier, "endpoint", "http://127.0.0.1:\(port)"])
    #expect(set.exitCode == 0, "\(set.stderr)")
    let listed = try host.run(program: installed, ["list"])
    #expect(listed.stdout.contains(identifier), "\(listed.stdout)\(listed.stderr)")
    var failures: [String] = []
    for run in 1...20 {
      let result = try host.run(
        program: installed, ["translate", "--provider", identifier, "--from", "en", "--to", "es", "good morning"])
      if result.stdout != "bueno mañana\n" { failures.append("run \(run): \(result.stderr)") }
    }
    #expect(failures.isEmpty, "\(failures)")
    let scene = try host.run(
      program: installed,
      ["run", "--provider", identifier, "--headless", "--replace", "--text", "red book", "--press", "Replace with Translation"])
    #expect(scene.stdout == "rojo libro", "\(scene.stderr)")
  }
}
