// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "translation-host",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "translation-host", targets: ["translation-host"]),
    .executable(name: "translation-provider-runner", targets: ["translation-provider-runner"]),
    .library(name: "TranslationUIProvider", targets: ["TranslationUIProvider"]),
    .library(name: "Translation", targets: ["Translation"]),
    // Providers shipped with the project; `make build` turns each into a bundle.
    .library(name: "Reverse", type: .dynamic, targets: ["Reverse"]),
    .library(name: "Apertium", type: .dynamic, targets: ["Apertium"]),
    .library(name: "ApertiumAPY", type: .dynamic, targets: ["ApertiumAPY"]),
  ],
  targets: [
    // MARK: ABI
    .target(name: "CTranslationProvider", exclude: ["README.md"]),
    .target(name: "TranslationViewTree", exclude: ["README.md"]),

    // MARK: SDK
    .target(
      name: "TranslationUIProvider", dependencies: ["CTranslationProvider", "TranslationViewTree"],
      exclude: ["README.md"]),

    // MARK: Host
    .target(name: "CLD2Shim", exclude: ["README.md"], linkerSettings: [.linkedLibrary("cld2")]),
    .target(
      name: "TranslationHostCore", dependencies: ["CTranslationProvider", "TranslationViewTree", "CLD2Shim"],
      exclude: ["README.md"]),
    .target(name: "CRunnerSandbox", exclude: ["README.md"], linkerSettings: [.linkedLibrary("seccomp")]),
    .executableTarget(
      name: "translation-provider-runner", dependencies: ["TranslationHostCore", "CRunnerSandbox"],
      exclude: ["README.md"]),
    .systemLibrary(name: "CNCursesW", providers: [.apt(["libncurses-dev"])]),
    .target(
      name: "TerminalPopover", dependencies: ["TranslationHostCore", "TranslationViewTree", "CNCursesW"],
      exclude: ["README.md"]),
    .target(name: "CHostProcess", exclude: ["README.md"]),
    .executableTarget(
      name: "translation-host", dependencies: ["TranslationHostCore", "TerminalPopover", "CHostProcess"],
      exclude: ["README.md"]),

    // MARK: Client library
    .target(name: "Translation", dependencies: ["TranslationHostCore", "TerminalPopover"], exclude: ["README.md"]),
    .executableTarget(name: "TranslateFile", dependencies: ["Translation"], path: "Examples/TranslateFile"),
    .executableTarget(name: "ReplaceSelection", dependencies: ["Translation"], path: "Examples/ReplaceSelection"),

    // MARK: Providers
    .target(name: "ApertiumSupport", exclude: ["README.md"]),
    .target(
      name: "Apertium", dependencies: ["TranslationUIProvider", "ApertiumSupport"], path: "Plugins/Apertium",
      exclude: ["Info.plist", "Apertium.entitlements"]),
    .target(
      name: "ApertiumAPY", dependencies: ["TranslationUIProvider", "ApertiumSupport"], path: "Plugins/ApertiumAPY",
      exclude: ["Info.plist", "ApertiumAPY.entitlements"]),
    .target(
      name: "Reverse", dependencies: ["TranslationUIProvider"], path: "Plugins/Reverse",
      exclude: ["Info.plist", "Reverse.entitlements"]),

    // MARK: Benchmarks
    .executableTarget(
      name: "host-benchmark", dependencies: ["TranslationHostCore", "CLD2Shim", "ApertiumSupport"], path: "Benchmarks/HostBenchmark"),
    .executableTarget(name: "plist-fuzz", dependencies: ["TranslationHostCore"], path: "Benchmarks/PlistFuzz"),

    // MARK: Tests
    .target(name: "TestSupport", dependencies: ["TranslationHostCore"], path: "Tests/TestSupport"),
    .testTarget(name: "TranslationViewTreeTests", dependencies: ["TranslationViewTree"]),
    .testTarget(name: "ApertiumSupportTests", dependencies: ["ApertiumSupport", "TestSupport"]),
    .testTarget(name: "TranslationUIProviderTests", dependencies: ["TranslationUIProvider", "TranslationViewTree"]),
    .testTarget(name: "TranslationHostCoreTests", dependencies: ["TranslationHostCore", "TestSupport"]),
    .testTarget(name: "TerminalPopoverTests", dependencies: ["TerminalPopover", "TranslationViewTree"]),
    .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
    .testTarget(name: "TranslationTests", dependencies: ["Translation", "TestSupport"]),
  ],
  cxxLanguageStandard: .cxx17
)
