import FoundationEssentials

/// Writes provider bundles for tests: a valid one by default, with any key
/// changed, removed or retyped, and any shared object.
package struct BundleFixture {
  /// The Info.plist entries; values are written as property-list XML.
  package var info: [String: PlistValue]
  /// The entitlements entries, or nil for no entitlements file.
  package var entitlements: [String: PlistValue]?
  /// Extra files to add, by name.
  package var extraFiles: [String: String] = [:]
  /// Whether to write the file `CFBundleExecutable` names.
  package var writesExecutable = true

  /// A value to write into a property list.
  package enum PlistValue {
    case string(String)
    case boolean(Bool)
    case integer(Int)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    var xml: String {
      switch self {
      case .string(let value): "<string>\(value)</string>"
      case .boolean(let value): value ? "<true/>" : "<false/>"
      case .integer(let value): "<integer>\(value)</integer>"
      case .array(let values): "<array>" + values.map(\.xml).joined() + "</array>"
      case .dictionary(let entries):
        "<dict>" + entries.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key>\($0.value.xml)" }.joined() + "</dict>"
      }
    }
  }

  /// A valid manifest for `name` whose executable is `lib<name>.so`.
  package init(name: String, identifier: String? = nil) {
    info = [
      "CFBundleIdentifier": .string(identifier ?? "org.example.\(name.lowercased())"),
      "CFBundleName": .string(name),
      "CFBundleShortVersionString": .string("1.0"),
      "CFBundleExecutable": .string("lib\(name).so"),
      "EXAppExtensionAttributes": .dictionary(["EXExtensionPointIdentifier": .string("com.apple.public.translation-ui-provider")]
      ),
    ]
    entitlements = ["com.apple.developer.translation-app": .boolean(true)]
  }

  /// The first bytes of an x86-64 ELF shared object: enough for inspection,
  /// which reads only the header, not for loading.
  package static let elfHeader: [UInt8] = {
    var header = [UInt8](repeating: 0, count: 64)
    header[0...3] = [0x7f, 0x45, 0x4c, 0x46]
    header[4] = 2  // 64-bit
    header[5] = 1  // little-endian
    header[6] = 1
    header[16] = 3  // ET_DYN
    header[18] = 62  // x86-64
    return header
  }()

  /// Writes `<directory>/<name>.translationprovider` with `library` copied in
  /// as the executable (or `elfHeader` when nil); returns the bundle path.
  @discardableResult
  package func write(name: String, in directory: TemporaryDirectory, library: String? = nil) throws -> String {
    let bundle = "\(name).translationprovider"
    try directory.write("\(bundle)/Info.plist", Self.plist(info))
    if let entitlements { try directory.write("\(bundle)/\(name).entitlements", Self.plist(entitlements)) }
    if writesExecutable, case .string(let executable)? = info["CFBundleExecutable"], !executable.contains("/"),
      executable != ".", executable != ".."
    {
      let data = try library.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? Data(Self.elfHeader)
      try directory.write("\(bundle)/\(executable)", data)
    }
    for (file, contents) in extraFiles { try directory.write("\(bundle)/\(file)", contents) }
    return directory.path + "/" + bundle
  }

  package static func plist(_ entries: [String: PlistValue]) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">\(PlistValue.dictionary(entries).xml)</plist>
    """
  }
}
