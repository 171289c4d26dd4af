import Foundation
import FoundationXML
import Glibc
import TestSupport
import Testing

/// org.translationhost.Translation1 on a private session bus: the service is
/// bus-activated, called with gdbus, busctl and a Python client
/// (python3-dbus), and stops when the bus goes away.
@Suite(.serialized, .tags(.endToEnd)) struct DBusTests {
  static let errorPrefix = BusSession.name + ".Error."

  @Test func activatedByTheBusAndCalledWithGdbusAndBusctl() throws {
    let session = try BusSession()
    let outcome = try session.run(
      """
      set -e
      gdbus call --session -d \(BusSession.name) -o \(BusSession.objectPath) \
        -m \(BusSession.name).Translate "['The cat is on the table.', '']" en es ''
      busctl --user get-property \(BusSession.name) \(BusSession.objectPath) \(BusSession.name) DefaultProvider
      gdbus call --session -d \(BusSession.name) -o \(BusSession.objectPath) \
        -m \(BusSession.name).TranslateWithOptions "['The cat is on the table.']" en es \
        "{'provider': <'Apertium'>, 'timeout': <5.0>}"
      busctl --user call \(BusSession.name) \(BusSession.objectPath) \(BusSession.name) Detect s \
        'The cat is on the table and the dog sleeps in the garden.'
      gdbus introspect --session -d \(BusSession.name) -o \(BusSession.objectPath) --xml > '\(session.folder.path)/introspected.xml'
      """)
    let lines = outcome.result.stdout.split(separator: "\n").map(String.init)
    #expect(outcome.result.exitCode == 0, "\(outcome.result.stderr)")
    #expect(lines.first == "(['El gato es en la mesa.', ''],)", "\(outcome.result.stdout)")
    #expect(lines.contains("s \"org.translationhost.apertium\""), "\(outcome.result.stdout)")
    // DBus.md's gdbus example of TranslateWithOptions, as written there.
    #expect(lines.contains("(['El gato es en la mesa.'],)"), "\(outcome.result.stdout)")
    #expect(lines.contains { $0.hasPrefix("sdb \"en\" ") && $0.hasSuffix(" true") }, "\(outcome.result.stdout)")
    // Activated by the bus, said so in its log (the bus's stderr), and gone with the bus.
    #expect(outcome.result.stderr.contains("offering \(BusSession.name) on the session bus"))
    #expect(outcome.servicePID != nil)
    #expect(outcome.serviceStopped)
    // What the service introspects is what the installed interface file says.
    let introspected = try Self.interface(in: session.folder.path + "/introspected.xml")
    #expect(!introspected.isEmpty)
    #expect(introspected == (try Self.interface(in: BusSession.interfaceFile)))
  }

  @Test func concurrentCallersEachGetTheirOwnTranslation() throws {
    let sentences = ["The cat is on the table.", "The house is big.", "I like the red apples.", "My brother reads a book."]
    let host = try Host(providerPath: Host.providers)
    var expected: [String: String] = [:]
    for sentence in sentences {
      expected[sentence] = try host.run("translate", "--from", "en", "--to", "es", sentence).stdout.trimmingCharacters(
        in: .newlines)
    }
    let (outcome, json) = try BusSession().python("concurrent", ["12"] + sentences)
    let results = try #require(json as? [[Any]], "\(outcome.result.stderr)")
    #expect(results.count == 12)
    for result in results {
      let sentence = try #require(result.first as? String)
      #expect(result.last as? [String] == [expected[sentence] ?? "?"], "\(result)")
    }
    #expect(outcome.serviceStopped)
  }

  @Test func aCrashingProviderFailsItsCallAndTheNextIsAnswered() throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.dbuscrash")
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c", defines: ["TEXT_TRIGGERS"], name: "libCrash",
      in: directory)
    _ = try BundleFixture(name: "Crash", identifier: identifier).write(name: "Crash", in: directory, library: library)
    let (outcome, json) = try BusSession(providerFolders: [directory.path]).python("crash", [identifier])
    let results = try #require(json as? [Any], "\(outcome.result.stderr)")
    let failure = try #require(results.first as? [String: String])
    #expect(failure["error"] == Self.errorPrefix + "ProviderFailed")
    #expect(failure["message"]?.contains("was killed by SIGSEGV") == true, "\(failure)")
    #expect(results.last as? [String] == ["HI", "THERE"])
    #expect(outcome.serviceStopped)
  }

  /// Callers killed while the provider works for them (it never answers
  /// their text) free their runners: each is stopped at once (50 ms on an
  /// idle machine; the bound below is wider, see there), and the
  /// next call is answered at once, not after the deadline (30 s), as on the socket.
  @Test(arguments: [1, 2])
  func aCallerKilledMidCallFreesItsRunner(callers: Int) throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.dbusabandoned")
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c", defines: ["TEXT_TRIGGERS"], name: "libHang",
      in: directory)
    _ = try BundleFixture(name: "Hang", identifier: identifier).write(name: "Hang", in: directory, library: library)
    let (outcome, json) = try BusSession(providerFolders: [directory.path]).python("abandoned", [identifier, "\(callers)"])
    let answers = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    #expect(answers["warm"] as? [String] == ["WARM"], "\(answers)")
    #expect(answers["answer"] as? [String] == ["HI", "THERE"], "\(answers)")
    // Each killed caller's runner is stopped as soon as the bus drops the
    // caller's name, and the next call is answered at once. Issue 26's figure
    // is 50 ms, met on this machine (2.5-45 ms at load 20-33); the bound is
    // 1 s because a wall-clock bound in a suite that runs beside others on 2
    // cores is noise below that, and the defect it guards against took the
    // whole deadline (3.6-29 s).
    #expect(answers["busy runners"] as? Int == callers, "\(answers)")
    #expect(answers["callers"] as? Int == callers, "\(answers)")
    let stopped = try #require(answers["runners stopped after milliseconds"] as? Double)
    #expect(stopped < 1000, "the runners were stopped \(stopped) ms after the bus dropped their callers: \(answers)")
    let milliseconds = try #require(answers["milliseconds"] as? Double)
    #expect(milliseconds < 1000, "the next call took \(milliseconds) ms")
    // CancelTranslate ends the caller's own call at once, as the named error Cancelled.
    let cancelled = try #require(answers["cancelled"] as? [String: Any], "\(answers)")
    #expect((cancelled["outcome"] as? [String: String])?["error"] == Self.errorPrefix + "Cancelled", "\(cancelled)")
    #expect((cancelled["milliseconds"] as? Double ?? 1e9) < 1000, "\(cancelled)")
    #expect(outcome.serviceStopped)
  }

  /// Errors of a provider that answers badly, and of a service that is busy.
  @Test func nothingToTranslateTimeoutAndBusyAreNamed() throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.dbuserrors")
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c", defines: ["TEXT_TRIGGERS"], name: "libErrors",
      in: directory)
    _ = try BundleFixture(name: "Errors", identifier: identifier).write(name: "Errors", in: directory, library: library)
    let session = try BusSession(providerFolders: [directory.path], serveArguments: ["--max-connections", "1"])
    let (outcome, json) = try session.python("provider-errors", [identifier])
    let answers = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    #expect((answers["nothing"] as? [String: String])?["error"] == Self.errorPrefix + "NothingToTranslate", "\(answers)")
    // The deadline (24 s) comes before a default client's timeout (25 s): it hears why.
    #expect((answers["timeout"] as? [String: String])?["error"] == Self.errorPrefix + "Timeout", "\(answers)")
    #expect((answers["busy"] as? [String: String])?["error"] == Self.errorPrefix + "Busy", "\(answers)")
    #expect(outcome.serviceStopped)
  }

  /// Calls the interface cannot take, and requests the provider refuses.
  static let badArguments: [(call: String, error: String)] = [
    ("wrong signature", "org.freedesktop.DBus.Error.InvalidArgs"),
    ("no such method", "org.freedesktop.DBus.Error.UnknownMethod"),
    ("unsupported target", errorPrefix + "UnsupportedTargetLanguage"),
    ("unsupported source", errorPrefix + "UnsupportedSourceLanguage"),
    ("unidentifiable", errorPrefix + "UnableToIdentifyLanguage"),
    ("no such provider", errorPrefix + "ProviderUnavailable"),
    ("path outside the search path", errorPrefix + "ProviderUnavailable"),
    ("bad parent window", "org.freedesktop.DBus.Error.InvalidArgs"),
    ("bad option type", "org.freedesktop.DBus.Error.InvalidArgs"),
    ("bad arrow edge", "org.freedesktop.DBus.Error.InvalidArgs"),
    ("bad handle token", "org.freedesktop.DBus.Error.InvalidArgs"),
    ("not installed", errorPrefix + "NotInstalled"),
    ("same language", errorPrefix + "UnsupportedLanguagePairing"),
    ("too long for Present", errorPrefix + "InvalidText"),
    ("no target", errorPrefix + "InvalidArguments"),
    ("no such button", errorPrefix + "NoSuchControl"),
    ("unsupported pairing", errorPrefix + "UnsupportedLanguagePairing"),
    ("unsupported language in Present", errorPrefix + "UnsupportedLanguage"),
    ("bad timeout", "org.freedesktop.DBus.Error.InvalidArgs"),
    ("bad timeout type", "org.freedesktop.DBus.Error.InvalidArgs"),
    ("bad Present timeout", "org.freedesktop.DBus.Error.InvalidArgs"),
  ]

  /// One bus session answers every bad call of the table: what the client printed.
  static let badArgumentOutput = Result { () throws -> String in try BusSession().python("bad-arguments").0.result.stdout }

  static func badArgumentAnswers() throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(try badArgumentOutput.get().utf8)) as? [String: Any] ?? [:]
  }

  @Test(arguments: badArguments)
  func aBadCallIsANamedError(_ call: String, _ error: String) throws {
    let answers = try Self.badArgumentAnswers()
    let answer = try #require(answers[call] as? [String: String], "\(answers)")
    #expect(answer["error"] == error, "\(answer)")
    #expect(answer["message"]?.isEmpty == false)
    if call == "not installed" { #expect(answer["message"]?.contains("apertium-eng-cat") == true, "\(answer)") }
  }

  @Test func anEmptyBatchIsAnsweredEmpty() throws {
    let answers = try Self.badArgumentAnswers()
    #expect((answers["empty batch"] as? [Any])?.isEmpty == true, "\(answers)")
    // BCP 47 and POSIX tags alike; a region the provider does not name falls back to its language.
    #expect(answers["tags"] as? [String] == ["El gato es en la mesa."], "\(answers)")
    // Cancelling a request the caller has not made is no error.
    #expect((answers["cancel unknown request"] as? [Any])?.isEmpty == true, "\(answers)")
  }

  /// Close on Present's request object closes the popover at once (the
  /// provider's button never answers), and no Response follows; another
  /// caller may not close it.
  @Test func closeClosesThePopover() throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.dbusclose")
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c", defines: ["HANG_IN_ACTION"], name: "libHang",
      in: directory)
    _ = try BundleFixture(name: "Hang", identifier: identifier).write(name: "Hang", in: directory, library: library)
    let (outcome, json) = try BusSession(providerFolders: [directory.path]).python("close", [identifier])
    let report = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    #expect(report["open before Close"] as? Bool == true, "\(report)")
    #expect(report["open after Close"] as? Bool == false, "\(report)")
    #expect((report["closed within seconds"] as? Double ?? 99) < 2, "\(report)")
    #expect((report["answer"] as? [String: String])?["error"] == "no Response", "\(report)")
    let other = try #require(report["closing another caller's request"] as? [String: String], "\(report)")
    #expect(other["error"] == "org.freedesktop.DBus.Error.AccessDenied", "\(other)")
    #expect(outcome.serviceStopped)
  }

  /// The person answers late (three presses of 4 s): later than the
  /// deadline of each request to the provider (5 s, each press within its
  /// own), than the caller's own timeout for its Present call (5 s, which
  /// returned at once) and than the service's connection idle timeout (1 s
  /// here; 60 s by default): the Response still reaches the caller. (The
  /// same holds at their defaults, 24 s, 25 s and 60 s, with presses of 21 s:
  /// over a minute, too long for `make test`.)
  @Test func presentAnsweredAfterEveryTimeoutReachesTheCaller() throws {
    let (press, deadline, callTimeout) = (4.0, 5.0, 5.0)
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.dbuslate")
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c",
      defines: ["SLOW_PRESSES", "PRESS_SECONDS=\(Int(press))"], name: "libSlow", in: directory)
    _ = try BundleFixture(name: "Slow", identifier: identifier).write(name: "Slow", in: directory, library: library)
    let session = try BusSession(providerFolders: [directory.path], serveArguments: ["--connection-idle-timeout", "1"])
    let (outcome, json) = try session.python("late", [identifier, "\(deadline)", "\(callTimeout)"])
    let report = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    #expect(report["answer"] as? [AnyHashable] == [0, "LATE ANSWER"], "\(report)")
    #expect((report["seconds"] as? Double ?? 0) > 3 * press, "\(report)")
    #expect(outcome.serviceStopped)
  }

  /// `set-default` is told to clients: PropertiesChanged with the new DefaultProvider.
  @Test func propertiesChangedArrivesAfterSetDefault() throws {
    let (outcome, json) = try BusSession().python("properties-changed", [Host.executable, "org.translationhost.reverse"])
    let report = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    #expect(report["before"] as? String == "org.translationhost.apertium", "\(report)")
    // A Get right after set-default sees the new default, before the signal is waited for.
    #expect(report["after"] as? String == "org.translationhost.reverse", "\(report)")
    #expect(report["version"] as? Int == 3, "\(report)")
    let change = try #require((report["changes"] as? [[String: Any]])?.first, "\(report)")
    #expect(change["interface"] as? String == BusSession.name)
    #expect((change["values"] as? [String: Any])?["DefaultProvider"] as? String == "org.translationhost.reverse", "\(change)")
    #expect(outcome.serviceStopped)
  }

  /// The deadline a caller sets reaches the provider the same way on both
  /// transports: the option `timeout` of `TranslateWithOptions` on D-Bus,
  /// the socket's timeout field (`translate --timeout`) on the socket; a
  /// provider that hangs is stopped after it (1.5 s), not after the default 24 s.
  @Test func theCallersDeadlineIsTheSameOnBothTransports() throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.dbusdeadline")
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c", defines: ["TEXT_TRIGGERS"], name: "libHang",
      in: directory)
    _ = try BundleFixture(name: "Hang", identifier: identifier).write(name: "Hang", in: directory, library: library)
    let (outcome, json) = try BusSession(providerFolders: [directory.path]).python("deadline", [Host.executable, identifier])
    let answers = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    for call in ["dbus", "dbus request"] {
      #expect((answers[call] as? [String: String])?["error"] == Self.errorPrefix + "Timeout", "\(answers)")
      #expect((answers[call] as? [String: String])?["message"]?.contains("1.5 s") == true, "\(answers)")
      #expect((1.4..<12).contains(answers[call + " seconds"] as? Double ?? 0), "\(answers)")
    }
    #expect(answers["dbus answer"] as? [String] == ["HI"], "\(answers)")
    let socket = try #require(answers["socket"] as? [String: Any], "\(answers)")
    #expect(socket["exit"] as? Int == 75, "\(socket)")
    #expect((socket["stderr"] as? String)?.contains("1.5 s") == true, "\(socket)")
    #expect((1.4..<12).contains(answers["socket seconds"] as? Double ?? 0), "\(answers)")
    #expect(outcome.serviceStopped)
  }

  /// Tags spelled as apps and users spell them reach Apertium's `en` → `es`
  /// the same on every path (the table the library's test uses too:
  /// `LanguageTagCases`): D-Bus, the CLI through the service and the CLI
  /// with `--no-service`, which matches them against the provider's pairs
  /// itself with the same matcher (Core's `ProviderPairs`).
  @Test func everySpellingOfATagIsReadAlikeOnEveryPath() throws {
    let tags = LanguageTagCases.tags.map { "\($0.source) \($0.target)" }
    let (outcome, json) = try BusSession().python("tags", [Host.executable, LanguageTagCases.sentence] + tags)
    let answers = try #require(json as? [String: [String: Any]], "\(outcome.result.stderr)")
    for tag in tags {
      for path in ["dbus", "cli", "cli --no-service"] {
        let answer = answers[tag]?[path]
        #expect(
          answer as? [String] == [LanguageTagCases.translation] || answer as? String == LanguageTagCases.translation,
          "\(tag) on \(path): \(String(describing: answer))")
      }
    }
    #expect(outcome.serviceStopped)
  }

  /// A failure of the host itself, not of the provider or the call, is
  /// `Failed`: here the user's settings of the provider cannot be read
  /// (they are not JSON), so its runner cannot be given them; the service
  /// goes on answering.
  @Test func aFailureOfTheHostIsFailed() throws {
    let session = try BusSession()
    let settings = session.folder.path + "/config/translation-host/settings"
    try FileManager.default.createDirectory(atPath: settings, withIntermediateDirectories: true)
    try "not JSON".write(toFile: settings + "/org.translationhost.apertium.json", atomically: true, encoding: .utf8)
    let (outcome, json) = try session.python("failed")
    let answers = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    let failure = try #require(answers["default provider"] as? [String: String], "\(answers)")
    #expect(failure["error"] == Self.errorPrefix + "Failed", "\(failure)")
    #expect(failure["message"]?.contains("org.translationhost.apertium.json: cannot be read") == true, "\(failure)")
    #expect((answers["detect"] as? [Any])?.first as? String == "en", "\(answers)")
    #expect(outcome.serviceStopped)
  }

  @Test func presentRunsThePopoverForTheCaller() throws {
    let (outcome, json) = try BusSession().python("present")
    let answers = try #require(json as? [String: Any], "\(outcome.result.stderr)")
    // Replace with Translation: response 0 and the replacement.
    #expect(answers["replaced"] as? [AnyHashable] == [0, "!tleW ,ollaH"], "\(answers)")
    // The scene still open after the last press: dismissed, response 1.
    #expect(answers["dismissed"] as? [AnyHashable] == [1, ""], "\(answers)")
    let properties = try #require(answers["properties"] as? [String: Any])
    #expect(properties["DefaultProvider"] as? String == "org.translationhost.apertium")
    let providers = try #require(properties["Providers"] as? [[String]])
    #expect(
      providers.contains {
        $0.first == "org.translationhost.reverse" && $0.last?.hasSuffix("/Reverse.translationprovider") == true
      })
    #expect(outcome.serviceStopped)
  }

  /// A caller that leaves the bus while its popover is open has it closed:
  /// the `run` process for it ends long before the provider's deadline.
  /// Its text is not on `run`'s command line, which every user can read.
  @Test func aCallerThatLeavesClosesItsPopover() throws {
    let directory = try TemporaryDirectory()
    let identifier = UniqueName.make("org.example.dbushang")
    let library = try CFixture.compile(
      CFixture.packageRoot + "/Tests/Fixtures/misbehaving_provider.c", defines: ["HANG_IN_ACTION"], name: "libHang",
      in: directory)
    _ = try BundleFixture(name: "Hang", identifier: identifier).write(name: "Hang", in: directory, library: library)
    let outcome = try BusSession(providerFolders: [directory.path]).run(
      """
      # A caller that stays on the bus, waiting for the Response, until it is killed.
      /usr/bin/python3 -c "import dbus, time; dbus.Interface(dbus.SessionBus().get_object('\(BusSession.name)', \
        '\(BusSession.objectPath)'), '\(BusSession.name)').Present('', 'a private note', \
        {'provider': '\(identifier)', 'press': dbus.Array(['Go'], 's')}); time.sleep(120)" > /dev/null 2>&1 &
      caller=$!
      # The bracket keeps the pattern from matching this script's own command line.
      for i in $(seq 1 200); do run=$(pgrep -f -- "[-]-provider=\(identifier) --press=Go" | head -n 1); [ -n "$run" ] && break; sleep 0.1; done
      echo "run: ${run:-none}"
      grep -q "private note" "/proc/$run/cmdline" && echo "the text is on the command line"
      sleep 1
      kill -0 "$run" 2>/dev/null && echo "open while the caller waits"
      kill $caller
      for i in $(seq 1 50); do kill -0 "$run" 2>/dev/null || { echo "closed after ${i}"; break; }; sleep 0.1; done
      """)
    let lines = outcome.result.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("run: ") == true && lines.first != "run: none", "\(outcome.result.stderr)")
    #expect(lines.contains("open while the caller waits"), "\(outcome.result.stdout)\n\(outcome.result.stderr)")
    #expect(!lines.contains("the text is on the command line"))
    #expect(lines.contains { $0.hasPrefix("closed after") }, "\(outcome.result.stdout)\n\(outcome.result.stderr)")
    #expect(outcome.serviceStopped)
  }

  /// The bus lets another user's call through here; the service refuses it.
  @Test(.enabled(if: getuid() == 0, "needs root to act as a second user"))
  func anotherUsersCallIsRefused() throws {
    let call = "gdbus call --session -d \(BusSession.name) -o \(BusSession.objectPath) -m \(BusSession.name).Translate"
    let outcome = try BusSession(othersMayConnect: true).run(
      """
      \(call) "['The cat.']" en es ''
      /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \(call) "['The cat.']" en es ''
      """)
    #expect(outcome.result.stdout.contains("El gato."), "\(outcome.result.stderr)")
    #expect(
      outcome.result.stderr.contains("org.freedesktop.DBus.Error.AccessDenied: this service serves uid 0 only"),
      "\(outcome.result.stderr)")
    #expect(outcome.result.stderr.contains("refused a D-Bus call from"))
    #expect(outcome.serviceStopped)
  }

  /// What GDBus serves (Sources/CBusInterface: the introspection data and the
  /// skeletons whose dispatch the service uses) is what gdbus-codegen makes
  /// of the interface's XML now, with the Makefile's options: the XML is the
  /// one source of the interface.
  @Test(arguments: [("--body", "bus_interface.c"), ("--header", "include/bus_interface.h")])
  func theGeneratedInterfaceIsTheXMLs(_ option: String, _ file: String) throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: folder.path + "/include", withIntermediateDirectories: true)
    let makefile = try String(contentsOfFile: CFixture.packageRoot + "/Makefile", encoding: .utf8)
    let options = try #require(
      makefile.split(separator: "\n").first { $0.hasPrefix("DBUS_CODEGEN := ") }?.dropFirst("DBUS_CODEGEN := ".count))
    let generate = try Command.run(
      "/bin/sh",
      ["-c", "cd '\(folder.path)' && gdbus-codegen \(options) \(option) --output \(file) '\(BusSession.interfaceFile)'"])
    #expect(generate.exitCode == 0, "\(generate.stderr)")
    let generated = try String(contentsOfFile: folder.path + "/" + file, encoding: .utf8)
    let kept = try String(contentsOfFile: CFixture.packageRoot + "/Sources/CBusInterface/" + file, encoding: .utf8)
    #expect(generated == kept, "Sources/CBusInterface/\(file) is not what the XML gives: run make dbus-interface")
  }

  /// Every error name of DBus.md's table is one a test of this suite
  /// expects a call to produce (`errorPrefix + "Name"` or the full
  /// `org.freedesktop.DBus.Error.Name`), so a documented error cannot go
  /// untested.
  @Test func everyDocumentedErrorIsProducedByATest() throws {
    let page = try String(contentsOfFile: CFixture.packageRoot + "/Documentation/DBus.md", encoding: .utf8)
    let table = try #require(page.components(separatedBy: "## Errors").dropFirst().first?.components(separatedBy: "\n## ").first)
    let documented = Set(
      table.split(separator: "\n").filter { $0.hasPrefix("| `") }.flatMap { row in
        row.split(separator: "|").first.map { cell in
          cell.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { name in
            String(name.element.split(separator: ".").last ?? "")
          }
        } ?? []
      })
    let source = try String(contentsOfFile: CFixture.packageRoot + "/Tests/EndToEndTests/DBusTests.swift", encoding: .utf8)
    let expected = Set(
      source.components(separatedBy: "errorPrefix + \"").dropFirst().compactMap {
        $0.split(separator: "\"").first.map(String.init)
      }
        + source.components(separatedBy: "org.freedesktop.DBus.Error.").dropFirst().compactMap {
          $0.prefix { $0.isLetter }.nonEmptyString
        })
    #expect(documented.count >= 19, "\(documented.sorted())")
    #expect(
      documented.subtracting(expected).isEmpty, "documented but produced by no test: \(documented.subtracting(expected).sorted())"
    )
  }

  /// The examples of Documentation/DBus.md, as written there.
  static func example(_ language: String) throws -> String {
    let page = try String(contentsOfFile: CFixture.packageRoot + "/Documentation/DBus.md", encoding: .utf8)
    let examples = try #require(page.range(of: "## Examples")).upperBound
    return try #require(
      page[examples...].components(separatedBy: "```\(language)\n").dropFirst().first?.components(separatedBy: "```").first)
  }

  @Test func thePythonAndCExamplesOfTheDocumentationWork() throws {
    let session = try BusSession()
    let python = try session.folder.write("example.py", try Self.example("python"))
    let source = try session.folder.write("example.c", try Self.example("c"))
    let program = session.folder.path + "/example"
    let compile = try Command.run(
      "/bin/sh", ["-c", "cc -Wall -Werror '\(source)' -o '\(program)' $(pkg-config --cflags --libs gio-2.0)"])
    #expect(compile.exitCode == 0, "\(compile.stderr)")
    let outcome = try session.run("/usr/bin/python3 '\(python)' && '\(program)'")
    #expect(
      outcome.result.stdout == "El gato es en la mesa.\nLa casa es grande.\n!tleW ,ollaH\nEl gato es en la mesa.\n",
      "\(outcome.result.stderr)")
    #expect(outcome.serviceStopped)
  }

  /// The interface named in an introspection document, as comparable lines
  /// (methods with their arguments, properties), comments and annotations aside.
  static func interface(in file: String) throws -> [String] {
    let document = try XMLDocument(contentsOf: URL(fileURLWithPath: file))
    let interfaces = try document.nodes(forXPath: "//interface[@name='\(BusSession.name)']")
    guard let interface = interfaces.first as? XMLElement else { return [] }
    return (interface.children ?? []).compactMap { $0 as? XMLElement }.compactMap { member in
      let attributes = { (element: XMLElement) in
        ["name", "type", "direction", "access"].compactMap { element.attribute(forName: $0)?.stringValue }.joined(separator: " ")
      }
      guard member.name == "method" || member.name == "property" else { return nil }
      let arguments = member.elements(forName: "arg").map(attributes)
      return ([member.name ?? "", attributes(member)] + arguments).joined(separator: " | ")
    }.sorted()
  }
}

extension Substring {
  fileprivate var nonEmptyString: String? { isEmpty ? nil : String(self) }
}
