import CTranslationProvider

/// The C side of a scene: a `tp_scene` whose `provider_data` is a retained
/// `SceneBridge`. The only place that turns scene pointers back into objects.
final class SceneBridge {
  let session: SceneSession
  let context: HostContext
  /// The last rendering or failure message, kept until the next call.
  private let rendering = OwnedBytes()

  private init(session: SceneSession, context: HostContext) {
    self.session = session
    self.context = context
  }

  /// Creates the scene for `context`, or nil when the extension has no scene.
  static func createScene(for rawContext: UnsafePointer<tp_context>) -> UnsafePointer<tp_scene>? {
    guard let sceneContent = ProviderRuntime.current?.scene else { return nil }
    let context = HostContext(rawContext)
    let session = SceneSession(rootView: sceneContent.makeRootView(for: context)) { [weak context] in
      context?.requestRender()
    }
    let bridge = SceneBridge(session: session, context: context)
    let scene = UnsafeMutablePointer<tp_scene>.allocate(capacity: 1)
    scene.initialize(
      to: tp_scene(
        struct_size: UInt32(MemoryLayout<tp_scene>.size),
        provider_data: Unmanaged.passRetained(bridge).toOpaque(),
        render: { scene, out in
          guard let bridge = SceneBridge.from(scene), let out else { return Int32(TP_STATUS_INVALID_ARGUMENT) }
          return bridge.render(into: out)
        },
        perform_action: { scene, id in
          guard let bridge = SceneBridge.from(scene), let id else { return Int32(TP_STATUS_INVALID_ARGUMENT) }
          return bridge.session.performAction(String(cString: id)) ? Int32(TP_STATUS_OK) : Int32(TP_STATUS_NOT_FOUND)
        },
        set_text: { scene, id, value in
          guard let bridge = SceneBridge.from(scene), let id else { return Int32(TP_STATUS_INVALID_ARGUMENT) }
          return bridge.session.setText(String(cString: id), to: value.string)
            ? Int32(TP_STATUS_OK) : Int32(TP_STATUS_NOT_FOUND)
        },
        destroy: { scene in
          guard let scene, let data = scene.pointee.provider_data else { return }
          let bridge = Unmanaged<SceneBridge>.fromOpaque(data).takeRetainedValue()
          bridge.context.close()
          UnsafeMutablePointer(mutating: scene).deinitialize(count: 1).deallocate()
        }))
    return UnsafePointer(scene)
  }

  private static func from(_ scene: UnsafePointer<tp_scene>?) -> SceneBridge? {
    guard let data = scene?.pointee.provider_data else { return nil }
    return Unmanaged<SceneBridge>.fromOpaque(data).takeUnretainedValue()
  }

  /// Renders and points `out` at JSON owned by this bridge until the next call.
  private func render(into out: UnsafeMutablePointer<tp_string>) -> tp_status {
    do {
      out.pointee = rendering.replace(with: try session.render().jsonData())
      return Int32(TP_STATUS_OK)
    } catch {
      out.pointee = rendering.replace(with: Array("could not encode the view tree: \(error)".utf8))
      return Int32(TP_STATUS_FAILED)
    }
  }
}
