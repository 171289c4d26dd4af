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
    if client.capabilities.isEmpty {
      checks.append(
        .failed(
          "the provider implements no capability; return a table for '\(Capability.selectedTextScene)' or '\(Capability.translate)' from get_capability"
        ))
    }
    if client.supports(.selectedTextScene) {
      checks.append(checkScene(client))
      // Each text gets a provider that runs: one stopped by a failure is started again.
      for (name, text) in Self.hostileTexts {
        if client.hasEnded {
          client.close()
          do { client = try launch() } catch {
            checks.append(.failed("\(error)"))
            return checks
          }
        }
        checks.append(exerciseScene(client, text: text, named: name))
      }
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
  private func exerciseScene(_ client: RunnerClient, text: String, named name: String) -> ValidationCheck {
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
        while tree.isBusy {
          step = "waiting for the progress indicator to go after \(describe(pressed))"
          guard case .view(let next) = try client.waitForChange(until: deadline) else { break }
          tree = next
        }
        lastButtons = tree.buttons
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
