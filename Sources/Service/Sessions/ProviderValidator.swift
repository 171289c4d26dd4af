import Core
import RunnerProtocol
import System
import TranslationViewTree

/// Checks a bundle the way a provider author needs before users see it:
/// its files, then its code in a runner (entry, ABI, capabilities), a scene
/// rendered on a sample text, and the translate capability if present.
package struct ProviderValidator: Sendable {
  /// The text scenes and translations are tried on.
  package static let sampleText = "Hello, world!"

  /// Texts a provider meets from users sooner or later, each of which has
  /// broken a provider: one that builds its view tree or its answers by
  /// pasting text in unescaped fails on them here rather than in use.
  package static let hostileTexts: [(name: String, text: String)] = [
    ("quotes", #"She said "hi", then 'bye'"#),
    ("backslashes", #"C:\new\table \u0041 \" \\"#),
    ("newlines and tabs", "one\ntwo\r\n\tthree\u{2028}four"),
    ("a NUL character", "before\u{0}after"),
    ("emoji and other scripts", "👋🏽 Grüße, 世界! مرحبا ﷽ e\u{301}"),
    ("64 KiB of text", String(repeating: "The cat is on the table. ", count: 2_622)),
  ]

  package var runnerPath: String
  package var timeout: Duration

  package init(runnerPath: String, timeout: Duration) {
    self.runnerPath = runnerPath
    self.timeout = timeout
  }

  /// Every check, in order; the bundle passes when none failed.
  package func validate(bundleAt path: String) -> [ValidationCheck] {
    let inspection = BundleInspector.inspect(path)
    var checks = inspection.problems.map { ValidationCheck.failed($0.description) }
    guard let manifest = inspection.manifest else {
      checks.append(.failed("\(path): the manifest is unusable, so the code was not loaded; fix the problems above"))
      return checks
    }
    if inspection.problems.contains(where: \.isSafetyProblem) {
      checks.append(
        .failed("\(path): others could have written this bundle, so its code was not loaded; fix the permissions above"))
      return checks
    }
    if checks.isEmpty {
      checks.append(
        .passed(
          "manifest: \(manifest.identifier) \(manifest.version), network access \(manifest.allowsNetworkAccess ? "declared" : "not declared")"
        ))
    }

    // The identifier's settings and container go to the bundle that holds it
    // alone: another (an update about to be installed, an author's build)
    // is tried with the defaults and a container of its own, removed afterwards.
    let claim = IdentityClaim(
      identifier: manifest.identifier, path: path, in: ProviderRegistry.standard().scan())
    if case .heldBy(let owner) = claim {
      if ProviderResolution.listed(path, in: ProviderRegistry.standard().scan()) != nil {
        checks.append(.failed(RegistryError.identifierHeld(path, identifier: manifest.identifier, owner: owner).description))
        return checks
      }
      checks.append(
        .note(
          "\(owner) holds the identifier \(manifest.identifier): tried with the default settings and an empty container, not that provider's"
        ))
    }
    var scratch: TemporaryContainer?
    defer { scratch?.remove() }
    let launch = { () throws -> RunnerClient in
      var policy = try SandboxPolicy.forBundle(manifest)
      var settings = try SettingsStore.standard().effectiveJSON(for: manifest)
      if !claim.grantsIdentity {
        scratch = try TemporaryContainer()
        policy.container = scratch?.path
        settings = SettingsStore.defaultJSON(for: manifest)
      }
      return try RunnerClient.launch(
        bundle: manifest, policy: policy, runnerPath: runnerPath, timeout: timeout, settings: settings)
    }
    var client: RunnerClient
    do {
      client = try launch()
    } catch {
      checks.append(.failed("\(error)"))
      return checks
    }
    defer { client.close() }
    checks.append(.note("sandbox in force: \(client.sandbox.map(\.rawValue).joined(separator: ", "))"))
    for grant in manifest.grants { checks.append(.note(grant)) }
    checks.append(
      .passed(
        "loaded \(manifest.executablePath): ABI \(client.providerABI), capabilities \(client.capabilities.isEmpty ? "none" : client.capabilities.map(\.rawValue).joined(separator: ", "))"
      ))
    if client.answersUnknownCapability {
      checks.append(
        .failed(
          "get_capability answered a table for '\(Capability.unknownProbe)', an id it cannot know; return NULL for every id you do not implement, or a later host will call into that table"
        ))
    }
    checks += exportedSymbolChecks(manifest.executablePath)
    if client.capabilities.isEmpty {
      checks.append(
        .failed(
          "the provider implements no capability; return a table for '\(Capability.selectedTextScene)' or '\(Capability.translate)' from get_capability"
        ))
    }
    if client.supports(.selectedTextScene) {
      checks.append(checkScene(client))
      var buttons = ButtonsSeen()
      var sceneChecks: [(name: String, check: ValidationCheck)] = []
      // Each text gets a provider that runs: one stopped by a failure is started again.
      for (name, text) in Self.hostileTexts {
        if client.hasEnded {
          client.close()
          do { client = try launch() } catch {
            checks += Self.merged(sceneChecks)
            checks.append(.failed("\(error)"))
            return checks
          }
        }
        sceneChecks.append((name, exerciseScene(client, text: text, named: name, buttons: &buttons)))
      }
      checks += Self.merged(sceneChecks)
      checks += buttons.warnings(texts: Self.hostileTexts.count)
      if client.hasEnded {
        client.close()
        do { client = try launch() } catch {
          checks.append(.failed("\(error)"))
          return checks
        }
      }
    }
    if client.supports(.translate), !client.hasEnded { checks += checkTranslation(client) }
    if client.hasEnded { checks.append(.note("the provider's runner ended, so the remaining checks were skipped")) }
    return checks
  }

  private func checkScene(_ client: RunnerClient) -> ValidationCheck {
    do {
      switch try client.openScene(inputText: Self.sampleText, allowsReplacement: true) {
      case .view(let tree):
        try client.closeScene()
        let buttons = tree.buttons.map { "'\($0.label)'" }.joined(separator: ", ")
        return .passed("scene renders on '\(Self.sampleText)'; buttons: \(buttons.isEmpty ? "none" : buttons)")
      case .finished:
        return .passed("scene finished as soon as it opened")
      }
    } catch {
      return .failed("scene: \(error)")
    }
  }

  /// Opens the scene on `text`, edits every text field (with `text`) and
  /// presses every enabled button once, in reading order, waiting while the
  /// scene shows work in progress; a button that finishes the scene is
  /// pressed, and the scene opened again for the buttons after it.
  private func exerciseScene(
    _ client: RunnerClient, text: String, named name: String, buttons: inout ButtonsSeen
  ) -> ValidationCheck {
    var pressed: [String] = []
    var edited: Set<String> = []
    var opened = 0
    var step = "opening the scene"
    do {
      var update = try client.openScene(inputText: text, allowsReplacement: true)
      opened += 1
      var lastButtons: [ViewTree.ButtonControl] = []
      while true {
        guard case .view(var tree) = update else {
          // Finished: open again while buttons of the last view are left to press.
          guard opened <= lastButtons.count, lastButtons.contains(where: { !pressed.contains($0.label) }) else { break }
          step = "opening the scene again"
          update = try client.openScene(inputText: text, allowsReplacement: true)
          opened += 1
          continue
        }
        let deadline = ContinuousClock.Instant.after(timeout)
        while tree.isBusy || tree.isSettling {
          step =
            tree.isBusy
            ? "waiting for the progress indicator to go after \(describe(pressed))"
            : "waiting for the scene to settle (its .task work to finish) after \(describe(pressed))"
          guard case .view(let next) = try client.waitForChange(until: deadline) else { break }
          tree = next
        }
        lastButtons = tree.buttons
        buttons.saw(tree.buttons)
        if let field = tree.textFields.first(where: { $0.isEnabled && !edited.contains($0.id) }) {
          edited.insert(field.id)
          step = "editing the text field '\(field.id)'"
          update = try client.setText(field.id, to: text)
          continue
        }
        guard let button = tree.buttons.first(where: { $0.isEnabled && !pressed.contains($0.label) }) else { break }
        pressed.append(button.label)
        step = "pressing '\(button.label)'"
        update = try client.performAction(button.id)
      }
      if case .view = update { try client.closeScene() }
    } catch {
      return .failed("scene on \(name): \(step): \(error)")
    }
    return .passed(
      "scene on \(name): \(describe(pressed)), \(edited.count) text field\(edited.count == 1 ? "" : "s") edited")
  }

  /// The scene checks, with failures that say the same thing about several
  /// texts reported once, with the texts named and counted.
  package static func merged(_ checks: [(name: String, check: ValidationCheck)]) -> [ValidationCheck] {
    var result: [ValidationCheck] = []
    var failures: [(detail: String, names: [String])] = []
    for (name, check) in checks {
      let prefix = "scene on \(name): "
      guard check.outcome == .failed, check.message.hasPrefix(prefix) else {
        result.append(check)
        continue
      }
      let detail = String(check.message.dropFirst(prefix.count))
      if let index = failures.firstIndex(where: { $0.detail == detail }) {
        failures[index].names.append(name)
      } else {
        failures.append((detail, [name]))
      }
    }
    for (detail, names) in failures {
      let texts = names.count == 1 ? names[0] : names.joined(separator: ", ") + " (the same failure on \(names.count) texts)"
      result.append(.failed("scene on \(texts): \(detail)"))
    }
    return result
  }

  /// The provider's exported symbols besides its entry points: a C provider
  /// built without -fvisibility=hidden exports every function, and one of
  /// its names may then stand for another library's in the same process.
  private func exportedSymbolChecks(_ path: String) -> [ValidationCheck] {
    guard let symbols = try? ExportedSymbols.read(path) else { return [] }
    let entries = symbols.filter(ExportedSymbols.entryPoints.contains)
    let swift = symbols.filter { $0.hasPrefix("$s") && !ExportedSymbols.entryPoints.contains($0) }
    let extra = symbols.filter { !ExportedSymbols.entryPoints.contains($0) && !$0.hasPrefix("$s") }
    var checks: [ValidationCheck] = []
    if extra.isEmpty {
      checks.append(.passed("exports no C symbol besides its entry points (\(entries.joined(separator: ", ")))"))
    } else {
      let shown = extra.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
      checks.append(
        .warning(
          "exports \(extra.count) C symbol\(extra.count == 1 ? "" : "s") besides its entry points (\(shown)\(extra.count > 5 ? ", …" : "")): "
            + "build with -fvisibility=hidden and mark only the entry with TP_EXPORT, so that no name of yours stands for a library's"
        ))
    }
    if !swift.isEmpty {
      checks.append(
        .note(
          "exports \(swift.count) Swift symbols (the SDK's and the provider's public declarations); each provider has a runner of its own, so they meet no other provider's"
        ))
    }
    return checks
  }

  private func describe(_ pressed: [String]) -> String {
    pressed.isEmpty ? "no button pressed" : "pressed " + pressed.map { "'\($0)'" }.joined(separator: ", ")
  }

  private func checkTranslation(_ client: RunnerClient) -> [ValidationCheck] {
    let pairs: [LanguagePairStatus]
    do {
      pairs = try client.languages()
    } catch {
      return [.failed("languages: \(error)")]
    }
    guard let pair = pairs.first(where: { $0.availability == .installed }) else {
      return [.note("reports \(pairs.count) language pairs, none installed, so translation was not tried")]
    }
    var checks: [ValidationCheck]
    do {
      let result = try client.translate([Self.sampleText], from: pair.source, to: pair.target)
      checks = [
        .passed(
          "translate \(pair.source) → \(pair.target): '\(Self.sampleText)' → '\(result[0])' (\(pairs.count) pairs reported)")
      ]
    } catch {
      return [.failed("translate \(pair.source) → \(pair.target): \(error)")]
    }
    // The hostile texts in one batch: every one answered, in order, as UTF-8.
    let names = Self.hostileTexts.map(\.name).joined(separator: ", ")
    do {
      let results = try client.translate(Self.hostileTexts.map(\.text), from: pair.source, to: pair.target)
      checks.append(
        .passed("translate \(pair.source) → \(pair.target) on hostile texts (\(names)): \(results.count) answers"))
    } catch {
      checks.append(.failed("translate \(pair.source) → \(pair.target) on hostile texts (\(names)): \(error)"))
    }
    return checks
  }
}

/// The buttons `validate` saw across its scene runs, and whether each was
/// ever enabled: one that never was could not be pressed, and users will
/// meet it disabled too.
struct ButtonsSeen {
  private var enabled: [String: Bool] = [:]
  private var order: [String] = []

  mutating func saw(_ buttons: [ViewTree.ButtonControl]) {
    for button in buttons {
      if enabled[button.label] == nil { order.append(button.label) }
      enabled[button.label] = (enabled[button.label] ?? false) || button.isEnabled
    }
  }

  func warnings(texts: Int) -> [ValidationCheck] {
    order.filter { enabled[$0] == false }.map {
      .warning(
        "button '\($0)' never became enabled in the scene on any of the \(texts) texts, so it was never pressed: check what enables it (a .task that never finishes, a condition that never holds)"
      )
    }
  }
}
