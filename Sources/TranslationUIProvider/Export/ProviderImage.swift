import CTranslationProvider
import Glibc

/// The shared object this SDK was linked into, and its `main`.
///
/// `@main` on a class in a dynamic library makes the library export a C
/// `main` that calls the class's static `main()`, which registers the
/// extension type. Nothing runs that `main` on its own, so the SDK looks it up
/// in the provider's image (the host names it in `tp_host.executable_path`)
/// and calls it once, at `init`.
enum ProviderImage {
  static func runMain(executablePath: UnsafePointer<CChar>) {
    // RTLD_NOLOAD: only a handle to the image already loaded; a lookup through
    // it searches that image and its dependencies, never the host program.
    guard let handle = dlopen(executablePath, RTLD_NOW | RTLD_NOLOAD) else { return }
    defer { dlclose(handle) }
    guard let symbol = dlsym(handle, "main") else {
      ProviderRuntime.log(
        .error, "\(String(cString: executablePath)) exports no 'main': mark the extension class with @main")
      return
    }
    typealias Main = @convention(c) (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    _ = unsafeBitCast(symbol, to: Main.self)(0, nil)
  }
}
