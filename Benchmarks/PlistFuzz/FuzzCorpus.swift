/// Valid Info.plist and entitlements files in the three formats, the seeds
/// every case is mutated from. The binary ones are written by `BinaryWriter`
/// (not Foundation's encoder) so the corpus, and with it every case, is the
/// same on every run for a seed.
enum FuzzCorpus {
  enum Format: String { case xml, binary, openStep }

  struct Seed {
    var name: String
    var format: Format
    var bytes: [UInt8]
  }

  static let infoXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <!-- identity -->
      <key>CFBundleIdentifier</key><string>org.example.reverse</string>
      <key>CFBundleName</key><string>Reverse &amp; Co</string>
      <key>CFBundleShortVersionString</key><string>1.0</string>
      <key>CFBundleExecutable</key><string>libReverse.so</string>
      <key>EXAppExtensionAttributes</key>
      <dict><key>EXExtensionPointIdentifier</key><string>com.apple.public.translation-ui-provider</string></dict>
      <key>com.apple.developer.translation-ui-provider.network-access</key><false/>
      <key>TPSettings</key>
      <array>
        <dict><key>Key</key><string>endpoint</string><key>Title</key><string><![CDATA[Server <URL>]]></string>
          <key>Type</key><string>string</string><key>Default</key><string>http://127.0.0.1:2737</string></dict>
        <dict><key>Key</key><string>n</string><key>Title</key><string>N&#233;</string>
          <key>Type</key><string>integer</string><key>Default</key><integer>-0x10</integer></dict>
      </array>
      <key>TPExtra</key><array><real>2.5</real><date>2026-01-01T00:00:00Z</date><data>AAECAwQ=</data><true/></array>
    </dict>
    </plist>

    """

  static let entitlementsXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>com.apple.developer.translation-app</key><true/></dict></plist>

    """

  static let infoOpenStep = """
    // Info.plist, OpenStep
    {
      CFBundleIdentifier = org.example.reverse;
      CFBundleName = "Reverse \\"quoted\\"\\n\\U00e9";
      CFBundleShortVersionString = "1.0";
      CFBundleExecutable = libReverse.so;
      EXAppExtensionAttributes = { EXExtensionPointIdentifier = "com.apple.public.translation-ui-provider"; };
      /* settings */
      TPSettings = ( { Key = endpoint; Title = 'Server'; Type = string; Default = "x"; }, );
      TPData = <00010203 0405>;
    }

    """

  static let entitlementsOpenStep = "{ \"com.apple.developer.translation-app\" = 1; }\n"

  static let info: PropertyListValue = .dictionary([
    "CFBundleIdentifier": .string("org.example.reverse"), "CFBundleName": .string("Révérse"),
    "CFBundleShortVersionString": .string("1.0"), "CFBundleExecutable": .string("libReverse.so"),
    "EXAppExtensionAttributes": .dictionary(["EXExtensionPointIdentifier": .string("com.apple.public.translation-ui-provider")]),
    "com.apple.developer.translation-ui-provider.network-access": .boolean(true),
    "TPSettings": .array([.dictionary(["Key": .string("n"), "Type": .string("integer"), "Default": .integer(-300_000)])]),
    "TPExtra": .array([.real(2.5), .integer(1 << 40), .data([1, 2, 3])]),
  ])

  static let seeds: [Seed] = [
    Seed(name: "Info.plist (XML)", format: .xml, bytes: Array(infoXML.utf8)),
    Seed(name: "entitlements (XML)", format: .xml, bytes: Array(entitlementsXML.utf8)),
    Seed(name: "Info.plist (OpenStep)", format: .openStep, bytes: Array(infoOpenStep.utf8)),
    Seed(name: "entitlements (OpenStep)", format: .openStep, bytes: Array(entitlementsOpenStep.utf8)),
    Seed(name: "Info.plist (binary)", format: .binary, bytes: BinaryWriter.file(info)),
    Seed(
      name: "entitlements (binary)", format: .binary,
      bytes: BinaryWriter.file(.dictionary(["com.apple.developer.translation-app": .boolean(true)]))),
  ]

  /// The fuzzer's own value type: the corpus must not depend on the reader under test.
  indirect enum PropertyListValue {
    case string(String), integer(Int), real(Double), boolean(Bool), data([UInt8])
    case array([PropertyListValue]), dictionary([String: PropertyListValue])
  }
}
