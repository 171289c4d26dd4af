import CTranslationProvider

/// The C side of a scene: a `tp_scene` whose `provider_data` is a retained
/// `SceneBridge`. The only place that turns scene pointers back into objects.
///
/// The host calls a scene on the provider's main thread, so the session
/// (views, `@MainActor` as SwiftUI's) is used through `MainThread.run`.
final class SceneBridge: @unchecked Sendable {
  let session: SceneSession
  let context: HostContext
  /// The last rendering or failure message, kept until the next call.
  private let rendering = OwnedBytes()

  private init(session: SceneSession, context: HostContext) {
    self.session = session
    self.context = context
  }

  /// Creates the scene for `context`, or nil when the extension has no scene.
  static func createScene(of instance: ProviderInstance, for rawContext: UnsafePointer<tp_context>)
    -> UnsafePointer<tp_scene>?
  {
    guard let sceneContent = instance.loaded?.scene else { return nil }
    let context = HostContext(rawContext, instance: instance)
    let session = MainThread.run {
      SceneSession(rootView: sceneContent.makeRootView(for: context), context: context) { [weak context] in
        context?.requestRender()
      }
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
          let action = String(cString: id)
          return MainThread.run { bridge.session.performAction(action) } ? Int32(TP_STATUS_OK) : Int32(TP_STATUS_NOT_FOUND)
        },
        set_text: { scene, id, value in
          guard let bridge = SceneBridge.from(scene), let id else { return Int32(TP_STATUS_INVALID_ARGUMENT) }
          let (field, text) = (String(cString: id), value.string)
          return MainThread.run { bridge.session.setText(field, to: text) } ? Int32(TP_STATUS_OK) : Int32(TP_STATUS_NOT_FOUND)
        },
        destroy: { scene in
          guard let scene, let data = scene.pointee.provider_data else { return }
          let bridge = Unmanaged<SceneBridge>.fromOpaque(data).takeRetainedValue()
          MainThread.run { bridge.session.close() }
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
      let tree = MainThread.run { session.render() }
      out.pointee = rendering.replace(with: try tree.jsonData())
      return Int32(TP_STATUS_OK)
    } catch {
      out.pointee = rendering.replace(with: Array("could not encode the view tree: \(error)".utf8))
      return Int32(TP_STATUS_FAILED)
    }
  }
}
