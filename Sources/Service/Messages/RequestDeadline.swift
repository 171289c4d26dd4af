/// The deadline of a request to a provider when its caller names none, the
/// same on every path: the CLI's `--timeout`, the `Translation` library, the
/// service's socket (whose requests carry it) and D-Bus (whose calls take
/// it as the option `timeout`, else this).
package enum RequestDeadline {
  /// 24 s: shorter than the 25 s a D-Bus client (gdbus, dbus-python, GDBus)
  /// waits by default, so that such a client hears `Timeout` rather than
  /// `NoReply`, and the same for everyone else.
  package static let standard = Duration.seconds(24)
}
