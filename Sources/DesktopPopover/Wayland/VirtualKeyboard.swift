import System

/// Types a text into the window with the keyboard focus through the
/// compositor's virtual keyboard (`zwp_virtual_keyboard_v1`, which wlroots
/// compositors such as sway offer), with `wtype` (Debian's wtype), which
/// makes a keymap for whatever characters the text holds. The text goes on
/// its stdin, never on its command line, which every user can read in /proc.
enum VirtualKeyboard {
  /// An application binds a new keyboard only after the compositor has
  /// announced it: keys typed sooner reach nobody.
  static let announcementDelay = Duration.milliseconds(300)

  /// Types `text`. - Returns: whether wtype ran and typed all of it (false
  /// when it is missing, or the compositor has no virtual keyboard).
  static func type(_ text: String, environment: [String: String]) -> Bool {
    let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/wtype" }
      .first { (try? FileStatus(path: $0))?.isRegularFile == true }
    guard let path else { return false }
    do throws(Errno) {
      let (parent, child) = try Syscalls.socketPair()
      let pid = try Syscalls.spawn(
        path, arguments: ["-s", String(announcementDelay.pollMilliseconds), "-"],
        environment: environment.map { "\($0)=\($1)" },
        actions: [.duplicate(child, as: .standardInput), .nullDevice(as: .standardOutput)], newSession: true)
      Syscalls.close(child)
      try? Syscalls.writeAll(parent, text)
      Syscalls.close(parent)
      return ExitStatus(waitStatus: try Syscalls.wait(pid)) == .exited(0)
    } catch {
      return false
    }
  }
}
