import Core
import RunnerProtocol

/// Checks a bundle the way a provider author needs before users see it:
/// its files, then its code in a runner (entry, ABI, capabilities), a scene
/// rendered on a sample text, and the translate capability if present.
package struct ProviderValidator: Sendable {
  /// The text scenes and translations are tried on.
  package static let sampleText = "Hello, world!"

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

    let client: RunnerClient
    do {
      let policy = try SandboxPolicy.forBundle(manifest)
      let settings = try SettingsStore.standard().effectiveJSON(for: manifest)
      client = try RunnerClient.launch(
        bundle: manifest, policy: policy, runnerPath: runnerPath, timeout: timeout, settings: settings)
    } catch {
      checks.append(.failed("\(error)"))
      return checks
    }
    defer { client.close() }
    checks.append(.note("sandbox in force: \(client.sandbox.map(\.rawValue).joined(separator: ", "))"))
    if !manifest.readOnlyPaths.isEmpty {
      checks.append(
        .note(
          "reads, besides its bundle and the system: \(manifest.readOnlyPaths.joined(separator: ", ")) (\(ManifestKey.readOnlyPaths))"
        ))
    }
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
    if client.supports(.selectedTextScene) { checks.append(checkScene(client)) }
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
    do {
      let result = try client.translate([Self.sampleText], from: pair.source, to: pair.target)
      return [
        .passed(
          "translate \(pair.source) → \(pair.target): '\(Self.sampleText)' → '\(result[0])' (\(pairs.count) pairs reported)")
      ]
    } catch {
      return [.failed("translate \(pair.source) → \(pair.target): \(error)")]
    }
  }
}
