import Foundation

/// `translation-provider-entry-point OUTPUT SOURCE...`: writes to OUTPUT the
/// Swift file that lets the SDK create the `@main` type of the module whose
/// SOURCEs are given (`EntryPointSource`). Run by the
/// TranslationProviderEntryPoint build plugin.
@main
enum Entrypoint {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    guard let output = arguments.first else { fail("usage: translation-provider-entry-point OUTPUT SOURCE...", 64) }
    var found: (type: MainTypeScanner.MainType, file: String)?
    for path in arguments.dropFirst() where path.hasSuffix(".swift") {
      guard let source = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read '\(path)'") }
      if let main = MainTypeScanner.mainType(in: source) {
        found = (main, URL(fileURLWithPath: path).lastPathComponent)
        break
      }
    }
    let text = EntryPointSource.text(for: found?.type, in: found?.file)
    // Written only when it changed, so that an unchanged module is not compiled again.
    guard (try? String(contentsOfFile: output, encoding: .utf8)) != text else { return }
    do {
      try text.write(toFile: output, atomically: true, encoding: .utf8)
    } catch {
      fail("cannot write '\(output)': \(error)")
    }
  }

  private static func fail(_ message: String, _ status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(status)
  }
}
