import CGDBus

/// Reading and making the GVariant values of the interface's calls. Values
/// made here are floating references, which the call that takes them
/// (a reply, a tuple, an array) sinks; values read are borrowed.
enum GVariantCoding {
  /// Child `index` of a container, released after `body`.
  static func withChild<T>(_ value: OpaquePointer, _ index: Int, _ body: (OpaquePointer) throws -> T) rethrows -> T {
    let child = g_variant_get_child_value(value, gsize(index))!
    defer { g_variant_unref(child) }
    return try body(child)
  }

  static func string(_ value: OpaquePointer) -> String {
    String(cString: g_variant_get_string(value, nil))
  }

  static func typeString(_ value: OpaquePointer) -> String {
    String(cString: g_variant_get_type_string(value))
  }

  static func strings(_ value: OpaquePointer) -> [String] {
    (0..<Int(g_variant_n_children(value))).map { index in withChild(value, index, string) }
  }

  /// The entries of an `a{sv}`, each value unboxed from its variant and released after `body`.
  static func forEachEntry(_ dictionary: OpaquePointer, _ body: (String, OpaquePointer) throws -> Void) rethrows {
    for index in 0..<Int(g_variant_n_children(dictionary)) {
      try withChild(dictionary, index) { entry in
        let key = withChild(entry, 0, string)
        try withChild(entry, 1) { boxed in
          let value = g_variant_get_variant(boxed)!
          defer { g_variant_unref(value) }
          try body(key, value)
        }
      }
    }
  }

  // MARK: Making

  static func make(_ text: String) -> OpaquePointer { g_variant_new_string(text) }

  static func makeStrings(_ texts: [String]) -> OpaquePointer {
    makeArray(elementType: "s", texts.map(make))
  }

  static func makeTuple(_ children: [OpaquePointer]) -> OpaquePointer {
    var children: [OpaquePointer?] = children
    return g_variant_new_tuple(&children, gsize(children.count))
  }

  /// An array of `elements`, each of type `elementType` (named, so an empty array has a type).
  static func makeArray(elementType: String, _ elements: [OpaquePointer]) -> OpaquePointer {
    let type = g_variant_type_new(elementType)
    defer { g_variant_type_free(type) }
    var children: [OpaquePointer?] = elements
    return g_variant_new_array(type, &children, gsize(children.count))
  }

  /// An `a(sss)`.
  static func makeRows(_ rows: [[String]]) -> OpaquePointer {
    makeArray(elementType: "(sss)", rows.map { makeTuple($0.map(make)) })
  }
}
