// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "translation-host",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "translation-host", targets: ["translation-host"]),
    .executable(name: "translation-host-desktop", targets: ["translation-host-desktop"]),
    .executable(name: "translation-provider-runner", targets: ["translation-provider-runner"]),
    .library(name: "TranslationUIProvider", targets: ["TranslationUIProvider"]),
    .library(name: "Translation", targets: ["Translation"]),
    // Lets the SDK create a provider's @main entry point through its init() in a release build.
    .plugin(name: "TranslationProviderEntryPoint", targets: ["TranslationProviderEntryPoint"]),
    // Providers shipped with the project; `make build` turns each into a bundle.
    .library(name: "Reverse", type: .dynamic, targets: ["Reverse"]),
    .library(name: "Apertium", type: .dynamic, targets: ["Apertium"]),
    .library(name: "ApertiumAPY", type: .dynamic, targets: ["ApertiumAPY"]),
    // An iOS extension ported to Linux; `make build` lays its bundle out in build/examples.
    .library(name: "Glossary", type: .dynamic, targets: ["Glossary"]),
    // A port of an iOS extension that calls a web API with URLSession; also in build/examples.
    .library(name: "WebGlossary", type: .dynamic, targets: ["WebGlossary"]),
  ],
  targets: [
    // MARK: ABI
    .target(name: "CTranslationProvider", exclude: ["README.md"]),
    .target(name: "TranslationViewTree", exclude: ["README.md"]),

    // MARK: SDK
    .target(name: "CEntryPointCall", exclude: ["README.md"]),
    .target(
      name: "TranslationUIProvider", dependencies: ["CTranslationProvider", "CEntryPointCall", "TranslationViewTree"],
      exclude: ["README.md"]),
    .executableTarget(name: "translation-provider-entry-point", exclude: ["README.md"]),
    .plugin(
      name: "TranslationProviderEntryPoint", capability: .buildTool(),
      dependencies: ["translation-provider-entry-point"], path: "Sources/TranslationProviderEntryPoint",
      exclude: ["README.md"]),

    // MARK: Host, bottom layer first (each target's README states its contract)
    // <sys/xattr.h>, which the Glibc module leaves out.
    .systemLibrary(name: "CExtendedAttributes"),
    .target(name: "System", dependencies: ["CExtendedAttributes"], exclude: ["README.md"]),
    .target(name: "RunnerProtocol", dependencies: ["System"], exclude: ["README.md"]),
    .target(name: "CDispatchMainQueue", exclude: ["README.md"], linkerSettings: [.linkedLibrary("dispatch")]),
    .target(
      name: "ProviderLoading", dependencies: ["CTranslationProvider", "CDispatchMainQueue", "RunnerProtocol", "System"],
      exclude: ["README.md"]),
    .target(name: "CLD2Shim", exclude: ["README.md"], linkerSettings: [.linkedLibrary("cld2")]),
    // Secret settings in the user's keyring; libsecret is loaded on first use, not linked.
    .target(name: "CSecretService", exclude: ["README.md"]),
    .target(name: "Core", dependencies: ["System", "RunnerProtocol", "CLD2Shim", "CSecretService"], exclude: ["README.md"]),
    .target(
      name: "Service", dependencies: ["Core", "RunnerProtocol", "System", "TranslationViewTree"], exclude: ["README.md"]),
    .systemLibrary(name: "CGDBus", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
    // The D-Bus interfaces, generated from Packaging/dbus's XML by gdbus-codegen (`make dbus-interface`).
    .target(name: "CBusInterface", dependencies: ["CGDBus"], exclude: ["README.md"]),
    .target(
      name: "ResidentService",
      dependencies: ["Service", "Core", "RunnerProtocol", "System", "Presentation", "CGDBus", "CBusInterface"],
      exclude: ["README.md"]),
    // libfuse3: the container's size-limited view (Debian libfuse3-dev).
    .target(
      name: "CRunnerSandbox", exclude: ["README.md"], linkerSettings: [.linkedLibrary("seccomp"), .linkedLibrary("fuse3")]),
    .executableTarget(
      name: "translation-provider-runner", dependencies: ["ProviderLoading", "RunnerProtocol", "CRunnerSandbox"],
      exclude: ["README.md"]),
    .target(
      name: "Presentation", dependencies: ["Service", "Core", "System", "TranslationViewTree"], exclude: ["README.md"]),
    .systemLibrary(name: "CNCursesW", providers: [.apt(["libncurses-dev"])]),
    .target(
      name: "TerminalPopover", dependencies: ["Presentation", "Service", "Core", "System", "TranslationViewTree", "CNCursesW"],
      exclude: ["README.md"]),
    .systemLibrary(name: "CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev", "libxtst-dev", "libxres-dev"])]),
    .systemLibrary(name: "CAtspi", pkgConfig: "atspi-2", providers: [.apt(["libatspi2.0-dev"])]),
    // The popover's layer surface on wlroots compositors and KWin: libwayland-client, the protocol by wayland-scanner.
    .target(
      name: "CWaylandLayerShell", exclude: ["README.md", "wlr-layer-shell-unstable-v1.xml"],
      linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]),
    // Replace on Wayland by the compositor's virtual keyboard: libwayland-client, the protocol by wayland-scanner.
    .target(name: "CVirtualKeyboard", exclude: ["README.md"], linkerSettings: [.linkedLibrary("wayland-client")]),
    .target(
      name: "DesktopPopover",
      dependencies: [
        "Presentation", "Service", "Core", "System", "TranslationViewTree", "CGtk", "CAtspi", "CWaylandLayerShell",
        "CVirtualKeyboard", "CHostProcess",
      ],
      exclude: ["README.md"]),
    .target(name: "CHostProcess", exclude: ["README.md"]),
    // The CLI without GTK; what needs it is reached through `DesktopFrontEnd`.
    .target(
      name: "HostCommandLine",
      dependencies: [
        "Service", "ResidentService", "Core", "ProviderLoading", "RunnerProtocol", "System", "Presentation", "TerminalPopover",
        "CGDBus", "CHostProcess",
      ],
      exclude: ["README.md"]),
    .executableTarget(name: "translation-host", dependencies: ["HostCommandLine"], exclude: ["README.md"]),
    // The same CLI with the desktop popover, in libexec: translation-host becomes it when a command needs GTK.
    .executableTarget(
      name: "translation-host-desktop", dependencies: ["HostCommandLine", "DesktopPopover", "Presentation", "Service", "System"],
      exclude: ["README.md"]),

    // MARK: Client library
    .target(
      name: "Translation", dependencies: ["Service", "Core", "RunnerProtocol", "System", "Presentation", "TerminalPopover"],
      exclude: ["README.md"]),
    .executableTarget(name: "TranslateFile", dependencies: ["Translation"], path: "Examples/TranslateFile"),
    .executableTarget(name: "ReplaceSelection", dependencies: ["Translation"], path: "Examples/ReplaceSelection"),
    .target(
      name: "Glossary", dependencies: ["TranslationUIProvider"], path: "Examples/Glossary",
      exclude: ["Info.plist", "Glossary.entitlements"]),
    .target(
      name: "WebGlossary", dependencies: ["TranslationUIProvider"], path: "Examples/WebGlossary",
      exclude: ["Info.plist", "WebGlossary.entitlements", "en.lproj", "es.lproj"],
      // Lets the SDK create the entry point through its init() in an optimized
      // build, where nothing else calls it (README, "Writing a provider in Swift").
      plugins: ["TranslationProviderEntryPoint"]),

    // MARK: Providers
    .target(name: "ApertiumSupport", dependencies: ["System"], exclude: ["README.md"]),
    // Loaded into Apertium's stages (LD_PRELOAD), built by `make build` with $(CC) into the Apertium
    // bundle (a SwiftPM library would bring the Swift runtime into every stage); a target for its tests.
    .target(name: "ApertiumIntegerScan", exclude: ["README.md"]),
    .target(
      name: "Apertium", dependencies: ["TranslationUIProvider", "ApertiumSupport"], path: "Plugins/Apertium",
      exclude: ["Info.plist", "Apertium.entitlements"]),
    .target(
      name: "ApertiumAPY", dependencies: ["TranslationUIProvider", "ApertiumSupport", "System"], path: "Plugins/ApertiumAPY",
      exclude: ["Info.plist", "ApertiumAPY.entitlements"]),
    .target(
      name: "Reverse", dependencies: ["TranslationUIProvider"], path: "Plugins/Reverse",
      exclude: ["Info.plist", "Reverse.entitlements"]),

    // MARK: Benchmarks
    .executableTarget(
      name: "host-benchmark",
      dependencies: ["Service", "Core", "RunnerProtocol", "System", "CLD2Shim", "ApertiumSupport", "CGDBus", "Translation"],
      path: "Benchmarks/HostBenchmark"),
    .executableTarget(name: "plist-fuzz", dependencies: ["Core", "System"], path: "Benchmarks/PlistFuzz"),

    // MARK: Tests
    .target(name: "TestSupport", dependencies: ["Service", "System"], path: "Tests/TestSupport"),
    .testTarget(name: "TranslationViewTreeTests", dependencies: ["TranslationViewTree"]),
    .testTarget(name: "ApertiumSupportTests", dependencies: ["ApertiumSupport", "ApertiumIntegerScan", "TestSupport"]),
    .testTarget(
      name: "TranslationUIProviderTests",
      dependencies: [
        "TranslationUIProvider", "TranslationViewTree", "CTranslationProvider", "translation-provider-entry-point",
      ]),
    .testTarget(name: "SystemTests", dependencies: ["System", "TestSupport"]),
    .testTarget(name: "RunnerProtocolTests", dependencies: ["RunnerProtocol", "System", "TestSupport"]),
    .testTarget(
      name: "ProviderLoadingTests", dependencies: ["ProviderLoading", "RunnerProtocol", "CTranslationProvider", "TestSupport"]),
    .testTarget(name: "CoreTests", dependencies: ["Core", "RunnerProtocol", "System", "TestSupport"]),
    .testTarget(
      name: "ServiceTests",
      dependencies: ["Service", "Core", "RunnerProtocol", "System", "TranslationViewTree", "TestSupport"]),
    .testTarget(name: "TerminalPopoverTests", dependencies: ["TerminalPopover", "Presentation", "TranslationViewTree"]),
    .testTarget(
      name: "ResidentServiceTests", dependencies: ["ResidentService", "RunnerProtocol", "Service", "System", "TestSupport"]),
    .testTarget(name: "PresentationTests", dependencies: ["Presentation", "Service", "System", "TranslationViewTree"]),
    .testTarget(
      name: "DesktopPopoverTests",
      dependencies: ["DesktopPopover", "Presentation", "TranslationViewTree", "TestSupport", "CGtk"]),
    .testTarget(
      name: "HostCommandLineTests",
      dependencies: ["HostCommandLine", "Core", "RunnerProtocol", "Service", "System", "TestSupport"]),
    .testTarget(name: "EndToEndTests", dependencies: ["System", "TestSupport", "CExtendedAttributes"]),
    .testTarget(name: "TranslationTests", dependencies: ["Translation", "Presentation", "RunnerProtocol", "TestSupport"]),
  ],
  cxxLanguageStandard: .cxx17
)
