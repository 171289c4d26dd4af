import PackagePlugin

/// Adds to a Swift provider's module the file that lets the SDK create its
/// `@main` entry point through its own `init()` in an optimized build
/// (`translation-provider-entry-point`). A provider's target lists it:
/// `plugins: [.plugin(name: "TranslationProviderEntryPoint", package: "translation-host")]`.
@main
struct TranslationProviderEntryPoint: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let module = target as? SourceModuleTarget else { return [] }
    let sources = module.sourceFiles(withSuffix: "swift").map(\.url)
    let output = context.pluginWorkDirectoryURL.appending(path: "EntryPoint.swift")
    return [
      .buildCommand(
        displayName: "Finding the @main entry point of \(target.name)",
        executable: try context.tool(named: "translation-provider-entry-point").url,
        arguments: [output.path] + sources.map(\.path),
        inputFiles: sources,
        outputFiles: [output])
    ]
  }
}
